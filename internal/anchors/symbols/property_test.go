package symbols

import (
	"go/format"
	"regexp"
	"slices"
	"testing"
)

// The promise of the hashes, as a property per language: a formatter's
// output keeps every declaration's hash, and a one-token semantic edit of a
// declaration (an identifier in its body renamed) changes that
// declaration's hash. The formatter outputs are gofmt's (run here) and
// black's (committed as messy_black.py: black is not installed by the test
// script); prettier's run in TestPrettierKeepsHashes when it is installed.
func TestFormatterAndOneTokenEdit(t *testing.T) {
	goMessy := fixture(t, "messy.go.txt")
	goTidy, err := format.Source([]byte(goMessy))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		lang        Language
		name        string
		src, tidied string
	}{
		{Go, "gofmt messy.go.txt", goMessy, string(goTidy)},
		{Python, "black messy.py", fixture(t, "messy.py"), fixture(t, "messy_black.py")},
		{TypeScript, "messy.ts (no formatter output committed: edits only)", fixture(t, "messy.ts"), ""},
	}
	for _, c := range cases {
		t.Run(string(c.lang), func(t *testing.T) {
			if c.tidied == "" {
				oneTokenEdits(t, c.lang, c.src)
				return
			}
			assertAllSame(t, c.lang, c.name, c.src, c.tidied)
			oneTokenEdits(t, c.lang, c.tidied)
		})
	}
}

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// oneTokenEdits renames, in each declaration, the first identifier of its
// body that is a hash token (not in a comment or a string), and checks that
// the declaration's hash changes.
func oneTokenEdits(t *testing.T, lang Language, src string) {
	t.Helper()
	base := Tokens(lang, []byte(src))
	tab := Parse(lang, []byte(src), Options{})
	edited := 0
	for _, d := range tab.Decls {
		body := src[d.NameEndByte:d.EndByte]
		for _, m := range identRE.FindAllStringIndex(body, -1) {
			at := d.NameEndByte + m[1]
			changed := src[:at] + "Zq" + src[at:]
			if slices.Equal(Tokens(lang, []byte(changed)), base) {
				continue // inside a comment or a string: not a token
			}
			after := Parse(lang, []byte(changed), Options{})
			found := false
			for _, e := range after.Decls {
				if e.Kind == d.Kind && e.QualifiedName == d.QualifiedName && e.StartByte == d.StartByte {
					found = true
					if e.DeclHash == d.DeclHash {
						t.Errorf("%s %s: renaming %q at byte %d left the hash %s", lang, d.QualifiedName, src[d.NameEndByte+m[0]:at], at, d.DeclHash)
					}
				}
			}
			if found {
				edited++
			}
			break
		}
	}
	if edited < 3 {
		t.Errorf("%s: only %d declarations edited", lang, edited)
	}
}
