package contextmap

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// carryFile is a small Go file whose words depend on (i, v): editing a
// file changes its words, adds new ones and drops others.
func carryFile(i, v int) string {
	return fmt.Sprintf("package p%d\n\n// Doc%d_%d says what F%d does.\nfunc F%d(x int) int {\n\treturn G%d(x) + Shared + V%d_%d\n}\n\ntype T%d struct{ N%d int }\n",
		i%3, i, v, i, i, (i+1)%7, i, v, v, i)
}

// indexAnswers is every question the search asks the index, asked for
// the words of the tree and words near them, keyed by path (file indexes
// differ between an index and the reference when files come and go).
func indexAnswers(t *testing.T, b *ctxBase, words []string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	paths := func(post []int32) []string {
		var ps []string
		for _, i := range post {
			ps = append(ps, b.files[i].path)
		}
		return ps
	}
	for _, w := range words {
		out["occurs "+w] = paths(b.lex.occursIn(w))
		out["declares "+w] = paths(b.lex.declaredIn(w))
		for i, f := range b.files {
			if b.lex.fileHas(i, w) {
				out["has "+w] = append(out["has "+w], f.path)
			}
		}
	}
	return out
}

// referenceAnswers are indexAnswers by the string scan of each file's
// content as the snapshot sees it.
func referenceAnswers(t *testing.T, s *workspace.Snapshot, words []string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, p := range s.Files() {
		lang, ok := s.Language(p)
		data, st := s.ReadFile(p)
		if !ok || st != anchors.FileOK || s.IsDoc(p) {
			continue
		}
		ref := lexScanReference(data, lang)
		for _, w := range words {
			if slices.Contains(ref.idents, w) {
				out["occurs "+w] = append(out["occurs "+w], p)
				out["has "+w] = append(out["has "+w], p)
			}
			if slices.Contains(ref.decls, w) {
				out["declares "+w] = append(out["declares "+w], p)
			}
		}
	}
	for k, v := range out {
		sort.Strings(v)
		out[k] = v
	}
	return out
}

func carryWords(n, versions int) []string {
	var ws []string
	for i := 0; i < n+3; i++ {
		ws = append(ws, fmt.Sprintf("F%d", i), fmt.Sprintf("G%d", i), fmt.Sprintf("T%d", i), fmt.Sprintf("N%d", i))
		for v := 0; v < versions; v++ {
			ws = append(ws, fmt.Sprintf("V%d_%d", i, v), fmt.Sprintf("Doc%d_%d", i, v))
		}
	}
	ws = append(ws, nonTokens(ws[:40])...)
	ws = append(ws, "Shared", "package", "func", "int", "x", "return", "Sharex", "Unsaved")
	slices.Sort(ws)
	return slices.Compact(ws)
}

// TestIndexCarriedOverAnswersAsFresh: an index taken over from the
// persistent store (a new process) or from the Load's previous snapshot
// (the server after an edit) — its files' records reused where their stat
// is unchanged, patched for the rest — answers every lookup exactly as a
// scan of the files the new snapshot sees: after edits on disk (one that
// keeps the size and puts the old modification time back among them),
// files added and deleted, and unsaved buffers. And it did reuse: only the
// changed files were read.
func TestIndexCarriedOverAnswersAsFresh(t *testing.T) {
	dir := t.TempDir()
	const n = 40
	write := func(i, v int) {
		p := filepath.Join(dir, fmt.Sprintf("p%d/f%d.go", i%3, i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(carryFile(i, v)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < n; i++ {
		write(i, 0)
	}
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("# Tree\n\nF1 and F2.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "blob.bin"), []byte("\x00\x01F3"), 0o644)
	store, err := disk.OpenTableStoreAt(t.TempDir(), "test")
	if err != nil {
		t.Fatal(err)
	}
	words := carryWords(n, 4)
	defer packWrites.Set(packWrites.Set(0)) // every build persists its index
	load := func(t *testing.T) *workspace.Snapshot {
		t.Helper()
		s, err := disk.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		s.UseTableStore(store)
		return s
	}
	base := func(t *testing.T, s *workspace.Snapshot) *ctxBase {
		t.Helper()
		b, err := contextBase(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	same := func(t *testing.T, s *workspace.Snapshot, b *ctxBase) {
		t.Helper()
		got, want := indexAnswers(t, b, words), referenceAnswers(t, s, words)
		for _, w := range words {
			for _, q := range []string{"occurs ", "declares ", "has "} {
				if !slices.Equal(got[q+w], want[q+w]) {
					t.Fatalf("%s%q = %v, a fresh scan says %v", q, w, got[q+w], want[q+w])
				}
			}
		}
	}
	settle := func() { time.Sleep(2 * workspace.RacyWindow) } // records of files this recent are not trusted

	settle()
	s1 := load(t)
	b1 := base(t, s1)
	same(t, s1, b1)
	if b1.indexFrom != "scratch" {
		t.Fatalf("first index from %s, want scratch", b1.indexFrom)
	}

	rng := rand.New(rand.NewPCG(1, 2))
	for round := 1; round <= 4; round++ {
		t.Run(fmt.Sprint("round", round), func(t *testing.T) {
			changed := map[int]bool{}
			for len(changed) < 5 {
				changed[rng.IntN(n)] = true
			}
			for i := range changed {
				write(i, round)
			}
			// Same size, old modification time put back: only the
			// status-change time tells.
			keep := -1
			for i := range n - 5 { // never deleted
				if !changed[i] {
					keep = i
					break
				}
			}
			p := filepath.Join(dir, fmt.Sprintf("p%d/f%d.go", keep%3, keep))
			st, _ := os.Stat(p)
			old, _ := os.ReadFile(p)
			swapped := strings.Replace(string(old), "Shared", "Sharex", 1) // same size
			if swapped == string(old) {
				swapped = strings.Replace(string(old), "Sharex", "Shared", 1)
			}
			os.WriteFile(p, []byte(swapped), 0o644)
			os.Chtimes(p, st.ModTime(), st.ModTime())
			// A file added, one deleted.
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("p1/new%d.go", round)), []byte(carryFile(n+round%3, round)), 0o644)
			os.Remove(filepath.Join(dir, fmt.Sprintf("p%d/f%d.go", (n-round)%3, n-round)))
			settle()

			s := load(t) // a new process: from the store
			b := base(t, s)
			if b.indexFrom != "store" {
				t.Fatalf("index from %s, want the store", b.indexFrom)
			}
			same(t, s, b)
			// README.md is a doc (always read); the swapped file, the changed
			// ones and the new one are read; nothing else.
			if want := len(changed) + 3; b.indexReads > want {
				t.Fatalf("read %d files, want at most %d (the changed ones and the doc)", b.indexReads, want)
			}

			// An unsaved buffer and an unsaved new file: from the Load's memo.
			o := s.WithOverlays(map[string][]byte{
				"p0/f3.go":      []byte(carryFile(3, round+10)),
				"p2/unsaved.go": []byte("package p2\n\nfunc Unsaved() { F1(Shared) }\n"),
			})
			bo := base(t, o)
			if bo.indexFrom != "memo" {
				t.Fatalf("index from %s, want the memo", bo.indexFrom)
			}
			same(t, o, bo)
			// And back to the disk's content.
			bd := base(t, o.WithOverlays(map[string][]byte{"p0/f3.go": nil, "p2/unsaved.go": nil}))
			same(t, s, bd)
		})
	}
}

// TestAmbiguousHashReadsTheFiles: where the vocabulary cannot vouch for a
// hash (a collision, or two words sharing a key's bits), lookups read the
// files — and still answer as the reference.
func TestAmbiguousHashReadsTheFiles(t *testing.T) {
	paths, srcs, langs := lexCorpus(t)
	paths, srcs, langs = paths[:200], srcs[:200], langs[:200]
	files := make([]*cxLexFile, len(srcs))
	sink := newVocabSink()
	for i, src := range srcs {
		files[i] = lexScan(src, langs[i], sink)
	}
	vocab := (*cxVocab)(nil).withWords(sink)
	vocab.collided = map[uint64]bool{}
	for _, h := range vocab.hashes {
		vocab.collided[h] = true // every hash: every lookup must read
	}
	reads := 0
	x := newCxLex(files, vocab, func(i int) []byte { reads++; return srcs[i] })
	for i, src := range srcs {
		ref := lexScanReference(src, langs[i])
		for _, w := range ref.idents[:min(10, len(ref.idents))] {
			if !x.fileHas(i, w) {
				t.Fatalf("%s: fileHas(%q) = false", paths[i], w)
			}
			post := x.occursIn(w)
			if !slices.Contains(post, int32(i)) {
				t.Fatalf("%s: occursIn(%q) misses it", paths[i], w)
			}
		}
	}
	if reads == 0 {
		t.Fatal("no file was read: the ambiguous path did not run")
	}
	// A word whose hash the vocabulary holds for another word is absent.
	v2 := vocabOf([]vocabWord{{identHash([]byte("Alpha")), "Beta"}}, nil)
	if c := v2.classify("Alpha", identHash([]byte("Alpha")), 16); c != vocabAbsent {
		t.Fatalf("classify = %v, want absent", c)
	}
	if c := v2.classify("Beta", identHash([]byte("Alpha")), 16); c != vocabUnique {
		t.Fatalf("classify = %v, want unique", c)
	}
	// Two words in one key's bits: ambiguous.
	h := identHash([]byte("Alpha"))
	pair := []vocabWord{{h, "Alpha"}, {h ^ 1, "Gamma"}}
	slices.SortFunc(pair, func(a, b vocabWord) int { return cmp.Compare(a.h, b.h) })
	v3 := vocabOf(pair, nil)
	if c := v3.classify("Alpha", h, 16); c != vocabAmbiguous {
		t.Fatalf("classify = %v, want ambiguous", c)
	}
}

// TestTooLargeFileKeepsItsRecord: a file over the size limit is recorded
// unread, and a later base takes it from its record while its stat holds
// (a second process on the tree reads nothing but the doc, so it has no
// index to rewrite), exactly as a fresh read has it; shrunk under the
// limit, it is read and scanned.
func TestTooLargeFileKeepsItsRecord(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.go")
	huge := "package big\n\n// " + strings.Repeat("x", int(workspace.DefaultBudget().MaxFileBytes)) + "\nfunc Big() {}\n"
	os.WriteFile(big, []byte(huge), 0o644)
	os.WriteFile(filepath.Join(dir, "small.go"), []byte("package big\n\nfunc Small() { Big() }\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("# Tree\n"), 0o644)
	store, err := disk.OpenTableStoreAt(t.TempDir(), "test")
	if err != nil {
		t.Fatal(err)
	}
	defer packWrites.Set(packWrites.Set(0))
	build := func(t *testing.T, stored bool) *ctxBase {
		t.Helper()
		s, err := disk.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if stored {
			s.UseTableStore(store)
		}
		b, err := contextBase(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	sameFiles := func(t *testing.T, got, want *ctxBase) {
		t.Helper()
		if !slices.Equal(got.files, want.files) {
			t.Fatalf("files from the record:\n%+v\nfrom a fresh read:\n%+v", got.files, want.files)
		}
	}
	time.Sleep(2 * workspace.RacyWindow)
	build(t, true) // fills the store
	b := build(t, true)
	if b.indexFrom != "store" || b.indexReads != 1 {
		t.Fatalf("second base: index from %s, %d file(s) read; want the store and only the doc", b.indexFrom, b.indexReads)
	}
	fresh := build(t, false)
	sameFiles(t, b, fresh)
	if i := fresh.byPath["big.go"]; fresh.files[i].st != anchors.FileTooLarge {
		t.Fatalf("big.go status %v, want too large", fresh.files[i].st)
	}

	os.WriteFile(big, []byte("package big\n\nfunc Big() { Small() }\n"), 0o644)
	time.Sleep(2 * workspace.RacyWindow)
	b = build(t, true)
	if b.indexReads != 2 {
		t.Fatalf("after the shrink %d file(s) read, want big.go and the doc", b.indexReads)
	}
	sameFiles(t, b, build(t, false))
	if i := b.byPath["big.go"]; !b.files[i].code || !b.lex.fileHas(i, "Small") {
		t.Fatal("big.go under the limit is not scanned")
	}
}
