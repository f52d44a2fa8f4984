package disk

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestStatFiles: a regular file's size and times; nothing for a missing
// file, a directory or a path that leaves the root — and a rewrite that
// keeps the size and puts the old modification time back still shows (the
// status-change time, on Linux).
func TestStatFiles(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "a.go"), []byte("package a\n"), 0o644)
	os.WriteFile(filepath.Join(filepath.Dir(dir), "outside.txt"), []byte("x"), 0o644)
	f, _, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"sub/a.go", "sub/missing.go", "sub", "../outside.txt", ""}
	st := f.StatFiles(paths)
	if !st[0].Ok || st[0].Size != 10 || st[0].ModTime == 0 {
		t.Fatalf("sub/a.go: %+v", st[0])
	}
	for i, p := range paths[1:] {
		if st[i+1].Ok {
			t.Fatalf("%q: %+v, want no stat", p, st[i+1])
		}
	}
	p := filepath.Join(dir, "sub", "a.go")
	info, _ := os.Stat(p)
	time.Sleep(20 * time.Millisecond)
	os.WriteFile(p, []byte("package b\n"), 0o644)
	os.Chtimes(p, info.ModTime(), info.ModTime())
	again := f.StatFiles(paths[:1])[0]
	if again.Size != st[0].Size || again.ModTime != st[0].ModTime {
		t.Fatalf("setup: size or time differ: %+v vs %+v", again, st[0])
	}
	if runtime.GOOS == "linux" && again == st[0] { // elsewhere no status-change time is read
		t.Fatalf("a rewrite with the old time put back has the old stat: %+v", again)
	}
}
