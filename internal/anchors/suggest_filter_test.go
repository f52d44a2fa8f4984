package anchors

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// The suggestion prefilter never drops a file that offers a suggestion:
// lost anchors made from real declarations (renamed a little, or gone with
// a body like theirs from history) are looked for in real Go files, and
// every file FileSuggestions finds something in must pass the filter.
func TestMaySuggestFromGoKeepsEverySuggestion(t *testing.T) {
	var files []string
	for _, dir := range []string{"net/http", "go/types", "encoding/json"} {
		more, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", dir, "*.go"))
		files = append(files, more...)
	}
	type file struct {
		path   string
		src    []byte
		decls  []symbols.Decl
		groups []BraceGroup
	}
	var parsed []file
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		tab, ok := symbols.ParseGoDecls(src, func(int, int) bool { return true }, symbols.Options{KeepBodyTokens: true})
		if !ok {
			continue // not a file the filter is for
		}
		groups, _ := symbols.GoBraceGroups(src)
		parsed = append(parsed, file{f, src, tab.Decls, groups})
	}
	type lostAnchor struct {
		a      Anchor
		origin []string
	}
	var lost []lostAnchor
	for i, f := range parsed {
		if i%5 != 0 {
			continue
		}
		for k, d := range f.decls {
			if k%31 != 0 {
				continue
			}
			a := Anchor{Form: FormSymbol, Kind: d.Kind, Path: "gone/x.go"}
			switch k % 3 {
			case 0:
				a.QualifiedName = d.QualifiedName + "s" // one edit away
			case 1:
				a.QualifiedName = "Q" + d.Name[1:] + "Zz"
			default:
				a.QualifiedName = "Gone" + d.Name
			}
			var origin []string
			if d.Body.Len() >= 10 {
				origin = append(append([]string{}, d.Body.Strings()[:d.Body.Len()*9/10]...), "extraToken")
			}
			lost = append(lost, lostAnchor{a, origin})
		}
	}
	offered, passed, dropped := 0, 0, 0
	for _, l := range lost {
		may := MaySuggestFromGo(l.a, l.origin)
		for _, f := range parsed {
			got := may(f.src, f.groups)
			if got {
				passed++
			} else {
				dropped++
			}
			if s := FileSuggestions(l.a, f.path, f.decls, l.origin); len(s) > 0 {
				offered++
				if !got {
					t.Errorf("%s: lost %s %s (origin %d tokens): the filter drops a file that suggests %s", f.path, l.a.Kind, l.a.QualifiedName, len(l.origin), s[0].c.QualifiedName)
				}
			}
		}
	}
	t.Logf("%d lost anchors × %d files: %d offer suggestions, %d pass the filter, %d dropped", len(lost), len(parsed), offered, passed, dropped)
	if offered < 50 || dropped == 0 {
		t.Fatalf("too weak a test: %d files with suggestions, %d dropped", offered, dropped)
	}
}

func TestSubstringDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"foo", "1foo", 0}, {"foo", "xfoOy", 1}, {"abc", "", 3}, {"", "abc", 0}, {"héllo", "1héllo2", 0}, {"abc", "axc", 1}} {
		if got := substringDistance(c.a, c.b); got != c.want {
			t.Errorf("substringDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// asciiDistance is levenshtein on a lower-cased ASCII word, allocation
// aside: a table of near and far words, then any input.
func TestASCIIDistance(t *testing.T) {
	for _, c := range []struct {
		base, word string
		limit      int
	}{
		{"handler", "Handler", 3}, {"handler", "HandleR", 3}, {"handler", "handle", 3},
		{"handler", "hndlr", 3}, {"handler", "xyz", 3}, {"", "", 1}, {"abc", "", 3},
		{"", "abc", 2}, {"serve", "ServeHTTP", 3}, {"ab", "ba", 3}, {"kitten", "sitting", 4},
		{"ünicode", "unicode", 3}, {"listenandserve", "ListenAndServeTLS", 5},
	} {
		want := levenshtein(c.base, strings.ToLower(c.word), c.limit)
		if got := asciiDistance([]rune(c.base), []byte(c.word), c.limit); got != want {
			t.Errorf("asciiDistance(%q, %q, %d) = %d, levenshtein says %d", c.base, c.word, c.limit, got, want)
		}
	}
}

func FuzzASCIIDistance(f *testing.F) {
	f.Add("handler", []byte("Handle"), 3)
	f.Add("ünicode", []byte("UNICODE"), 2)
	f.Fuzz(func(t *testing.T, base string, word []byte, limit int) {
		if len(word) >= maxASCIIWord || limit < 0 || limit > 70 || base != strings.ToLower(base) {
			return
		}
		for _, c := range word {
			if c >= 0x80 {
				return
			}
		}
		want := levenshtein(base, strings.ToLower(string(word)), limit)
		if got := asciiDistance([]rune(base), word, limit); got != want {
			t.Fatalf("asciiDistance(%q, %q, %d) = %d, levenshtein says %d", base, word, limit, got, want)
		}
	})
}

// The bit-vector distance is levenshtein's on ASCII words, for names of
// up to 64 runes.
func TestBitDistance(t *testing.T) {
	words := []string{"", "a", "handler", "Handler", "handle", "hndlr", "xyz", "ServeHTTP", "ba", "sitting",
		"unicode", "ListenAndServeTLS", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}
	for _, base := range []string{"handler", "kitten", "ab", "ünicode", "x", "listenandserve", strings.Repeat("ab", 32)} {
		d, ok := newBitDistance([]rune(base))
		if !ok {
			t.Fatalf("%q: not taken", base)
		}
		for _, w := range words {
			want := levenshtein(base, strings.ToLower(w), 1000)
			if got := d.distance([]byte(w)); got != want {
				t.Errorf("distance(%q, %q) = %d, levenshtein says %d", base, w, got, want)
			}
		}
	}
	if _, ok := newBitDistance([]rune(strings.Repeat("a", 65))); ok {
		t.Error("a 65-rune name is taken")
	}
}

func FuzzBitDistance(f *testing.F) {
	f.Add("handler", []byte("Handle"))
	f.Add("ünicode", []byte("UNICODE"))
	f.Fuzz(func(t *testing.T, base string, word []byte) {
		base = strings.ToLower(base)
		d, ok := newBitDistance([]rune(base))
		if !ok || len(word) > 100 {
			return
		}
		for _, c := range word {
			if c >= 0x80 {
				return
			}
		}
		want := levenshtein(base, strings.ToLower(string(word)), 1000)
		if got := d.distance(word); got != want {
			t.Fatalf("distance(%q, %q) = %d, levenshtein says %d", base, word, got, want)
		}
	})
}
