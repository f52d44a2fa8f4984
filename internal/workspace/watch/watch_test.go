package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func collect(t *testing.T, w *Watcher, quiet time.Duration) [][]string {
	t.Helper()
	var got [][]string
	for {
		select {
		case b, ok := <-w.Batches():
			if !ok {
				return got
			}
			got = append(got, b)
		case <-time.After(quiet):
			return got
		}
	}
}

func TestOneEditOneBatch(t *testing.T) {
	dir := t.TempDir()
	w, err := New(dir, Options{Delay: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	os.WriteFile(filepath.Join(dir, "a.md"), []byte("x"), 0o644)
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	time.Sleep(100 * time.Millisecond) // let the new directory be watched
	os.WriteFile(filepath.Join(dir, "sub", "b.go"), []byte("y"), 0o644)
	got := collect(t, w, time.Second)
	seen := map[string]bool{}
	for _, b := range got {
		for _, p := range b {
			seen[p] = true
		}
	}
	for _, want := range []string{"a.md", "sub", filepath.Join("sub", "b.go")} {
		if !seen[filepath.Join(dir, want)] {
			t.Errorf("no event for %s in %v", want, got)
		}
	}
}

// TestStormIsOneBatch: creating and deleting 5,000 files while watched
// gives one batch (one re-check), whose size is bounded.
func TestStormIsOneBatch(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".git", "objects"), 0o755)
	w, err := New(dir, Options{Delay: time.Second, MaxWait: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < 5000; i++ {
		p := filepath.Join(dir, fmt.Sprintf("f%04d.go", i))
		if err := os.WriteFile(p, []byte("package p\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		// .git internals other than HEAD and refs never count.
		os.WriteFile(filepath.Join(dir, ".git", "objects", fmt.Sprintf("o%d", i%10)), nil, 0o644)
	}
	for i := 0; i < 5000; i++ {
		os.Remove(filepath.Join(dir, fmt.Sprintf("f%04d.go", i)))
	}
	got := collect(t, w, 3*time.Second)
	if len(got) != 1 {
		t.Fatalf("a storm gave %d batches, want 1", len(got))
	}
	if len(got[0]) > MaxPending {
		t.Errorf("batch holds %d paths, more than the bound %d", len(got[0]), MaxPending)
	}
	if len(got[0]) != 1 || got[0][0] != dir {
		t.Errorf("an overflowing batch is the root alone, got %d paths", len(got[0]))
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 16<<20 {
		t.Errorf("heap grew by %d bytes during the storm", grown)
	}
}

func TestGitInternalsFiltered(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".git", "refs", "heads"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	w, err := New(dir, Options{Delay: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	os.WriteFile(filepath.Join(dir, ".git", "index"), []byte("x"), 0o644)
	if got := collect(t, w, 500*time.Millisecond); len(got) != 0 {
		t.Errorf(".git/index must not trigger a re-check: %v", got)
	}
	os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/dev\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".git", "refs", "heads", "dev"), []byte("abc\n"), 0o644)
	got := collect(t, w, time.Second)
	if len(got) != 1 {
		t.Fatalf("a branch switch gives one batch, got %v", got)
	}
}
