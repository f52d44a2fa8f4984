package symbols

import (
	"os"
	"reflect"
	"testing"
)

// A layout's ranges are its chunks other than the package clause and the
// imports (what GoDeclRanges, GoBraceGroups and ParseGoDecls, which ask
// it, are of), and it refuses what goChunks refuses.
func TestGoLayoutIsTheChunks(t *testing.T) {
	checked := 0
	for _, f := range goFilesForChunkTest(t) {
		src, err := os.ReadFile(f)
		if err != nil || len(src) > 1000000 {
			continue
		}
		g, ok := LexGoLayout(src)
		chunks, cok := goChunks(src)
		if ok != cok {
			t.Fatalf("%s: layout ok %v, goChunks %v", f, ok, cok)
		}
		if !ok {
			continue
		}
		var want [][2]int
		for _, c := range chunks {
			if c.keyword != "package" && c.keyword != "import" {
				want = append(want, [2]int{c.start, c.end})
			}
		}
		if !reflect.DeepEqual(g.Ranges(), want) {
			t.Fatalf("%s: the layout's ranges are not its declarations' chunks", f)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no file checked")
	}
	if _, ok := LexGoLayout([]byte("package p\n\nfunc f() { \"unterminated\n}\n")); ok {
		t.Error("an unterminated string lexes")
	}
}
