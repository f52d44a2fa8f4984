package contextmap

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// packedTree writes a small tree, builds its index through a store and
// returns the snapshot, its base and the store's directory.
func packedTree(t *testing.T) (*workspace.Snapshot, *ctxBase, string) {
	t.Helper()
	dir, cache := t.TempDir(), t.TempDir()
	for i := 0; i < 12; i++ {
		p := filepath.Join(dir, fmt.Sprintf("p%d/f%d.go", i%3, i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(carryFile(i, 0)), 0o644)
	}
	time.Sleep(2 * workspace.RacyWindow)
	store, err := disk.OpenTableStoreAt(cache, "test")
	if err != nil {
		t.Fatal(err)
	}
	s, b := storedBase(t, dir, store)
	return s, b, cache
}

// storedBase loads dir afresh (a new process, as far as memory goes) with
// store and builds its context base.
func storedBase(t *testing.T, dir string, store workspace.TableStore) (*workspace.Snapshot, *ctxBase) {
	t.Helper()
	s, err := disk.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.UseTableStore(store)
	b, err := contextBase(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return s, b
}

// TestIndexPackRoundTrip: what is decoded answers as what was encoded;
// an entry of another root or scheme, or cut short, is refused.
func TestIndexPackRoundTrip(t *testing.T) {
	s, b, _ := packedTree(t)
	x := &cxIndexed{paths: s.Files(), lex: b.lex, recs: contextMemo(s).get().recs}
	data := encodeIndex(x, s.Root())
	y, err := decodeIndex(data, s.Root())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(x.paths, y.paths) || !slices.Equal(x.recs, y.recs) || !slices.Equal(x.lex.occ, y.lex.occ) || !slices.Equal(x.lex.dec, y.lex.dec) {
		t.Fatal("decoded index differs from the encoded one")
	}
	words := carryWords(12, 1)
	for _, w := range words {
		if !slices.Equal(x.lex.occursIn(w), y.lex.occursIn(w)) || !slices.Equal(x.lex.declaredIn(w), y.lex.declaredIn(w)) {
			t.Fatalf("%q: decoded index answers differently", w)
		}
	}
	if _, err := decodeIndex(data, s.Root()+"x"); err == nil {
		t.Fatal("an entry of another root was accepted")
	}
	for _, n := range []int{0, 1, len(data) / 3, len(data) - 9, len(data) - 1} {
		if _, err := decodeIndex(data[:n], s.Root()); err == nil {
			t.Fatalf("an entry cut at %d of %d bytes was accepted", n, len(data))
		}
	}
}

// TestDamagedPackIsIgnored: a flipped byte in the stored entry is a miss
// (the store's checksum), and the index is built from the files.
func TestDamagedPackIsIgnored(t *testing.T) {
	s, _, cache := packedTree(t)
	var entry string
	filepath.Walk(cache, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			entry = p
		}
		return nil
	})
	b, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0x40
	os.WriteFile(entry, b, 0o644)
	store, _ := disk.OpenTableStoreAt(cache, "test")
	s2, _ := disk.Load(s.Root())
	s2.UseTableStore(store)
	b2, err := contextBase(context.Background(), s2)
	if err != nil {
		t.Fatal(err)
	}
	if b2.indexFrom != "scratch" {
		t.Fatalf("index from %s after damage, want scratch", b2.indexFrom)
	}
	words := carryWords(12, 1)
	got, want := indexAnswers(t, b2, words), referenceAnswers(t, s2, words)
	for _, w := range words {
		if !slices.Equal(got["occurs "+w], want["occurs "+w]) {
			t.Fatalf("occurs %q = %v, want %v", w, got["occurs "+w], want["occurs "+w])
		}
	}
}

// FuzzDecodeIndex: any bytes decode to an error or to an index whose keys
// all name its files (lookups cannot go out of range); never a panic.
func FuzzDecodeIndex(f *testing.F) {
	lf := lexScan([]byte(carryFile(1, 0)), "go", nil)
	sink := newVocabSink()
	lexScan([]byte(carryFile(1, 0)), "go", sink)
	x := &cxIndexed{paths: []string{"a.go", "b.txt"}, recs: make([]cxRecord, 2),
		lex: newCxLex([]*cxLexFile{lf, nil}, (*cxVocab)(nil).withWords(sink), nil)}
	f.Add(encodeIndex(x, "/r"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		y, err := decodeIndex(data, "/r")
		if err != nil {
			return
		}
		y.lex.read = func(int) []byte { return nil }
		for _, w := range []string{"F1", "Shared", "x", "G2"} {
			for _, i := range y.lex.occursIn(w) {
				if int(i) >= len(y.paths) {
					t.Fatalf("occursIn(%q) names file %d of %d", w, i, len(y.paths))
				}
			}
			y.lex.declaredIn(w)
			y.lex.fileHas(0, w)
		}
	})
}

// lexSchemeDigests records, per lexPackScheme, a digest of what the scan
// makes of fixed inputs: persisted scans are only valid for the scan that
// made them, so a change to lexScan must come with a new scheme name (and
// its digest here).
var lexSchemeDigests = map[string]string{
	"clew-lsp context index v1": "c29007bda4fa213d",
}

func TestLexSchemeNamesTheScan(t *testing.T) {
	inputs := []struct {
		lang string
		src  string
	}{
		{"go", "package p\n\ntype (\n\tA struct{}\n\tB = int\n)\nfunc (r *R) M(x int) error { return nil }\nvar V, W = 1, 2\nconst C = `x`\n"},
		{"python", "class K:\n    def m(self): pass\nLIMIT = 10\ndef f(x):\n  return 1abc + é_x$y\r\n"},
		{"javascript", "export const f = (x) => x\nclass C { m(a) {\n} }\nlet g = function() {}\n"},
		{"rust", "fn main() { let x = 1; }\nstruct S { a: u8 }\nimpl T for S {\n}\n"},
		{"java", "public class A {\n  void run(int n) {\n  }\n}\n"},
	}
	h := sha256.New()
	for _, in := range inputs {
		lf := lexScan([]byte(in.src), symbols.Language(in.lang), nil)
		hs := slices.Clone(lf.hashes)
		slices.Sort(hs)
		fmt.Fprintf(h, "%s %x %q\n", in.lang, hs, lf.decls)
	}
	got := hex.EncodeToString(h.Sum(nil))[:16]
	if want, ok := lexSchemeDigests[lexPackScheme]; !ok || want != got {
		t.Fatalf("the scan makes %s of the fixed inputs under scheme %q, recorded %q: a changed scan needs a new lexPackScheme (persisted indexes of the old one must not be read) and its digest here", got, lexPackScheme, want)
	}
}
