package anchors

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

func TestGoFuncNameAt(t *testing.T) {
	for _, c := range []struct {
		text, name string // name "": -1
	}{
		{"func F() {}", "F"},
		{"func (r *T) M() {}", "M"},
		{"func(r T) M() {}", "M"},
		{"func (r *T[K, V]) Get(k K) V { return r.m[k] }", "Get"},
		{"func /* c */ (r T) /* d */ M() {}", "M"},
		{"func // c\n(r T)\n// d\nM() {}", "M"},
		{"func Map[T any](xs []T) {}", "Map"},
		{"func Ünicode() {}", "Ünicode"},
		{"func (r T /* ) */) M() {}", ""}, // a comment in the receiver: not read here
		{"func (r [len(\"x\")]T) M() {}", ""},
		{"funcs() {}", ""},
		{"type T struct{}", ""},
		{"// doc\nfunc F() {}", ""},
		{"func (r T", ""},
		{"func", ""},
	} {
		at := goFuncNameAt([]byte(c.text))
		got := ""
		if at >= 0 {
			end := at
			for end < len(c.text) && goWordByte(c.text[end]) {
				end++
			}
			got = c.text[at:end]
		}
		if got != c.name {
			t.Errorf("goFuncNameAt(%q) names %q, want %q", c.text, got, c.name)
		}
	}
}

// The file filter never drops a declaration FileSuggestions would offer:
// every declaration of GOROOT's large packages (and of a file of unusual
// function headers) that alone is a suggestion for a lost anchor made
// from a real one (its name an edit away, or gone with a body like its
// own) lies in a top-level range the filter lets through. With the close
// name asked of every word but the function's name (the receiver's, the
// first after `func`), it fails.
func TestGoFileFilterKeepsEverySuggestedDeclaration(t *testing.T) {
	var names []string
	var files [][]byte
	for _, dir := range []string{"net/http", "go/types", "encoding/json"} {
		more, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", dir, "*.go"))
		for _, f := range more {
			if src, err := os.ReadFile(f); err == nil {
				names, files = append(names, f), append(files, src)
			}
		}
	}
	names = append(names, "headers.go")
	files = append(files, []byte("package p\n\nfunc /* c */ (r *Tree[K, V]) /* d */ Lookup(k K) V { return r.find(k) }\n\n"+
		"func(r Tree[K, V]) Insert(k K, v V) { r.put(k, v, nil) }\n\nfunc // c\nPlain(a, b int) int { return a*b + Lookup(a) }\n"))
	type file struct {
		name   string
		src    []byte
		decls  []symbols.Decl
		layout *symbols.GoLayout
	}
	var parsed []file
	for i, src := range files {
		tab, ok := symbols.ParseGoDecls(src, func(int, int) bool { return true }, symbols.Options{KeepBodyTokens: true})
		layout, lok := symbols.LexGoLayout(src)
		if ok && lok {
			parsed = append(parsed, file{names[i], src, tab.Decls, layout})
		}
	}
	var lost []Anchor
	var origins [][]string
	for i, f := range parsed {
		for k, d := range f.decls {
			if k%61 != 0 && i != len(parsed)-1 {
				continue
			}
			a := Anchor{Form: FormSymbol, Kind: d.Kind, Path: "gone/x.go", QualifiedName: d.QualifiedName + "s"}
			var origin []string
			if k%3 == 1 && d.Body.Len() >= 10 {
				origin = append(append([]string{}, d.Body.Strings()[:d.Body.Len()*9/10]...), "extraToken")
				a.QualifiedName = "Gone" + d.Name
			}
			lost, origins = append(lost, a), append(origins, origin)
		}
	}
	offered, funcs := 0, 0
	for fi, f := range parsed {
		ranges := f.layout.Ranges()
		for k := range lost {
			if (fi+k)%3 != 0 && fi != len(parsed)-1 {
				continue
			}
			ff := NewGoSuggestFilter(lost[k:k+1], origins[k:k+1]).File(f.src, ranges)
			for i := range f.decls {
				d := &f.decls[i]
				if len(FileSuggestions(lost[k], f.name, f.decls[i:i+1], origins[k])) == 0 {
					continue
				}
				offered++
				r := [2]int{-1, -1}
				for _, c := range ranges {
					if c[0] <= d.StartByte && d.StartByte < c[1] {
						r = c
					}
				}
				if r[0] < 0 {
					t.Fatalf("%s: %s %s in no range", f.name, d.Kind, d.QualifiedName)
				}
				if goFuncNameAt(f.src[r[0]:r[1]]) >= 0 {
					funcs++
				}
				abs, _ := groupsIn(f.layout.BraceGroups(), r[0], r[1])
				if !ff.May(r[0], r[1], abs) {
					t.Errorf("%s: the filter drops %s %s, a suggestion for lost %s", f.name, d.Kind, d.QualifiedName, lost[k].QualifiedName)
				}
			}
		}
	}
	t.Logf("%d lost anchors, %d suggested declarations (%d in a function's range)", len(lost), offered, funcs)
	if offered < 100 || funcs < 50 {
		t.Fatalf("too weak a test: %d suggestions, %d of functions", offered, funcs)
	}
}
