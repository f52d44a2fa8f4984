package contextmap

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// lexCorpus is the files the scans are compared on: this repository's
// code files and net/http of the Go toolchain in use.
func lexCorpus(t *testing.T) (paths []string, srcs [][]byte, langs []symbols.Language) {
	t.Helper()
	roots := []string{"../../.."}
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		roots = append(roots, filepath.Join(strings.TrimSpace(string(out)), "src", "net", "http"))
	}
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			lang, ok := symbols.LanguageForPath(p)
			if d.IsDir() || !ok {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil || len(b) > 1<<20 {
				return nil
			}
			paths, srcs, langs = append(paths, p), append(srcs, b), append(langs, lang)
			return nil
		})
	}
	if len(paths) < 100 {
		t.Fatalf("corpus too small: %d files", len(paths))
	}
	return paths, srcs, langs
}

// nonTokens are words near a file's identifiers that may or may not be
// tokens of it: prefixes, extensions, and words glued to a digit.
func nonTokens(idents []string) []string {
	var out []string
	for _, id := range idents {
		if len(id) > 1 {
			out = append(out, id[:len(id)-1], id[1:])
		}
		out = append(out, id+"x", "x"+id, id+"0", "a.b", "")
	}
	return out
}

// TestLexScanMatchesReference: on real files, the hash-set scan answers
// every identifier question and every declaration hint exactly as the
// string scan did, and the posting lists built on demand are the ones the
// eager index held (file order).
func TestLexScanMatchesReference(t *testing.T) {
	paths, srcs, langs := lexCorpus(t)
	files := make([]*cxLexFile, len(srcs))
	refOccurs, refDeclares := map[string][]int32{}, map[string][]int32{}
	var words []string
	sink := newVocabSink()
	for i, src := range srcs {
		ref := lexScanReference(src, langs[i])
		files[i] = lexScan(src, langs[i], sink)
		for _, id := range ref.idents {
			refOccurs[id] = append(refOccurs[id], int32(i))
		}
		for _, id := range ref.decls {
			refDeclares[id] = append(refDeclares[id], int32(i))
		}
		decls := slices.Clone(ref.decls)
		slices.Sort(decls)
		if !slices.Equal(decls, files[i].decls) {
			t.Fatalf("%s: declaration hints %v, reference %v", paths[i], files[i].decls, decls)
		}
		if i%50 == 0 {
			words = append(words, ref.idents...)
		}
	}
	x := newCxLex(files, (*cxVocab)(nil).withWords(sink), func(i int) []byte { return srcs[i] })
	words = append(words, nonTokens(words)...)
	for i, src := range srcs {
		ref := lexScanReference(src, langs[i])
		in := map[string]bool{}
		for _, id := range ref.idents {
			in[id] = true
			if !x.fileHas(i, id) {
				t.Fatalf("%s: fileHas(%q) = false, the reference has it", paths[i], id)
			}
		}
		for _, w := range nonTokens(ref.idents) {
			if got := x.fileHas(i, w); got != in[w] {
				t.Fatalf("%s: fileHas(%q) = %v, reference %v", paths[i], w, got, in[w])
			}
		}
	}
	// fileHas is holder's answer; outside the files it holds nothing.
	for _, w := range words {
		if holds := x.holder(w); holds(-1) || holds(len(srcs)) {
			t.Fatalf("holder(%q) holds a file outside the %d files", w, len(srcs))
		}
	}
	for _, w := range words {
		if got := x.occursIn(w); !slices.Equal(got, refOccurs[w]) {
			t.Fatalf("occursIn(%q) = %v, reference %v", w, got, refOccurs[w])
		}
		if got := x.declaredIn(w); !slices.Equal(got, refDeclares[w]) {
			t.Fatalf("declaredIn(%q) = %v, reference %v", w, got, refDeclares[w])
		}
	}
}

// FuzzLexScan: on any bytes in any language, the hash-set scan and the
// string scan agree on identifiers and declaration hints.
func FuzzLexScan(f *testing.F) {
	f.Add([]byte("package p\n\ntype (\n\tA struct{}\n)\nfunc (r *R) M() {}\n"), uint8(0))
	f.Add([]byte("export const f = (x) => x\nclass C { m(a) {\n} }\nLIMIT = 1\n"), uint8(3))
	f.Add([]byte("def f(x):\n  return 1abc + é_x$y\r\n"), uint8(1))
	langs := []symbols.Language{symbols.Go, symbols.Python, symbols.JavaScript, symbols.TypeScript, symbols.Rust, symbols.Java}
	f.Fuzz(func(t *testing.T, src []byte, li uint8) {
		lang := langs[int(li)%len(langs)]
		ref := lexScanReference(src, lang)
		sink := newVocabSink()
		got := lexScan(src, lang, sink)
		decls := slices.Clone(ref.decls)
		slices.Sort(decls)
		if !slices.Equal(decls, got.decls) {
			t.Fatalf("declaration hints %v, reference %v", got.decls, decls)
		}
		x := newCxLex([]*cxLexFile{got}, (*cxVocab)(nil).withWords(sink), func(int) []byte { return src })
		in := map[string]bool{}
		for _, id := range ref.idents {
			in[id] = true
			if !x.fileHas(0, id) {
				t.Fatalf("fileHas(%q) = false, the reference has it", id)
			}
		}
		for _, w := range nonTokens(ref.idents) {
			if x.fileHas(0, w) != in[w] {
				t.Fatalf("fileHas(%q) = %v, reference %v", w, !in[w], in[w])
			}
		}
	})
}
