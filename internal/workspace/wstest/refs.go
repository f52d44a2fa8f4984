package wstest

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// NewAt initialises an empty repository on branch main in dir (created
// when missing), for layouts that need repositories side by side or one
// inside another (a brain mounted at `.brain`).
func NewAt(t testing.TB, dir string) *Repo {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	return &Repo{t: t, Dir: dir, repo: r}
}

// Head returns HEAD's commit hash.
func (r *Repo) Head() string {
	r.t.Helper()
	h, err := r.repo.Head()
	if err != nil {
		r.t.Fatal(err)
	}
	return h.Hash().String()
}

// SetRef points a reference (e.g. "refs/remotes/origin/main") at a commit,
// as a fetch would, without any network.
func (r *Repo) SetRef(name, hash string) {
	r.t.Helper()
	ref := plumbing.NewHashReference(plumbing.ReferenceName(name), plumbing.NewHash(hash))
	if err := r.repo.Storer.SetReference(ref); err != nil {
		r.t.Fatal(err)
	}
}

// Publish records HEAD as origin/main (refs/remotes/origin/main) and
// returns it.
func (r *Repo) Publish() string {
	r.t.Helper()
	h := r.Head()
	r.SetRef("refs/remotes/origin/main", h)
	return h
}

// AddRemote declares a remote (no fetch happens).
func (r *Repo) AddRemote(name, url string) {
	r.t.Helper()
	if _, err := r.repo.CreateRemote(&config.RemoteConfig{Name: name, URLs: []string{url}}); err != nil {
		r.t.Fatal(err)
	}
}

// Branch creates a branch at HEAD and checks it out, keeping the work tree.
func (r *Repo) Branch(name string) {
	r.t.Helper()
	wt, err := r.repo.Worktree()
	if err != nil {
		r.t.Fatal(err)
	}
	if err := wt.Checkout(&git.CheckoutOptions{Branch: plumbing.NewBranchReferenceName(name), Create: true, Keep: true}); err != nil {
		r.t.Fatal(err)
	}
}

// ResetHard moves the current branch to a commit and checks it out.
func (r *Repo) ResetHard(hash string) {
	r.t.Helper()
	wt, err := r.repo.Worktree()
	if err != nil {
		r.t.Fatal(err)
	}
	if err := wt.Reset(&git.ResetOptions{Commit: plumbing.NewHash(hash), Mode: git.HardReset}); err != nil {
		r.t.Fatal(err)
	}
}

// GitDir is the repository's .git directory.
func (r *Repo) GitDir() string {
	if fs, ok := r.repo.Storer.(*filesystem.Storage); ok {
		return fs.Filesystem().Root()
	}
	return filepath.Join(r.Dir, ".git")
}

// Fetched writes FETCH_HEAD with the given modification time, as a fetch
// at that time would leave it.
func (r *Repo) Fetched(at time.Time) {
	r.t.Helper()
	p := filepath.Join(r.GitDir(), "FETCH_HEAD")
	if err := os.WriteFile(p, []byte(r.Head()+"\t\tbranch 'main' of origin\n"), 0o644); err != nil {
		r.t.Fatal(err)
	}
	if err := os.Chtimes(p, at, at); err != nil {
		r.t.Fatal(err)
	}
}

// Conflict puts path into the index as an unresolved merge: stages 1
// (base), 2 (ours) and 3 (theirs) with the given contents, replacing its
// stage-0 entry. The work tree file is left as it is.
func (r *Repo) Conflict(path, base, ours, theirs string) {
	r.t.Helper()
	idx, err := r.repo.Storer.Index()
	if err != nil {
		r.t.Fatal(err)
	}
	var kept []*index.Entry
	for _, e := range idx.Entries {
		if e.Name != path {
			kept = append(kept, e)
		}
	}
	for i, content := range []string{base, ours, theirs} {
		obj := r.repo.Storer.NewEncodedObject()
		obj.SetType(plumbing.BlobObject)
		w, err := obj.Writer()
		if err != nil {
			r.t.Fatal(err)
		}
		w.Write([]byte(content))
		w.Close()
		h, err := r.repo.Storer.SetEncodedObject(obj)
		if err != nil {
			r.t.Fatal(err)
		}
		kept = append(kept, &index.Entry{Name: path, Hash: h, Mode: filemode.Regular, Stage: index.Stage(i + 1),
			Size: uint32(len(content))})
	}
	sort.SliceStable(kept, func(i, j int) bool {
		if kept[i].Name != kept[j].Name {
			return kept[i].Name < kept[j].Name
		}
		return kept[i].Stage < kept[j].Stage
	})
	idx.Entries = kept
	if err := r.repo.Storer.SetIndex(idx); err != nil {
		r.t.Fatal(err)
	}
}

// Symlink creates a symbolic link at link (slash path relative to the
// root) pointing at target, as written.
func (r *Repo) Symlink(target, link string) {
	r.t.Helper()
	full := filepath.Join(r.Dir, filepath.FromSlash(link))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.Symlink(target, full); err != nil {
		r.t.Fatal(err)
	}
}
