package disk_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// TestInterruptedWriteLeftovers: the temporary file a killed write leaves
// beside a doc (this version's name and the older one) is never listed as
// a workspace file and is removed by the next listing; a fresh one (a
// concurrent write about to rename) is hidden but kept; a user's file with
// a similar name is untouched. A real write leaves nothing behind.
func TestInterruptedWriteLeftovers(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{"docs/guide.md": "# Guide\n", "docs/.notes.clew-backup": "mine\n"})
	r.Commit("init")
	dir := filepath.Join(r.Dir, "docs")
	old := time.Now().Add(-2 * time.Minute)
	leftovers := []string{".guide.md.clew-2718281828.tmp", ".architecture.md.clew-3141592653"}
	for _, n := range leftovers {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, []byte("# Gui"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	live := filepath.Join(dir, ".guide.md.clew-1618033988.tmp")
	if err := os.WriteFile(live, []byte("# Guide, new"), 0o600); err != nil {
		t.Fatal(err)
	}

	files, _, err := disk.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	list, err := files.List()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"docs/.notes.clew-backup", "docs/guide.md"}
	if !slices.Equal(list, want) {
		t.Errorf("listed %q, want %q", list, want)
	}
	for _, n := range leftovers {
		if _, err := os.Stat(filepath.Join(dir, n)); !os.IsNotExist(err) {
			t.Errorf("%s: still there (%v)", n, err)
		}
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("a fresh temporary file was removed: %v", err)
	}
	if err := os.Remove(live); err != nil {
		t.Fatal(err)
	}

	if err := files.WriteFile("docs/guide.md", []byte("# Guide\n\nMore.\n")); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{".notes.clew-backup", "guide.md"}) {
		t.Errorf("after a write the docs folder holds %q", names)
	}
	for _, n := range []string{"docs/.guide.md.clew-1.tmp", ".x.clew-22", "a/.b.go.clew-3.tmp"} {
		if !disk.IsTempFile(n) {
			t.Errorf("IsTempFile(%q) = false", n)
		}
	}
	for _, n := range []string{"docs/guide.md", ".notes.clew-backup", "x.clew-1", ".x.clew-1.tmp.md"} {
		if disk.IsTempFile(n) {
			t.Errorf("IsTempFile(%q) = true", n)
		}
	}
}
