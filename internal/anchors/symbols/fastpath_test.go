package symbols

import (
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// randomTexts are strings over an alphabet of letters, every ASCII space,
// Unicode spaces (NBSP, NEL), a non-space multi-byte rune and invalid
// UTF-8: where a fast path could part from the strings functions.
func randomTexts(n int) []string {
	alphabet := []string{"a", "b", " ", "\t", "\n", "\v", "\f", "\r", "\u00a0", "\u0085", "é", "\xff", "(", ","}
	r := rand.New(rand.NewSource(1))
	out := []string{"", " ", "a", " a", "a ", "a  b", "a\tb", "\u00a0a", "a\u00a0", "\xffa ", " \xff"}
	for range n {
		var b strings.Builder
		for k := r.Intn(12); k > 0; k-- {
			b.WriteString(alphabet[r.Intn(len(alphabet))])
		}
		out = append(out, b.String())
	}
	return out
}

func TestCollapseSpaceIsJoinedFields(t *testing.T) {
	for _, s := range randomTexts(20000) {
		if got, want := collapseSpace(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("collapseSpace(%q) = %q, want %q", s, got, want)
		}
	}
}

// asciiSolid is the test that lets a token skip TrimLeft and TrimSpace:
// it must never hold for a text they would change.
func TestASCIISolidMeansNothingToTrim(t *testing.T) {
	solid := 0
	for _, s := range randomTexts(20000) {
		if !asciiSolid(s) {
			continue
		}
		solid++
		if s == "" || strings.TrimSpace(s) != s || strings.TrimLeft(s, " \t\r\n\f\v") != s {
			t.Fatalf("asciiSolid(%q), but trimming changes it", s)
		}
	}
	if solid == 0 {
		t.Fatal("no solid text generated")
	}
}

// Parse reads the text through views, not copies: nothing of a table may
// share the input's bytes, or a caller reusing its buffer would change
// tables it keeps.
func TestTableOutlivesInput(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*"))
	checked := 0
	for _, p := range paths {
		lang, ok := LanguageForPath(strings.TrimSuffix(p, ".txt"))
		if !ok {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		buf := append([]byte(nil), src...)
		got := Parse(lang, buf, Options{KeepBodyTokens: true})
		for i := range buf {
			buf[i] = '#'
		}
		want := Parse(lang, src, Options{KeepBodyTokens: true})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the table changed with its input's bytes", p)
		}
		checked += len(want.Decls)
	}
	if checked == 0 {
		t.Fatal("no declarations checked")
	}
}
