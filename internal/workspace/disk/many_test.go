//go:build unix

package disk_test

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// ReadMany reads what Read reads, and never anything outside the root.
func TestReadManyMatchesReadAndStaysInside(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "a", "b"), 0o755))
	must(os.WriteFile(filepath.Join(root, "top.go"), []byte("package top\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "a", "b", "deep.go"), []byte("package b\n\nfunc F() {}\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "a", "empty.txt"), nil, 0o644))
	must(os.WriteFile(filepath.Join(root, "a", "big.bin"), bytes.Repeat([]byte("x"), 100), 0o644))
	must(os.Symlink(secret, filepath.Join(root, "a", "escape.txt")))
	must(os.Symlink(outside, filepath.Join(root, "linkdir")))
	must(os.Symlink("deep.go", filepath.Join(root, "a", "b", "inside.go")))
	must(os.Symlink("a", filepath.Join(root, "inlink")))                       // a directory symlink inside the root
	must(os.Symlink(filepath.Join(root, "a"), filepath.Join(root, "abslink"))) // absolute, though inside
	must(os.Symlink("../../..", filepath.Join(root, "a", "b", "up")))          // leaves the root
	must(syscall.Mkfifo(filepath.Join(root, "a", "fifo"), 0o644))

	files, _, err := disk.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"top.go", "a/b/deep.go", "a/empty.txt", "a/big.bin", "a/escape.txt", "linkdir/secret.txt",
		"a/b/inside.go", "a/fifo", "missing.go", "../etc/passwd", "/etc/passwd",
		"inlink/b/deep.go", "a/b/../b/deep.go", "abslink/b/deep.go", "a/b/up/" + filepath.Base(outside) + "/secret.txt",
		"missing/deep.go", "top.go/deep.go", "a/b/up/secret.txt"}
	got := files.ReadMany(paths, 50)
	for i, p := range paths {
		r := got[i]
		switch p {
		case "top.go", "a/b/deep.go", "a/empty.txt", "inlink/b/deep.go", "a/b/../b/deep.go":
			// Read's bytes; a directory symlink that stays inside, or a
			// name the root resolves, is followed as Read follows it.
			want, err := files.Read(path.Clean(strings.Replace(p, "inlink/", "a/", 1)))
			if err != nil || r.Err != nil || !bytes.Equal(r.Data, want) || r.Data == nil {
				t.Errorf("%s: %q %v, Read gives %q %v", p, r.Data, r.Err, want, err)
			}
		case "a/big.bin":
			if r.Err != nil || r.Data != nil || r.Size != 100 {
				t.Errorf("%s over the limit: %+v", p, r)
			}
		default:
			// Refused (the caller then asks Read, which resolves symlinks
			// and refuses what leaves the root), never outside bytes.
			if r.Err == nil || bytes.Contains(r.Data, []byte("outside")) {
				t.Errorf("%s: %+v", p, r)
			}
		}
	}
}

// VisitMany hands each file's bytes in one reused buffer: every visit
// sees what ReadMany gives for the same paths (a long file then shorter
// ones, an empty one, one over the limit, refused and missing paths),
// each exactly its file's bytes, with no tail of a longer one read
// before and no room to append into the next file's.
func TestVisitManyIsReadManyInOneBuffer(t *testing.T) {
	root := t.TempDir()
	var paths []string
	for i, n := range []int{4000, 10, 3999, 0, 1, 2500, 60000, 7} {
		p := fmt.Sprintf("d%d/f%d.go", i%3, i)
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		b := bytes.Repeat([]byte{byte('a' + i)}, n)
		if err := os.WriteFile(filepath.Join(root, p), b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	if err := os.Symlink("f0.go", filepath.Join(root, "d0", "link.go")); err != nil {
		t.Fatal(err)
	}
	paths = append(paths, "d0/link.go", "missing.go", "../x.go", "d1/f1.go")
	files, _, err := disk.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	want := files.ReadMany(paths, 50000)
	seen := 0
	var buffers = map[*byte]bool{}
	files.VisitMany(paths, 50000, func(i int, r workspace.FileRead) {
		if i != seen {
			t.Fatalf("visit %d, want %d (paths' order)", i, seen)
		}
		seen++
		w := want[i]
		if (r.Err == nil) != (w.Err == nil) || r.Size != w.Size || !bytes.Equal(r.Data, w.Data) || (r.Data == nil) != (w.Data == nil) {
			t.Errorf("%s: visit gives %d bytes, size %d, err %v; ReadMany %d bytes, size %d, err %v",
				paths[i], len(r.Data), r.Size, r.Err, len(w.Data), w.Size, w.Err)
		}
		if cap(r.Data) != len(r.Data) {
			t.Errorf("%s: %d bytes with room for %d: an append would write into the buffer", paths[i], len(r.Data), cap(r.Data))
		}
		if len(r.Data) > 0 {
			buffers[&r.Data[:1][0]] = true
		}
	})
	if seen != len(paths) {
		t.Errorf("%d visits for %d paths", seen, len(paths))
	}
	// The buffer grows to the largest file read, not once per file.
	if len(buffers) > 3 {
		t.Errorf("%d distinct buffers for %d files: not reused", len(buffers), len(paths))
	}
}
