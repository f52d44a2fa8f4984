package symbols

import (
	"os"
	"reflect"
	"testing"
)

// A layout answers as GoDeclRanges, GoBraceGroups and ParseGoDecls do on
// the same bytes, and refuses what they refuse.
func TestGoLayoutAnswersAsTheFunctions(t *testing.T) {
	opt := Options{KeepBodyTokens: true}
	checked, refused := 0, 0
	for _, f := range goFilesForChunkTest(t) {
		src, err := os.ReadFile(f)
		if err != nil || len(src) > 1000000 {
			continue
		}
		g, ok := LexGoLayout(src)
		ranges, rok := GoDeclRanges(src)
		groups, gok := GoBraceGroups(src)
		if ok != rok || ok != gok {
			t.Fatalf("%s: layout ok %v, GoDeclRanges %v, GoBraceGroups %v", f, ok, rok, gok)
		}
		if !ok {
			refused++
			continue
		}
		if !reflect.DeepEqual(g.Ranges(), ranges) || !reflect.DeepEqual(g.BraceGroups(), groups) {
			t.Fatalf("%s: the layout's ranges or groups differ", f)
		}
		if checked < 40 { // tree-sitter parses: a sample
			n := 0
			keep := func(start, end int) bool { n++; return n%2 == 0 }
			want, wok := ParseGoDecls(src, keep, opt)
			n = 0
			got, gok := ParseGoDeclsIn(g, src, keep, opt)
			if wok != gok || !reflect.DeepEqual(want, got) {
				t.Fatalf("%s: ParseGoDeclsIn differs from ParseGoDecls (ok %v, %v)", f, gok, wok)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no file checked")
	}
	t.Logf("%d files checked, %d refused", checked, refused)
	if _, ok := LexGoLayout([]byte("package p\n\nfunc f() { \"unterminated\n}\n")); ok {
		t.Error("an unterminated string lexes")
	}
}
