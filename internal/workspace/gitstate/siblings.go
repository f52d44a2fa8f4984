package gitstate

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/clew-lsp/clew-lsp/internal/claims"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// Siblings implements workspace.Siblings: the repositories a brain's
// `.multivac/config.yml` declares, read through go-git.
//
//   - At the channel ref (brain scope, default): the ref's tree is the file
//     list (`ls-tree -r`, symlinks and submodules dropped) and blobs are the
//     content. Neither the work tree nor the network is touched.
//   - When the channel does not resolve, or under --worktree: the index is
//     the file list (conflicted stages collapse to one path and are reported
//     as MID-MERGE) and the work tree is the content.
//   - A declared directory that does not exist: not on disk (legs
//     unevaluated).
//   - A directory that is not inside any git repository: its working tree,
//     walked like a workspace outside git (regular files, default excludes),
//     and the read line says FELL BACK and "not a git repository".
//   - An entry whose directory is the brain itself: the brain's working
//     tree, with the brain's identity, so `*` reads it once.
//
// Ref listings are immutable for a commit, so they are cached across runs
// (the language server checks many snapshots); blob and file contents are
// read once per run by the engine and not kept.
type Siblings struct {
	// Now is the clock for "last fetch 2h ago"; time.Now when nil.
	Now func() time.Time

	mu    sync.Mutex
	trees map[string]*refListing // real path + "@" + commit → listing
}

var _ workspace.Siblings = (*Siblings)(nil)

// NewSiblings returns a sibling opener with an empty cache.
func NewSiblings() *Siblings { return &Siblings{trees: map[string]*refListing{}} }

// notARepoBranch stands in for the branch on the read line of a declared
// directory outside git (ReadLine knows only multivac's kinds, so a plain
// directory is a ReadFellBack whose branch says what it is).
const notARepoBranch = "(not a git repository)"

// Open resolves a declared entry relative to the brain and opens it.
func (s *Siblings) Open(brainRoot string, entry claims.RepoEntry, channel string, worktree bool) claims.Repo {
	if channel == "" {
		channel = claims.DefaultChannel
	}
	dir := filepath.FromSlash(entry.Path)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(brainRoot, dir)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return notOnDisk(entry.Key)
	}
	if st, err := os.Stat(real); err != nil || !st.IsDir() {
		return notOnDisk(entry.Key)
	}
	brainReal := brainRoot
	if r, err := filepath.EvalSymlinks(brainRoot); err == nil {
		brainReal = r
	}
	if real == brainReal || real == brainRoot {
		// The brain itself, reached by another key: its working tree, the
		// commit this run gates (docs/claims.md), one identity with "brain".
		return s.openWorktree(entry.Key, brainRoot, real, brainRoot+"@worktree", claims.ReadFacts{Kind: claims.ReadBrain}, "")
	}
	r, err := git.PlainOpenWithOptions(real, &git.PlainOpenOptions{DetectDotGit: true})
	if err != nil {
		return s.openPlain(entry.Key, real, channel)
	}
	top, prefix := "", ""
	if wt, err := r.Worktree(); err == nil {
		top = wt.Filesystem.Root()
		if rel, err := filepath.Rel(top, real); err == nil && rel != "." {
			prefix = filepath.ToSlash(rel) + "/"
		}
	}
	if !worktree {
		if h, err := r.ResolveRevision(plumbing.Revision(channel)); err == nil {
			if c, err := r.CommitObject(*h); err == nil {
				return s.openRef(entry.Key, r, real, top, prefix, channel, c)
			}
		}
	}
	if top == "" { // a bare repository whose channel does not resolve: nothing to read
		return notOnDisk(entry.Key)
	}
	facts := claims.ReadFacts{Kind: claims.ReadFellBack, Channel: channel}
	if worktree {
		facts.Kind = claims.ReadWorktree
		if h, err := r.ResolveRevision(plumbing.Revision(channel)); err == nil {
			facts.ChannelSHA = short(h.String())
		}
	}
	rep := s.openWorktree(entry.Key, top, real, real+"@worktree", facts, prefix)
	rep.repo = r
	rep.fillHead()
	return rep
}

func short(h string) string {
	if len(h) > 7 {
		return h[:7]
	}
	return h
}

func notOnDisk(key string) claims.Repo {
	return &claims.MemRepo{Name: key, ID: "\x00missing:" + key, Missing: true,
		ReadFacts: claims.ReadFacts{Kind: claims.ReadNotOnDisk}}
}

// validPath refuses a listed path that could escape the checkout.
func validPath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || strings.Contains(p, "\x00") {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." || seg == ".git" {
			return false
		}
	}
	return true
}

// ---- ref reads ----

type refListing struct {
	files []string
	blobs map[string]plumbing.Hash
}

// refRepo reads a commit's tree: blobs only.
type refRepo struct {
	key, identity string
	repo          *git.Repository
	blobs         storer.EncodedObjectStorer
	listing       *refListing
	facts         claims.ReadFacts
}

func (s *Siblings) openRef(key string, r *git.Repository, real, top, prefix, channel string, c *object.Commit) claims.Repo {
	id := real + "@" + c.Hash.String()
	s.mu.Lock()
	if s.trees == nil {
		s.trees = map[string]*refListing{}
	}
	l := s.trees[id]
	s.mu.Unlock()
	if l == nil {
		l = listTree(c, prefix)
		s.mu.Lock()
		s.trees[id] = l
		s.mu.Unlock()
	}
	facts := claims.ReadFacts{Kind: claims.ReadChannel, Channel: channel, SHA: short(c.Hash.String()),
		LastFetch: s.lastFetch(r)}
	if top != "" {
		if head, err := r.Head(); err == nil && head.Hash() != c.Hash {
			b := "(detached)"
			if head.Name().IsBranch() {
				b = head.Name().Short()
			}
			facts.Parked = b + " @ " + short(head.Hash().String())
		}
	}
	rr := &refRepo{key: key, identity: id, repo: r, listing: l, facts: facts}
	rr.blobs = r.Storer
	if fsys, ok := r.Storer.(*filesystem.Storage); ok {
		// Keep pack files open across the run's blob reads (go-git reopens
		// the pack for every object otherwise); closed when the repo is
		// dropped, since the engine has no "done" call.
		st := filesystem.NewStorageWithOptions(fsys.Filesystem(), cache.NewObjectLRUDefault(),
			filesystem.Options{KeepDescriptors: true})
		rr.blobs = st
		runtime.AddCleanup(rr, func(st *filesystem.Storage) { st.Close() }, st)
	}
	return rr
}

// listTree is `git ls-tree -r --full-tree` under prefix: regular and
// executable files only (symlinks and submodules dropped), sorted.
func listTree(c *object.Commit, prefix string) *refListing {
	l := &refListing{blobs: map[string]plumbing.Hash{}}
	tree, err := c.Tree()
	if err != nil {
		return l
	}
	w := object.NewTreeWalker(tree, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if err != nil {
			break // io.EOF, or a damaged tree: what was listed stays
		}
		if e.Mode != filemode.Regular && e.Mode != filemode.Executable && e.Mode != filemode.Deprecated {
			continue
		}
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		p := strings.TrimPrefix(name, prefix)
		if !validPath(p) {
			continue
		}
		l.files = append(l.files, p)
		l.blobs[p] = e.Hash
	}
	sort.Strings(l.files)
	return l
}

func (r *refRepo) Key() string             { return r.key }
func (r *refRepo) Identity() string        { return r.identity }
func (r *refRepo) OnDisk() bool            { return true }
func (r *refRepo) Files() []string         { return r.listing.files }
func (r *refRepo) Untracked() []string     { return nil }
func (r *refRepo) Facts() claims.ReadFacts { return r.facts }
func (r *refRepo) Read(p string) ([]byte, bool) {
	h, ok := r.listing.blobs[p]
	if !ok {
		return nil, false
	}
	// Any size: a leg must see a forbidden pattern in a big file too; the
	// run's byte budget (claims.Sizer) bounds what is read.
	obj, err := r.blobs.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return nil, false
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, false
	}
	defer rd.Close()
	b, err := io.ReadAll(rd)
	if err != nil {
		return nil, false
	}
	return b, true
}

// Size is the blob's size, read from its header.
func (r *refRepo) Size(p string) (int64, bool) {
	h, ok := r.listing.blobs[p]
	if !ok {
		return 0, false
	}
	obj, err := r.blobs.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return 0, false
	}
	return obj.Size(), true
}

// lastFetch is the age of FETCH_HEAD ("" when this clone never fetched).
func (s *Siblings) lastFetch(r *git.Repository) string {
	fsys, ok := r.Storer.(*filesystem.Storage)
	if !ok {
		return ""
	}
	st, err := os.Stat(filepath.Join(fsys.Filesystem().Root(), "FETCH_HEAD"))
	if err != nil {
		return ""
	}
	now := time.Now()
	if s.Now != nil {
		now = s.Now()
	}
	return Ago(now.Sub(st.ModTime()))
}

// Ago renders a duration the way multivac's read line does: "45s ago",
// "12m ago", "2h ago", "3d ago".
func Ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", max(0, int(d/time.Second)))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
}

// ---- working-tree reads ----

// worktreeRepo is a checkout's index (or, outside git, a walk) with
// content from its work tree.
type worktreeRepo struct {
	key, identity string
	top           string // work tree root
	dir           string // the declared directory (real path), top or below it
	prefix        string // dir relative to top, "" or "sub/"
	repo          *git.Repository
	facts         claims.ReadFacts
	plain         bool // not a git repository: every walked file is a member

	once      sync.Once
	files     []string
	tracked   map[string]bool
	untrOnce  sync.Once
	untracked []string
}

func (s *Siblings) openWorktree(key, top, dir, identity string, facts claims.ReadFacts, prefix string) *worktreeRepo {
	w := &worktreeRepo{key: key, identity: identity, top: top, dir: dir, prefix: prefix, facts: facts}
	if facts.Kind == claims.ReadBrain {
		if r, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true}); err == nil {
			if wt, err := r.Worktree(); err == nil {
				w.repo, w.top = r, wt.Filesystem.Root()
				if rel, err := filepath.Rel(w.top, dir); err == nil && rel != "." {
					w.prefix = filepath.ToSlash(rel) + "/"
				}
				w.fillHead()
			}
		}
		if w.repo == nil { // a brain outside git: a plain walk, as the workspace does
			w.plain, w.top = true, dir
		}
	}
	return w
}

// openPlain reads a declared directory that is not in a git repository.
func (s *Siblings) openPlain(key, dir, channel string) claims.Repo {
	return &worktreeRepo{key: key, identity: dir + "@worktree", top: dir, dir: dir, plain: true,
		facts: claims.ReadFacts{Kind: claims.ReadFellBack, Channel: channel, Branch: notARepoBranch, SHA: "-"}}
}

// fillHead records the branch, HEAD and mid-merge paths for the read line.
func (w *worktreeRepo) fillHead() {
	if head, err := w.repo.Head(); err == nil {
		w.facts.SHA = short(head.Hash().String())
		if head.Name().IsBranch() {
			w.facts.Branch = head.Name().Short()
		}
	} else {
		w.facts.SHA = "(no commit)"
		if ref, err := w.repo.Storer.Reference(plumbing.HEAD); err == nil && ref.Type() == plumbing.SymbolicReference {
			w.facts.Branch = ref.Target().Short()
		}
	}
	w.list()
}

func (w *worktreeRepo) list() {
	w.once.Do(func() {
		w.tracked = map[string]bool{}
		if w.plain {
			w.files = walkFiles(w.dir, nil)
			for _, p := range w.files {
				w.tracked[p] = true
			}
			return
		}
		idx, err := w.repo.Storer.Index()
		if err != nil {
			return
		}
		conflicted := map[string]bool{}
		for _, e := range idx.Entries {
			if e.Mode == filemode.Symlink || e.Mode == filemode.Submodule {
				continue
			}
			if !strings.HasPrefix(e.Name, w.prefix) {
				continue
			}
			p := strings.TrimPrefix(e.Name, w.prefix)
			if !validPath(p) {
				continue
			}
			if e.Stage != 0 {
				conflicted[p] = true
			}
			if !w.tracked[p] { // a conflicted path's stages count once (MV-71)
				w.tracked[p] = true
				w.files = append(w.files, p)
			}
		}
		sort.Strings(w.files)
		for p := range conflicted {
			w.facts.MidMerge = append(w.facts.MidMerge, p)
		}
		sort.Strings(w.facts.MidMerge)
	})
}

func (w *worktreeRepo) Key() string      { return w.key }
func (w *worktreeRepo) Identity() string { return w.identity }
func (w *worktreeRepo) OnDisk() bool     { return true }
func (w *worktreeRepo) Files() []string {
	w.list()
	return w.files
}
func (w *worktreeRepo) Facts() claims.ReadFacts {
	w.list()
	return w.facts
}

// Read returns a tracked file from the work tree, of any size (the run's
// byte budget bounds it); a path that resolves outside the declared
// directory (a symlinked parent) or a non-regular file is unreadable.
func (w *worktreeRepo) Read(p string) ([]byte, bool) {
	real, ok := w.resolve(p)
	if !ok {
		return nil, false
	}
	b, err := os.ReadFile(real)
	if err != nil {
		return nil, false
	}
	return b, true
}

// Size is a tracked file's size on disk.
func (w *worktreeRepo) Size(p string) (int64, bool) {
	real, ok := w.resolve(p)
	if !ok {
		return 0, false
	}
	st, err := os.Stat(real)
	if err != nil {
		return 0, false
	}
	return st.Size(), true
}

// resolve is a tracked path's real path, when it is a regular file inside
// the declared directory.
func (w *worktreeRepo) resolve(p string) (string, bool) {
	if !validPath(p) {
		return "", false
	}
	real, err := filepath.EvalSymlinks(filepath.Join(w.dir, filepath.FromSlash(p)))
	if err != nil || !within(w.dir, real) {
		return "", false
	}
	st, err := os.Stat(real)
	if err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	return real, true
}

func within(root, p string) bool {
	return p == root || strings.HasPrefix(p, root+string(filepath.Separator))
}

// Untracked lists files git neither tracks nor ignores (the `git add`
// hint); computed on first use, since only an empty file set asks.
func (w *worktreeRepo) Untracked() []string {
	if w.plain {
		return nil
	}
	w.list()
	w.untrOnce.Do(func() {
		patterns, _ := gitignore.ReadPatterns(osfs.New(w.top), nil)
		m := gitignore.NewMatcher(patterns)
		var topParts []string
		if w.prefix != "" {
			topParts = strings.Split(strings.TrimSuffix(w.prefix, "/"), "/")
		}
		ignored := func(rel string, isDir bool) bool {
			return m.Match(append(append([]string(nil), topParts...), strings.Split(rel, "/")...), isDir)
		}
		for _, p := range walkFiles(w.dir, ignored) {
			if !w.tracked[p] {
				w.untracked = append(w.untracked, p)
			}
		}
	})
	return w.untracked
}

// defaultExcludes are directories never walked (as the workspace's own walk).
var defaultExcludes = map[string]bool{".git": true, "node_modules": true, "vendor": true, "third_party": true}

// walkFiles lists regular files under dir, slash-relative and sorted,
// without following symlinks, skipping the default excludes, nested
// repositories (a directory holding .git) and what ignored says.
func walkFiles(dir string, ignored func(rel string, isDir bool) bool) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if d.IsDir() {
			if defaultExcludes[d.Name()] {
				return filepath.SkipDir
			}
			if _, err := os.Lstat(filepath.Join(p, ".git")); err == nil {
				return filepath.SkipDir // a nested repository or submodule is not this checkout's
			}
			if ignored != nil && ignored(rel, true) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !validPath(rel) {
			return nil
		}
		if ignored != nil && ignored(rel, false) {
			return nil
		}
		out = append(out, rel)
		return nil
	})
	sort.Strings(out)
	return out
}
