// Package gitstate reads git's view of a workspace through go-git: tracked
// files, ignore rules, HEAD and branch, and old versions of a file. It never
// runs git, never touches the network and never writes to the repository.
package gitstate

import (
	"errors"
	"io"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/util"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// Repo is an open repository seen from one workspace folder, which may be
// a sub-directory of the work tree.
type Repo struct {
	repo   *git.Repository
	top    string // work tree root
	prefix string // workspace folder relative to top, "" or "dir/"
}

// Open opens the repository containing dir. It returns (nil, nil) when dir
// is not inside a git work tree: the workspace then works without git.
func Open(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	r, err := git.PlainOpenWithOptions(abs, &git.PlainOpenOptions{DetectDotGit: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	wt, err := r.Worktree()
	if err != nil {
		return nil, nil // a bare repository has no files to anchor
	}
	top := wt.Filesystem.Root()
	rel, err := filepath.Rel(top, abs)
	if err != nil {
		return nil, err
	}
	prefix := ""
	if rel != "." {
		prefix = filepath.ToSlash(rel) + "/"
	}
	return &Repo{repo: r, top: top, prefix: prefix}, nil
}

// Tracked lists the files in git's index under the workspace folder,
// relative to it, in the index's order (a conflicted path once per
// stage). Symlinks and submodules are left out: their content is not the
// workspace's.
func (g *Repo) Tracked() ([]string, error) {
	entries, err := g.indexEntries()
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		if m := filemode.FileMode(e.mode); m == filemode.Symlink || m == filemode.Submodule {
			continue
		}
		if !strings.HasPrefix(e.name, g.prefix) {
			continue
		}
		out = append(out, strings.TrimPrefix(e.name, g.prefix))
	}
	return out, nil
}

// indexEntries decodes the index file by hand (decodeIndex) and, where
// that declines, through go-git's storage as before: a missing index is
// an empty one, a broken one go-git's error.
func (g *Repo) indexEntries() ([]indexEntry, error) {
	if st, ok := g.repo.Storer.(interface{ Filesystem() billy.Filesystem }); ok {
		// The file go-git's storage opens for its index.
		if data, err := util.ReadFile(st.Filesystem(), "index"); err == nil {
			if entries, ok := decodeIndex(data); ok {
				return entries, nil
			}
		}
	}
	return goGitIndexEntries(g.repo.Storer.Index())
}

func goGitIndexEntries(idx *index.Index, err error) ([]indexEntry, error) {
	if err != nil {
		return nil, err
	}
	out := make([]indexEntry, len(idx.Entries))
	for i, e := range idx.Entries {
		out[i] = indexEntry{name: e.Name, mode: uint32(e.Mode), stage: uint8(e.Stage)}
	}
	return out, nil
}

// Info returns HEAD's commit and branch.
func (g *Repo) Info() workspace.GitInfo {
	info := workspace.GitInfo{IsRepo: true}
	ref, err := g.repo.Head()
	if err != nil {
		return info // an empty repository has no HEAD yet
	}
	info.Head = ref.Hash().String()
	if ref.Name().IsBranch() {
		info.Branch = ref.Name().Short()
	}
	return info
}

// History returns the content of a workspace-relative path at HEAD and at
// the earlier commits that changed it, newest first, at most max versions.
// It walks first parents only and gives up quietly on any read error:
// history is a hint for suggestions and prefiltering, never a verdict.
func (g *Repo) History(rel string, max int) [][]byte {
	ref, err := g.repo.Head()
	if err != nil {
		return nil
	}
	full := g.prefix + rel
	var out [][]byte
	var last plumbing.Hash
	c, err := g.repo.CommitObject(ref.Hash())
	for steps := 0; err == nil && c != nil && len(out) < max && steps < 200; steps++ {
		if f, ferr := c.File(full); ferr == nil && f.Hash != last {
			last = f.Hash
			if b, rerr := readBlob(f); rerr == nil {
				out = append(out, b)
			}
		}
		if c.NumParents() == 0 {
			break
		}
		c, err = c.Parent(0)
	}
	return out
}

func readBlob(f *object.File) ([]byte, error) {
	if f.Size > 1<<20 {
		return nil, errors.New("too large")
	}
	rd, err := f.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return io.ReadAll(rd)
}

// ExcludeFile is the path of .git/info/exclude, which Open reads with the
// .gitignore files (a watcher of ignore rules stats it).
func (g *Repo) ExcludeFile() string {
	return filepath.Join(g.top, ".git", "info", "exclude")
}

// IndexFile is the path of .git/index (a stamp keys git's tracked list on
// its stat).
func (g *Repo) IndexFile() string {
	return filepath.Join(g.top, ".git", "index")
}
