package contextmap

import (
	"bytes"
	"crypto/sha256"
	"maps"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// HEAD's files round-trip through their entry, and a damaged, truncated,
// extended or foreign entry (another commit, another scheme, paths out of
// order) is refused rather than half read.
func TestHeadFilesEntry(t *testing.T) {
	head := strings.Repeat("ab", 20)
	m := map[string]string{"a.go": strings.Repeat("01", 20), "dir/b.md": strings.Repeat("ff", 20), "z/c.txt": strings.Repeat("7e", 20)}
	data := encodeHeadFiles(m, head)
	got, ok := decodeHeadFiles(data, head)
	if !ok || !maps.Equal(got, m) {
		t.Fatalf("round trip: %v %v", got, ok)
	}
	if got, ok := decodeHeadFiles(encodeHeadFiles(map[string]string{}, head), head); !ok || len(got) != 0 {
		t.Fatalf("an empty tree: %v %v", got, ok)
	}
	swapped := bytes.Replace(data, []byte("a.go"), []byte("zz.x"), 1) // out of order now
	for name, b := range map[string][]byte{
		"truncated":      data[:len(data)-3],
		"extended":       append(bytes.Clone(data), 0),
		"another commit": encodeHeadFiles(m, strings.Repeat("cd", 20)),
		"out of order":   swapped,
		"empty":          nil,
	} {
		if _, ok := decodeHeadFiles(b, head); ok {
			t.Errorf("%s: accepted", name)
		}
	}
	if encodeHeadFiles(map[string]string{"a": "not hex"}, head) != nil {
		t.Error("a map with a non-id value is encoded")
	}
}

// FuzzDecodeHeadFiles: no input panics, and whatever is accepted encodes
// back to the same bytes.
func FuzzDecodeHeadFiles(f *testing.F) {
	head := strings.Repeat("ab", 20)
	f.Add(encodeHeadFiles(map[string]string{"a.go": strings.Repeat("01", 20), "b": strings.Repeat("02", 20)}, head))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		m, ok := decodeHeadFiles(data, head)
		if ok && !bytes.Equal(encodeHeadFiles(m, head), data) {
			t.Fatalf("%q decodes to %v, which encodes otherwise", data, m)
		}
	})
}

// With a persistent store, the working tree's state is HEAD's: a second
// Load at the same commit takes HEAD's files from the store (the entry is
// there, under the commit) and says what the first said; after a commit
// the new HEAD's files are read (clean again); a change on disk is dirty
// whether HEAD's files came from the store or from git.
func TestHeadFilesFromTheStoreKeepTheTreeState(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{"go.mod": "module m\n", "a/a.go": "package a\n\nfunc A() int { return 1 }\n", "README.md": "# m\n"})
	r.Commit("one")
	store, err := disk.OpenTableStoreAt(t.TempDir(), "v1")
	if err != nil {
		t.Fatal(err)
	}
	state := func() string {
		t.Helper()
		_, b := storedBase(t, r.Dir, store)
		return b.git.WorkingTree
	}
	stored := func(head string) bool {
		_, ok := store.Get(sha256.Sum256([]byte(headFilesScheme + "\x00" + r.Dir + "\x00" + head)))
		return ok
	}
	if got := state(); got != "clean" {
		t.Fatalf("first Load: %q", got)
	}
	one := r.Head()
	if !stored(one) {
		t.Fatal("HEAD's files were not kept under the commit")
	}
	if got := state(); got != "clean" {
		t.Fatalf("second Load, HEAD's files from the store: %q", got)
	}
	r.Write(map[string]string{"a/a.go": "package a\n\nfunc A() int { return 2 }\n"})
	if got := state(); got != "dirty" {
		t.Fatalf("a change on disk, HEAD's files from the store: %q", got)
	}
	two := r.Commit("two")
	if got := state(); got != "clean" {
		t.Fatalf("after a commit: %q", got)
	}
	if !stored(two) {
		t.Fatal("the new HEAD's files were not kept")
	}
}
