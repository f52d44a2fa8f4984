package anchors

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// groupsIn are the brace groups inside [start, end): at src's offsets
// (abs) and at the declaration's (rel), as verify's caller hands them to
// GoFileFilter.May and to MaySuggestFromGo's test.
func groupsIn(groups []BraceGroup, start, end int) (abs, rel []BraceGroup) {
	for _, g := range groups {
		if g.Start >= start && g.End <= end {
			abs = append(abs, g)
			rel = append(rel, BraceGroup{Start: g.Start - start, End: g.End - start, Tokens: g.Tokens})
		}
	}
	return abs, rel
}

// sameAsMaySuggest fails t where the file filter of lost, read over src,
// answers otherwise than MaySuggestFromGo of any of them for one of src's
// declarations; it returns how many it compared and how many passed.
func sameAsMaySuggest(t *testing.T, name string, src []byte, lost []Anchor, origins [][]string) (int, int) {
	t.Helper()
	layout, ok := symbols.LexGoLayout(src)
	if !ok {
		return 0, 0
	}
	var mays []func([]byte, []BraceGroup) bool
	for i, a := range lost {
		mays = append(mays, MaySuggestFromGo(a, origins[i]))
	}
	ff := NewGoSuggestFilter(lost, origins).File(src, layout.Ranges())
	compared, passed := 0, 0
	for _, r := range layout.Ranges() {
		abs, rel := groupsIn(layout.BraceGroups(), r[0], r[1])
		want := false
		for _, may := range mays {
			if may(src[r[0]:r[1]], rel) {
				want = true
				break
			}
		}
		if got := ff.May(r[0], r[1], abs); got != want {
			t.Errorf("%s [%d, %d): the file filter says %v, MaySuggestFromGo %v (lost %v)", name, r[0], r[1], got, want, lost)
		}
		compared++
		if want {
			passed++
		}
	}
	return compared, passed
}

// GoSuggestFilter answers as MaySuggestFromGo for every top-level
// declaration of GOROOT's large packages, for lost anchors made from their
// declarations (a name an edit away, or a body like theirs), one at a time
// and several at once.
func TestGoSuggestFilterIsMaySuggestFromGo(t *testing.T) {
	var files [][]byte
	var names []string
	for _, dir := range []string{"net/http", "go/types", "encoding/json"} {
		more, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", dir, "*.go"))
		for _, f := range more {
			if src, err := os.ReadFile(f); err == nil {
				files, names = append(files, src), append(names, f)
			}
		}
	}
	var lost []Anchor
	var origins [][]string
	for i, src := range files {
		if i%17 != 0 {
			continue
		}
		tab := symbols.Parse(symbols.Go, src, symbols.Options{KeepBodyTokens: true})
		for k, d := range tab.Decls {
			if k%23 != 0 {
				continue
			}
			a := Anchor{Form: FormSymbol, Kind: d.Kind, Path: "gone/x.go", QualifiedName: d.QualifiedName + "s"}
			var origin []string
			if k%2 == 0 && d.Body.Len() >= 10 {
				origin = append(append([]string{}, d.Body.Strings()[:d.Body.Len()*9/10]...), "extraToken")
				a.QualifiedName = "Gone" + d.Name
			}
			lost, origins = append(lost, a), append(origins, origin)
		}
	}
	compared, passed := 0, 0
	for i, src := range files {
		for k := range lost {
			if (i+k)%7 != 0 {
				continue
			}
			c, p := sameAsMaySuggest(t, names[i], src, lost[k:k+1], origins[k:k+1])
			compared, passed = compared+c, passed+p
		}
		if i%5 == 0 {
			c, p := sameAsMaySuggest(t, names[i], src, lost[:min(4, len(lost))], origins[:min(4, len(lost))])
			compared, passed = compared+c, passed+p
		}
	}
	t.Logf("%d lost anchors, %d declarations compared, %d pass", len(lost), compared, passed)
	if compared < 5000 || passed == 0 || passed == compared {
		t.Fatalf("too weak a test: %d compared, %d pass", compared, passed)
	}
}

// Whatever the source, the lost name and the pinned body's tokens, the
// file filter answers as MaySuggestFromGo.
func FuzzGoSuggestFilter(f *testing.F) {
	f.Add([]byte("package p\nfunc Handle(w W) { w.Write(x1abc) }\nvar é = \"Handler\"\n"), "Handler", "w . Write ( x1abc ) abc")
	f.Add([]byte("package p\ntype T struct{ a, b int }\nfunc (t T) M() int { return t.a + t.b*2 }\n"), "T.N", "return t . a + t . b")
	f.Add([]byte("package p\n// 9serve serve_x\nconst c = 0x1p3\n"), "serve", "")
	f.Add([]byte("package p\nvar s = \"éTryAcquire 1abc x9y é9z\" + abc\nfunc F() { y(abc, z) }\n"), "TryAcquire", "abc y z ( ) , abc")
	f.Fuzz(func(t *testing.T, src []byte, name, origin string) {
		if len(src) > 4096 || len(name) > 80 || len(origin) > 400 {
			return
		}
		a := Anchor{Form: FormSymbol, Kind: "function", Path: "gone/x.go", QualifiedName: name}
		sameAsMaySuggest(t, "input", src, []Anchor{a}, [][]string{strings.Fields(origin)})
	})
}
