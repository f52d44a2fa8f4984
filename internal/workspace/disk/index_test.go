package disk_test

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// A listing and the tracked set come from one decode of git's index while
// the index file is unchanged, and any write to the index is seen.
func TestTrackedDecodesTheIndexOnce(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{"a.go": "package a\n", "b/c.go": "package b\n"})
	r.Commit("init")
	index := filepath.Join(r.Dir, ".git", "index")
	old := time.Now().Add(-time.Hour)
	age := func() { // past the racy window, so the index's stat is trusted
		if err := os.Chtimes(index, old, old); err != nil {
			t.Fatal(err)
		}
	}
	age()
	f, _, err := disk.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	list, err := f.List()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.go", "b/c.go"}; !reflect.DeepEqual(list, want) {
		t.Fatalf("List = %v, want %v", list, want)
	}

	// Garbage of the same size, written in place at the same time: the
	// stat is unchanged, so Tracked answers from the listing's decode
	// (decoding this would fail).
	b, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(index, make([]byte, len(b)), 0o644); err != nil {
		t.Fatal(err)
	}
	age()
	tracked, err := f.Tracked()
	if err != nil || !reflect.DeepEqual(tracked, list) {
		t.Fatalf("Tracked = %v, %v; want the listing's decode %v", tracked, err, list)
	}
	if err := os.WriteFile(index, b, 0o644); err != nil {
		t.Fatal(err)
	}

	// A commit rewrites the index: even aged back to the same time, its
	// new size is seen.
	r.Write(map[string]string{"d.go": "package a\n"})
	r.Commit("more")
	age()
	tracked, err = f.Tracked()
	if err != nil || !slices.Contains(tracked, "d.go") {
		t.Fatalf("Tracked after a commit = %v, %v; want d.go in it", tracked, err)
	}
	if list, err = f.List(); err != nil || !slices.Contains(list, "d.go") {
		t.Fatalf("List after a commit = %v, %v", list, err)
	}

	// A fresh index (inside the racy window) is always decoded.
	r.Remove("a.go")
	r.Commit("drop a")
	if tracked, err = f.Tracked(); err != nil || slices.Contains(tracked, "a.go") {
		t.Fatalf("Tracked after removing a.go = %v, %v", tracked, err)
	}
}
