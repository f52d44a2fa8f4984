//go:build unix

package disk_test

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"

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
	must(syscall.Mkfifo(filepath.Join(root, "a", "fifo"), 0o644))

	files, _, err := disk.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"top.go", "a/b/deep.go", "a/empty.txt", "a/big.bin", "a/escape.txt", "linkdir/secret.txt",
		"a/b/inside.go", "a/fifo", "missing.go", "../etc/passwd", "/etc/passwd"}
	got := files.ReadMany(paths, 50)
	for i, p := range paths {
		r := got[i]
		switch p {
		case "top.go", "a/b/deep.go", "a/empty.txt":
			want, err := files.Read(p)
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
