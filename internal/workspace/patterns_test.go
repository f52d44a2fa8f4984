package workspace

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// patternNeeds are needs built from names and rare tokens of the texts
// (so that they occur, in and out of shape), plus names that share their
// first two bytes, one-byte and absent names.
func patternNeeds(texts [][]byte) []need {
	var words [][]byte
	seen := map[string]bool{}
	for _, text := range texts {
		n := 0
		eachWord(text, func(w []byte) bool {
			if len(w) >= 2 && !seen[string(w)] && n < 12 {
				seen[string(w)] = true
				words = append(words, w)
				n++
			}
			return true
		})
	}
	needs := []need{
		{base: []byte("P"), goFunc: true},
		{base: []byte("Pa"), rare: [][]byte{[]byte("ar")}, body: true},
		{base: []byte("NoSuchNameAnywhereQ")},
	}
	for i, w := range words {
		n := need{base: w, goFunc: i%3 != 0, goMeth: i%3 == 2, body: true}
		if i+2 < len(words) {
			n.rare = [][]byte{words[i+1], words[i+2][:max(2, len(words[i+2])-1)]}
		}
		if i%5 == 0 && len(w) > 3 {
			n.rare = append(n.rare, w[1:]) // inside another word
		}
		needs = append(needs, n)
	}
	return needs
}

// checkPatternSet compares the one-pass answers with one scan per test.
func checkPatternSet(t *testing.T, needs []need, name string, text []byte) {
	t.Helper()
	for _, lang := range []symbols.Language{symbols.Go, symbols.Python} {
		ps := newPatternSet(needs, lang)
		c := &candidate{b: text, lang: lang, ps: ps}
		plain := &candidate{b: text, lang: lang}
		for i, n := range needs {
			if got, want := c.hasName(n, i), declaresNameAs(text, n.base, n.shapeIn(lang)); got != want {
				t.Fatalf("%s (%s): name %q shape %d: one pass %v, declaresNameAs %v", name, lang, n.base, n.shapeIn(lang), got, want)
			}
			want := true
			for _, r := range n.rare {
				want = want && bytes.Contains(text, r)
			}
			if got := c.hasRare(n, i); got != want {
				t.Fatalf("%s (%s): rare %q: one pass %v, bytes.Contains %v", name, lang, n.rare, got, want)
			}
			if got, want := n.wantsNeed(c, i), n.wantsIn(plain); got != want {
				t.Fatalf("%s (%s): need %q: wantsNeed %v, wantsIn %v", name, lang, n.base, got, want)
			}
		}
	}
}

// The one-pass test of the repository-wide prefilter answers as a scan
// per name and token, on GOROOT's Go files (every one with
// CLEW_TEST_GOROOT_ALL=1) with needs made of their own words.
func TestPatternSetMatchesScans(t *testing.T) {
	src := filepath.Join(runtime.GOROOT(), "src")
	var paths []string
	if os.Getenv("CLEW_TEST_GOROOT_ALL") != "" {
		filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(p) == ".go" {
				paths = append(paths, p)
			}
			return nil
		})
	} else {
		for _, dir := range []string{"net/http", "go/types", "strings", "internal/types/testdata/check"} {
			more, _ := filepath.Glob(filepath.Join(src, dir, "*.go"))
			paths = append(paths, more...)
		}
	}
	if len(paths) == 0 {
		t.Skip("no GOROOT/src")
	}
	var texts [][]byte
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			texts = append(texts, b)
		}
	}
	// Needs from a few files, tested against all of them.
	var from [][]byte
	for i := 0; i < len(texts); i += max(1, len(texts)/40) {
		from = append(from, texts[i])
	}
	needs := patternNeeds(from)
	for i, text := range texts {
		checkPatternSet(t, needs, paths[i], text)
	}
	// Edges: a match at either end, overlapping and repeated prefixes.
	for _, s := range []string{"", "P", "Pa", "func P(", "ParParse", "xPa", "func Pa(", "Pa\nfunc Pa[T any]()", "éPa Pa"} {
		checkPatternSet(t, needs, s, []byte(s))
	}
}

func FuzzPatternSet(f *testing.F) {
	f.Add([]byte("func Parse(s string) {}\ntype P interface{ Parse() }"), []byte("Parse"), []byte("string"), uint8(2))
	f.Add([]byte("aaaa aaa aa"), []byte("aa"), []byte("aaa"), uint8(0))
	f.Add([]byte("x.Parse()"), []byte("Parse"), []byte("Pars"), uint8(1))
	f.Fuzz(func(t *testing.T, text, name, rare []byte, shape uint8) {
		if len(name) == 0 {
			return
		}
		n := need{base: name, goFunc: shape%3 != 0, goMeth: shape%3 == 2, body: true}
		if len(rare) > 0 {
			n.rare = [][]byte{rare}
		}
		other := need{base: append([]byte(nil), name[:min(2, len(name))]...), rare: [][]byte{name}}
		checkPatternSet(t, []need{n, other}, "fuzz", text)
	})
}

// BenchmarkPatternSet: the one pass against a scan per test, over
// GOROOT's net/http and go/types with ten needs of two rare tokens.
func BenchmarkPatternSet(b *testing.B) {
	src := filepath.Join(runtime.GOROOT(), "src")
	var texts [][]byte
	size := 0
	for _, dir := range []string{"net/http", "go/types", "runtime", "cmd/compile/internal/ssa"} {
		paths, _ := filepath.Glob(filepath.Join(src, dir, "*.go"))
		for _, p := range paths {
			if t, err := os.ReadFile(p); err == nil {
				texts = append(texts, t)
				size += len(t)
			}
		}
	}
	if len(texts) == 0 {
		b.Skip("no GOROOT/src")
	}
	var needs []need
	for i, name := range []string{"ServeHTTPWidget", "CheckExprs", "NewReaderSize", "Lookup", "WriteHeader", "Compile", "Encode", "Decoder", "MarshalText", "ParseQuery"} {
		needs = append(needs, need{base: []byte(name), goFunc: true, goMeth: i%2 == 0, body: true,
			rare: [][]byte{[]byte("connectionState"), []byte("handlerTimeout")}})
	}
	b.Run("scans", func(b *testing.B) {
		b.SetBytes(int64(size))
		for i := 0; i < b.N; i++ {
			for _, t := range texts {
				c := &candidate{b: t, lang: symbols.Go}
				for _, n := range needs {
					if n.hasNameRare(c) {
						break
					}
				}
			}
		}
	})
	b.Run("one-pass", func(b *testing.B) {
		b.SetBytes(int64(size))
		ps := newPatternSet(needs, symbols.Go)
		for i := 0; i < b.N; i++ {
			for _, t := range texts {
				c := &candidate{b: t, lang: symbols.Go, ps: ps}
				for j, n := range needs {
					if c.hasName(n, j) || c.hasRare(n, j) {
						break
					}
				}
			}
		}
	})
}

// hasNameRare is the scans' name and rare-token tests of one need.
func (n need) hasNameRare(c *candidate) bool {
	return c.hasName(n, -1) || c.hasRare(n, -1)
}
