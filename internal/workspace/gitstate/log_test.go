package gitstate_test

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace/gitstate"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

func blobID(s string) string {
	h := sha1.Sum([]byte(fmt.Sprintf("blob %d\x00%s", len(s), s)))
	return hex.EncodeToString(h[:])
}

func TestCommitsAndHeadFiles(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{"sub/a.go": "v1", "sub/b.go": "b1", "top.md": "t"})
	c1 := r.Commit("add a\n\nthe first version")
	r.Write(map[string]string{"sub/a.go": "v2"})
	c2 := r.Commit("change a")
	r.Write(map[string]string{"sub/b.go": "b2"})
	r.Commit("change b only")
	r.Remove("sub/a.go")
	c4 := r.Commit("remove a")
	r.Write(map[string]string{"sub/a.go": "v3"})
	c5 := r.Commit("bring a back")

	repo, err := gitstate.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	got := repo.Commits("sub/a.go", 10)
	want := []struct {
		sha, subject, content string
		deleted               bool
	}{{c5, "bring a back", "v3", false}, {c4, "remove a", "", true}, {c2, "change a", "v2", false}, {c1, "add a", "v1", false}}
	if len(got) != len(want) {
		t.Fatalf("%d commits: %+v", len(got), got)
	}
	for i, w := range want {
		g := got[i]
		if g.SHA != w.sha || g.Subject != w.subject || string(g.Content) != w.content || g.Deleted != w.deleted || g.Time.IsZero() {
			t.Errorf("commit %d: %+v, want %+v", i, g, w)
		}
	}
	if got[3].Body != "the first version" || got[3].Author != "clew test" {
		t.Errorf("message and author: %+v", got[3])
	}
	if n := len(repo.Commits("sub/a.go", 2)); n != 2 {
		t.Errorf("max 2: %d", n)
	}
	if n := len(repo.Commits("nope.go", 5)); n != 0 {
		t.Errorf("a path never committed: %d", n)
	}

	head := repo.HeadFiles()
	if len(head) != 3 || head["sub/a.go"] != blobID("v3") || head["top.md"] != blobID("t") {
		t.Fatalf("head files %v", head)
	}
	// Seen from a sub-directory workspace, paths are relative to it.
	sub, err := gitstate.Open(filepath.Join(r.Dir, "sub"))
	if err != nil {
		t.Fatal(err)
	}
	if h := sub.HeadFiles(); len(h) != 2 || h["b.go"] != blobID("b2") {
		t.Fatalf("sub-directory head files %v", h)
	}
	if cs := sub.Commits("a.go", 10); len(cs) != 4 || cs[0].SHA != c5 {
		t.Fatalf("sub-directory commits %+v", cs)
	}
}

func TestLogWithoutHead(t *testing.T) {
	r := wstest.New(t)
	repo, err := gitstate.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if repo.HeadFiles() != nil || repo.Commits("a.go", 3) != nil {
		t.Fatal("an empty repository has no history")
	}
}

// A root commit changes every file of its tree; past max it changes too
// many to say (nil), as a later commit does.
func TestChangedFilesOfARootCommit(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{"sub/a.go": "a", "sub/deep/b.go": "b", "top.md": "t"})
	root := r.Commit("import")
	r.Write(map[string]string{"sub/a.go": "a2", "c.go": "c"})
	next := r.Commit("change a, add c")

	repo, err := gitstate.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sha  string
		max  int
		want string
	}{
		{root, 30, "sub/a.go sub/deep/b.go top.md"},
		{root, 3, "sub/a.go sub/deep/b.go top.md"},
		{root, 2, "<nil>"},
		{next, 30, "c.go sub/a.go"},
		{next, 1, "<nil>"},
	} {
		got := repo.ChangedFiles(tc.sha, tc.max)
		s := fmt.Sprint(strings.Join(got, " "))
		if got == nil {
			s = "<nil>"
		}
		if s != tc.want {
			t.Errorf("ChangedFiles(%.7s, %d) = %s, want %s", tc.sha, tc.max, s, tc.want)
		}
	}
	sub, err := gitstate.Open(filepath.Join(r.Dir, "sub"))
	if err != nil {
		t.Fatal(err)
	}
	// The count is of the commit's files, the list of the folder's.
	if got := sub.ChangedFiles(root, 3); strings.Join(got, " ") != "a.go deep/b.go" {
		t.Errorf("sub-directory root files %v", got)
	}
	if got := sub.ChangedFiles(root, 2); got != nil {
		t.Errorf("sub-directory root files past max %v", got)
	}
}

// A root commit's file whose name git would not check out (macOS's
// "Icon\r") is still one it changed, as the diff of any later commit
// would say.
func TestChangedFilesOfARootCommitKeepOddNames(t *testing.T) {
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q")
	for name, text := range map[string]string{"a.go": "package a\n", "Icon\r": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Skipf("this file system refuses the name %q: %v", name, err)
		}
	}
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-qm", "root")
	repo, err := gitstate.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	head := strings.TrimSpace(string(out))
	if got := repo.ChangedFiles(head, 30); strings.Join(got, "|") != "Icon\r|a.go" {
		t.Fatalf("root files %q, want both", got)
	}
}
