// Package disk is the real-I/O side of the workspace: it lists and reads
// files under a root (never outside it), wires git in through gitstate, and
// writes docs atomically. The CLI and the server both load workspaces
// through Load, so their answers agree.
package disk

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/gitstate"
)

// DefaultExcludes are directories never walked for untracked files.
var DefaultExcludes = map[string]bool{".git": true, "node_modules": true, "vendor": true, "third_party": true}

// Files implements workspace.Files over a directory.
type Files struct {
	root string   // absolute, symlinks resolved
	fsys *os.Root // reads go through it: nothing outside root is reachable
	git  *gitstate.Repo
	// index memoises git's tracked files, keyed by the index file's stat:
	// decoding and checksumming the index was most of a stamp, and a run
	// that lists the folder (List) and then asks for the tracked set
	// (Tracked, the claims engine) decoded it twice.
	index struct {
		mu      sync.Mutex
		key     string
		tracked []string // read-only once stored
	}
}

// Load opens root (a git work tree or a plain directory) and returns its
// first snapshot.
func Load(root string) (*workspace.Snapshot, error) {
	_, snap, err := LoadFiles(root)
	return snap, err
}

// LoadFiles is Load that also returns the file source, for callers that
// write docs back (verify, confirm): opening the repository twice would
// read git's config and walk the tree twice.
func LoadFiles(root string) (*Files, *workspace.Snapshot, error) {
	f, _, err := Open(root)
	if err != nil {
		return nil, nil, err
	}
	snap, err := f.Load()
	if err != nil {
		return nil, nil, err
	}
	return f, snap, nil
}

// LoadFilesDeferred is LoadFiles whose snapshot lists the folder only
// when an answer needs the list (workspace.LoadDeferred): the caller
// checks the snapshot's ListErr before it trusts an answer.
func LoadFilesDeferred(root string) (*Files, *workspace.Snapshot, error) {
	f, _, err := Open(root)
	if err != nil {
		return nil, nil, err
	}
	return f, f.snapshot(workspace.LoadDeferred(f.root, f, f.workspaceGit())), nil
}

// Load returns the first snapshot of the folder f was opened on, without
// opening it again.
func (f *Files) Load() (*workspace.Snapshot, error) {
	snap, err := workspace.Load(f.root, f, f.workspaceGit())
	if err != nil {
		return nil, err
	}
	return f.snapshot(snap), nil
}

// workspaceGit is f's repository as the workspace sees it (nil outside
// git, not a nil *Repo).
func (f *Files) workspaceGit() workspace.Git {
	if f.git != nil {
		return f.git
	}
	return nil
}

func (f *Files) snapshot(snap *workspace.Snapshot) *workspace.Snapshot {
	snap.UseSiblings(gitstate.NewSiblings())
	return snap
}

// Open returns the file source and the repository (nil outside git).
func Open(root string) (*Files, *gitstate.Repo, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, nil, err
	}
	abs, err = filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, nil, fmt.Errorf("workspace %s: %w", root, err)
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return nil, nil, fmt.Errorf("workspace %s is not a directory", root)
	}
	g, err := gitstate.Open(abs)
	if err != nil {
		return nil, nil, fmt.Errorf("reading git repository at %s: %w", root, err)
	}
	fsys, err := os.OpenRoot(abs)
	if err != nil {
		return nil, nil, fmt.Errorf("workspace %s: %w", root, err)
	}
	return &Files{root: abs, fsys: fsys, git: g}, g, nil
}

// Root is the absolute workspace directory.
func (f *Files) Root() string { return f.root }

// List returns tracked files plus untracked files git does not ignore; in a
// plain directory, every file outside the default excludes. A write's
// temporary file is never listed, and one an interrupted write left behind
// (older than a minute) is removed on the way.
func (f *Files) List() ([]string, error) {
	var tracked []string
	if f.git != nil {
		var err error
		if tracked, err = f.indexTracked(time.Now()); err != nil {
			return nil, err
		}
	}
	return f.listWith(tracked)
}

// indexTracked is git's tracked list (index stages included), decoded
// again only when the index file's size, time or inode changed, or
// changed too recently (racyWindow) for its stat to tell (a write sets
// the time; git's own renames a new file over the index, a new inode).
// Callers must not modify the list.
func (f *Files) indexTracked(now time.Time) ([]string, error) {
	key := ""
	if st, err := os.Stat(f.git.IndexFile()); err == nil && now.Sub(st.ModTime()) >= racyWindow {
		key = fmt.Sprintf("%d/%d/%v", st.Size(), st.ModTime().UnixNano(), inode(st))
	}
	f.index.mu.Lock()
	defer f.index.mu.Unlock()
	if key != "" && key == f.index.key {
		return f.index.tracked, nil
	}
	tracked, err := f.git.Tracked()
	if err != nil {
		return nil, err
	}
	f.index.key, f.index.tracked = key, tracked
	return tracked, nil
}

// listWith is List over a given list of tracked files.
func (f *Files) listWith(tracked []string) ([]string, error) {
	if !sort.StringsAreSorted(tracked) { // git keeps its index sorted; the walk's lookups need it
		tracked = slices.Sorted(slices.Values(tracked))
	}
	out := make([]string, 0, len(tracked))
	for i, p := range tracked {
		if i > 0 && p == tracked[i-1] || IsTempFile(p) {
			continue // a conflicted path has up to three index stages
		}
		out = append(out, p)
	}
	w := walker{tracked: tracked, now: time.Now()}
	var scope *gitstate.IgnoreScope
	if f.git != nil {
		scope = f.git.RootScope()
	}
	w.dir(noDir, "", f.root, "", scope, 0, len(tracked))
	if len(w.out) > 0 {
		out = append(out, w.out...)
		sort.Strings(out)
	}
	return out, nil
}

// walker lists the untracked files of a tree in one walk: every directory
// is read once, its .gitignore (if any) read from the entries already in
// hand, and the ignore rules consulted only for what git does not track.
// Whether git tracks an entry is a binary search of the sorted tracked
// list, within the range of the entry's directory (its paths share the
// directory's prefix): no set of 100,000 paths to build, and no path
// string made for a tracked file.
type walker struct {
	tracked []string
	rd      dirReader
	now     time.Time
	out     []string
	depth   int // of the directory being read (the root is 1)
}

// maxHeld is how many directories the walk keeps open at once, each for
// opening its sub-directories relative to it.
const maxHeld = 64

// dir lists the directory name of parent (abs; workspace path rel, ""
// for the root) under the ignore rules of scope (nil outside git);
// tracked[lo:hi] are the tracked paths under it.
func (w *walker) dir(parent dirHandle, name, abs, rel string, scope *gitstate.IgnoreScope, lo, hi int) {
	d, entries, err := w.rd.open(parent, name, abs)
	if w.depth++; w.depth > maxHeld {
		// Deep down, a directory is closed before its sub-directories
		// are read (they are opened by path): the open ones stay few.
		d.close()
		d = noDir
	}
	defer func() { d.close(); w.depth-- }()
	if err != nil {
		return // an unreadable directory is skipped, not fatal
	}
	entries, scope, ok := walkedEntries(entries, abs, rel, scope)
	if !ok {
		return
	}
	skip := 0 // of the tracked paths' bytes: rel and its slash
	if rel != "" {
		skip = len(rel) + 1
	}
	for _, e := range entries {
		name := e.name
		switch e.kind {
		case kindDir:
			if walkedInto(name, scope) {
				// The sub-directory's range: the paths that continue
				// with name and a slash.
				sub := lo + sort.Search(hi-lo, func(i int) bool { return !below(w.tracked[lo+i][skip:], name, '/') })
				end := sub + sort.Search(hi-sub, func(i int) bool { return !below(w.tracked[sub+i][skip:], name, '/'+1) })
				w.dir(d, name, abs+string(filepath.Separator)+name, join(rel, name), scope, sub, end)
			}
			continue
		case kindOther:
			continue
		}
		i := lo + sort.Search(hi-lo, func(i int) bool { return w.tracked[lo+i][skip:] >= name })
		if i < hi && w.tracked[i][skip:] == name && !IsTempFile(name) {
			continue // tracked: listed already
		}
		if IsTempFile(name) {
			removeIfAbandoned(abs+string(filepath.Separator)+name, w.now) // an interrupted write's leftover, never a workspace file
			continue
		}
		if scope != nil && scope.Ignored(name, false) {
			continue
		}
		w.out = append(w.out, join(rel, name))
	}
}

// below reports whether s sorts before name followed by the byte last.
func below(s, name string, last byte) bool {
	if len(s) <= len(name) {
		return s <= name
	}
	if s[:len(name)] != name {
		return s[:len(name)] < name
	}
	return s[len(name)] < last
}

func join(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}

// readWalked reads a directory the walk enters and returns its entries
// and the ignore rules of its own entries; ok is false when the walk
// lists nothing in it: it is unreadable (skipped, not fatal), or a nested
// repository or submodule (a mounted brain), which is not ours.
func readWalked(rd *dirReader, abs, rel string, scope *gitstate.IgnoreScope) ([]dirEntry, *gitstate.IgnoreScope, bool) {
	entries, err := rd.read(abs)
	if err != nil {
		return nil, nil, false
	}
	return walkedEntries(entries, abs, rel, scope)
}

// walkedEntries is readWalked once the directory is read.
func walkedEntries(entries []dirEntry, abs, rel string, scope *gitstate.IgnoreScope) ([]dirEntry, *gitstate.IgnoreScope, bool) {
	if rel != "" {
		for _, e := range entries {
			if e.name == ".git" {
				return nil, nil, false
			}
		}
	}
	if scope != nil && rel != "" {
		var ignoreFile []byte
		for _, e := range entries {
			if e.name == ".gitignore" && e.kind == kindRegular {
				ignoreFile, _ = os.ReadFile(filepath.Join(abs, ".gitignore"))
			}
		}
		scope = scope.Enter(path.Base(rel), ignoreFile)
	}
	return entries, scope, true
}

// walkedInto reports whether the walk enters the sub-directory name of a
// directory whose entries' rules are scope.
func walkedInto(name string, scope *gitstate.IgnoreScope) bool {
	return !DefaultExcludes[name] && (scope == nil || !scope.Ignored(name, true))
}

// Listed returns those of paths that List returns (workspace.ListFilter),
// sorted, without listing the folder: a path is listed when it is not a
// write's temporary file and either the walk for untracked files reaches
// it (the directories down to it read as the walk reads them, with their
// ignore rules) as a regular file no rule ignores, or git tracks it. Only
// a path the walk does not list is looked up in git's index, so a doc that
// is on disk and not ignored costs a few directory reads whatever the size
// of the repository. Unlike List, it removes no abandoned temporary file.
func (f *Files) Listed(paths []string) ([]string, error) {
	var out, ask []string
	var root *gitstate.IgnoreScope
	if f.git != nil {
		root = f.git.RootScope()
	}
	dirs := map[string]walkedDir{}
	var rd dirReader
	for _, p := range paths {
		switch {
		case IsTempFile(p):
		case f.walks(&rd, p, root, dirs):
			out = append(out, p)
		default:
			ask = append(ask, p)
		}
	}
	if len(ask) > 0 && f.git != nil {
		tracked, err := f.indexTracked(time.Now())
		if err != nil {
			return nil, err
		}
		want := make(map[string]bool, len(ask))
		for _, p := range ask {
			want[p] = true
		}
		for _, p := range tracked {
			if want[p] {
				out = append(out, p)
				want[p] = false
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out), nil
}

// walkedDir is one directory as the walk would read it: its entries by
// name and the rules that apply to them (ok false: the walk lists
// nothing in it).
type walkedDir struct {
	entries map[string]entryKind
	scope   *gitstate.IgnoreScope
	ok      bool
}

// walks reports whether the walk for untracked files lists p: every
// directory down to it is entered (readWalked, walkedInto) and p is a
// regular file there that no rule ignores. dirs memoises the directories
// read, by workspace path.
func (f *Files) walks(rd *dirReader, p string, root *gitstate.IgnoreScope, dirs map[string]walkedDir) bool {
	if p == "" || path.Clean(p) != p || path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") {
		return false
	}
	parts := strings.Split(p, "/")
	rel := ""
	d := f.walkedDir(rd, "", root, dirs)
	for _, part := range parts[:len(parts)-1] {
		if !d.ok || d.entries[part] != kindDir || !walkedInto(part, d.scope) {
			return false
		}
		if rel != "" {
			rel += "/"
		}
		rel += part
		d = f.walkedDir(rd, rel, d.scope, dirs)
	}
	name := parts[len(parts)-1]
	return d.ok && d.entries[name] == kindRegular && (d.scope == nil || !d.scope.Ignored(name, false))
}

// walkedDir reads the directory rel, entered under its parent's rules.
func (f *Files) walkedDir(rd *dirReader, rel string, parent *gitstate.IgnoreScope, dirs map[string]walkedDir) walkedDir {
	if d, ok := dirs[rel]; ok {
		return d
	}
	abs := f.root
	if rel != "" {
		abs = filepath.Join(f.root, filepath.FromSlash(rel))
	}
	var d walkedDir
	var entries []dirEntry
	entries, d.scope, d.ok = readWalked(rd, abs, rel, parent)
	d.entries = make(map[string]entryKind, len(entries))
	for _, e := range entries {
		d.entries[e.name] = e.kind
	}
	dirs[rel] = d
	return d
}

// Tracked lists git's tracked files (workspace.TrackedLister), each once;
// outside git it fails, and every listed file counts as tracked.
func (f *Files) Tracked() ([]string, error) {
	if f.git == nil {
		return nil, fs.ErrNotExist
	}
	all, err := f.indexTracked(time.Now())
	out := all[:0:0]
	for i, p := range all {
		if i == 0 || p != all[i-1] { // the index is sorted; stages are adjacent
			out = append(out, p)
		}
	}
	return out, err
}

// abs maps a workspace path to disk, refusing anything that resolves
// outside the root (.., absolute paths, symlinks pointing out).
func (f *Files) abs(rel string) (string, error) {
	if rel == "" || filepath.IsAbs(rel) || strings.Contains(rel, "\\") {
		return "", fs.ErrNotExist
	}
	p := filepath.Join(f.root, filepath.FromSlash(rel))
	if !within(f.root, p) {
		return "", fs.ErrNotExist
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	if !within(f.root, real) {
		return "", fs.ErrNotExist
	}
	return real, nil
}

func within(root, p string) bool {
	return p == root || strings.HasPrefix(p, root+string(filepath.Separator))
}

// Read returns a file's bytes. os.Root resolves the path inside the root
// (one openat per component, no EvalSymlinks) and refuses any symlink that
// leaves it.
func (f *Files) Read(rel string) ([]byte, error) {
	name, err := rootName(rel)
	if err != nil {
		return nil, err
	}
	return f.fsys.ReadFile(name)
}

// Size returns a regular file's size; anything else is missing.
func (f *Files) Size(rel string) (int64, error) {
	name, err := rootName(rel)
	if err != nil {
		return 0, err
	}
	st, err := f.fsys.Stat(name)
	if err != nil {
		return 0, err
	}
	if !st.Mode().IsRegular() {
		return 0, fs.ErrNotExist
	}
	return st.Size(), nil
}

// rootName checks a workspace path before it reaches os.Root.
func rootName(rel string) (string, error) {
	if rel == "" || filepath.IsAbs(rel) || strings.Contains(rel, "\\") {
		return "", fs.ErrNotExist
	}
	return filepath.FromSlash(rel), nil
}

// WriteFile replaces a workspace file through a temporary file and a
// rename in the same directory, keeping its permissions: a crash leaves
// either the old doc or the new one, never half of one.
func (f *Files) WriteFile(rel string, data []byte) error {
	p, err := f.abs(rel)
	if err != nil {
		return fmt.Errorf("%s: refusing to write outside the workspace: %w", rel, err)
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(p); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), tempPattern(filepath.Base(p)))
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}

// Loader is workspace.Loader over the real disk: the server's sessions
// open their folders through it.
func Loader(root string) (string, workspace.Files, workspace.Git, error) {
	f, g, err := Open(root)
	if err != nil {
		return "", nil, nil, err
	}
	var gi workspace.Git
	if g != nil {
		gi = g
	}
	return f.root, f, gi, nil
}
