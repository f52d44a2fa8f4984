package symbols

import (
	"reflect"
	"slices"
	"testing"
)

func TestPackTokensRoundTrips(t *testing.T) {
	for _, ss := range [][]string{nil, {}, {"a"}, {"", "x", ""}, {"func", "(", "a", ")", "{", "}"}} {
		l := PackTokens(ss)
		if l.Len() != len(ss) {
			t.Fatalf("%q: Len %d", ss, l.Len())
		}
		for i, s := range ss {
			if l.At(i) != s {
				t.Fatalf("%q: At(%d) = %q", ss, i, l.At(i))
			}
		}
		if got := l.Strings(); !slices.Equal(got, ss) || (len(ss) == 0) != (got == nil) {
			t.Fatalf("%q: Strings() = %#v", ss, got)
		}
		if len(ss) == 0 && !reflect.DeepEqual(l, TokenList{}) {
			t.Fatalf("%q: empty list is not the zero value: %#v", ss, l)
		}
	}
}

// TestParsedBodiesAreCanonical: a parsed body is a view of its file's one
// pack, yet equal to packing its tokens anew (so tables compare with
// reflect.DeepEqual, as the codec and incremental tests do), and holds
// exactly the body's tokens.
func TestParsedBodiesAreCanonical(t *testing.T) {
	for lang, src := range samples {
		tab := Parse(lang, []byte(src), Options{KeepBodyTokens: true})
		for _, d := range tab.Decls {
			if d.Body.Len() != d.BodyTokens {
				t.Errorf("%s %s: %d tokens kept, %d counted", lang, d.QualifiedName, d.Body.Len(), d.BodyTokens)
			}
			if !reflect.DeepEqual(d.Body, PackTokens(d.Body.Strings())) {
				t.Errorf("%s %s: body %#v differs from its tokens packed anew", lang, d.QualifiedName, d.Body)
			}
		}
	}
}
