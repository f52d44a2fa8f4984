// Package wstest builds real workspaces for tests: files on disk in a
// temporary directory, committed into a real git repository with go-git
// (fixed author and time, so results never depend on the machine's git
// config). It is imported only by tests.
package wstest

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
	"golang.org/x/tools/txtar"
)

// Repo is a git work tree in a temporary directory.
type Repo struct {
	t    testing.TB
	Dir  string
	repo *git.Repository
	tick int
}

// New initialises an empty repository on branch main.
func New(t testing.TB) *Repo {
	t.Helper()
	dir := t.TempDir()
	r, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	return &Repo{t: t, Dir: dir, repo: r}
}

// Write creates or replaces files (slash paths relative to the root).
func (r *Repo) Write(files map[string]string) {
	r.t.Helper()
	for p, content := range files {
		full := filepath.Join(r.Dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

// Remove deletes files from the work tree.
func (r *Repo) Remove(paths ...string) {
	r.t.Helper()
	for _, p := range paths {
		if err := os.Remove(filepath.Join(r.Dir, filepath.FromSlash(p))); err != nil {
			r.t.Fatal(err)
		}
	}
}

// Read returns a work-tree file's content.
func (r *Repo) Read(p string) string {
	r.t.Helper()
	b, err := os.ReadFile(filepath.Join(r.Dir, filepath.FromSlash(p)))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(b)
}

// Commit stages every change (additions, edits, deletions) and commits.
func (r *Repo) Commit(msg string) string {
	r.t.Helper()
	wt, err := r.repo.Worktree()
	if err != nil {
		r.t.Fatal(err)
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		r.t.Fatal(err)
	}
	r.tick++
	when := time.Date(2026, 1, 1, 0, 0, r.tick, 0, time.UTC)
	h, err := wt.Commit(msg, &git.CommitOptions{
		Author:            &object.Signature{Name: "clew test", Email: "test@clew.invalid", When: when},
		AllowEmptyCommits: true,
	})
	if err != nil {
		r.t.Fatal(err)
	}
	return h.String()
}

// Move renames a file in the work tree (git sees a delete plus an add).
func (r *Repo) Move(from, to string) {
	r.t.Helper()
	dst := filepath.Join(r.Dir, filepath.FromSlash(to))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(r.Dir, filepath.FromSlash(from)), dst); err != nil {
		r.t.Fatal(err)
	}
}

// Section returns the files of an archive under prefix ("before/"), with
// the prefix removed.
func Section(a *txtar.Archive, prefix string) map[string]string {
	out := map[string]string{}
	for _, f := range a.Files {
		if strings.HasPrefix(f.Name, prefix) {
			out[strings.TrimPrefix(f.Name, prefix)] = string(f.Data)
		}
	}
	return out
}

// File returns one archive file's content and whether it exists.
func File(a *txtar.Archive, name string) (string, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return string(f.Data), true
		}
	}
	return "", false
}

// SetFile replaces (or appends) one archive file.
func SetFile(a *txtar.Archive, name, content string) {
	for i := range a.Files {
		if a.Files[i].Name == name {
			a.Files[i].Data = []byte(content)
			return
		}
	}
	a.Files = append(a.Files, txtar.File{Name: name, Data: []byte(content)})
}

// Keys returns a map's keys sorted.
func Keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// CopyFrom writes every regular file under the directory src into the work
// tree (tests copy examples/tour this way, so its verdicts never depend on
// the history of the repository around it).
func (r *Repo) CopyFrom(src string) {
	r.t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		r.t.Fatal(err)
	}
	r.Write(files)
}

// NewFrom is a fresh repository holding a copy of dir (relative to the
// test's package, e.g. "../../examples/tour"), committed once.
func NewFrom(t testing.TB, dir string) *Repo {
	t.Helper()
	r := New(t)
	r.CopyFrom(dir)
	r.Commit(filepath.Base(dir))
	return r
}
