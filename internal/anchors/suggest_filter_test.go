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

// closeName.in answers as levenshtein over every word of the source (an
// ASCII word not starting with a digit by its lower case, any other by
// substringDistance), for names the bit-vector distance takes and for
// longer ones (over 64 runes: a lowered copy and levenshtein).
func TestCloseNameIsLevenshtein(t *testing.T) {
	long := strings.Repeat("ab", 33) // 66 runes
	for _, c := range []struct {
		base, src string
		maxDist   int
	}{
		{"handler", "func Handle() {}", 2}, {"handler", "x := HNDLR", 2}, {"handler", "nothing here", 2},
		{long, "var " + strings.ToUpper(long[:65]) + "x = 1", 2}, {long, "var " + long[:60] + " = 1", 2},
		{long, long + "abc", 2}, {"ünicode", "UNICODE é", 1}, {"serve", "9serve x", 1},
	} {
		if got, want := newCloseName(c.base, len([]rune(c.base)), c.maxDist).in([]byte(c.src)), closeByLevenshtein(c.base, c.src, c.maxDist); got != want {
			t.Errorf("in(%q) for %q within %d = %v, levenshtein says %v", c.src, c.base, c.maxDist, got, want)
		}
	}
}

func FuzzCloseName(f *testing.F) {
	f.Add("handler", []byte("func Handle() {}"), 2)
	f.Add(strings.Repeat("ab", 33), []byte("x "+strings.Repeat("AB", 32)+"a y"), 3)
	f.Fuzz(func(t *testing.T, base string, src []byte, maxDist int) {
		base = strings.ToLower(base)
		if maxDist < 0 || maxDist > 30 || len(src) > 400 || len(base) > 200 {
			return
		}
		if got, want := newCloseName(base, len([]rune(base)), maxDist).in(src), closeByLevenshtein(base, string(src), maxDist); got != want {
			t.Fatalf("in(%q) for %q within %d = %v, levenshtein says %v", src, base, maxDist, got, want)
		}
	})
}

// closeByLevenshtein is closeName.in's rule written plainly.
func closeByLevenshtein(base, src string, maxDist int) bool {
	for i := 0; i < len(src); {
		if wordClass[src[i]] == 0 {
			i++
			continue
		}
		j, ascii := i, true
		for j < len(src) && wordClass[src[j]] != 0 {
			ascii = ascii && wordClass[src[j]] == 1
			j++
		}
		word := src[i:j]
		i = j
		if ascii && !(word[0] >= '0' && word[0] <= '9') {
			if levenshtein(base, strings.ToLower(word), maxDist+1) <= maxDist {
				return true
			}
		} else if substringDistance(base, strings.ToLower(word)) <= maxDist {
			return true
		}
	}
	return false
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

// Both bit-vector distances are their references' on ASCII words:
// distance is levenshtein's, substring is substringDistance's.
func FuzzBitDistance(f *testing.F) {
	f.Add("handler", []byte("Handle"))
	f.Add("ünicode", []byte("UNICODE"))
	f.Add("handler", []byte("1Handle"))
	f.Add("ünicode", []byte("0xUNICODE"))
	f.Add("runtimeformatbase10", []byte("1e10"))
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
		lower := strings.ToLower(string(word))
		if got, want := d.distance(word), levenshtein(base, lower, 1000); got != want {
			t.Fatalf("distance(%q, %q) = %d, levenshtein says %d", base, word, got, want)
		}
		if got, want := d.substring(word), substringDistance(base, lower); got != want {
			t.Fatalf("substring(%q, %q) = %d, substringDistance says %d", base, word, got, want)
		}
	})
}

// The bit-vector substring distance is substringDistance's on ASCII
// words, for names of up to 64 runes.
func TestBitSubstring(t *testing.T) {
	words := []string{"", "a", "1handler", "0x1Handler2", "9handle", "hndlr", "xyz", "1ServeHTTP", "ba", "sitting",
		"unicode", "ListenAndServeTLS", "12345", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}
	for _, base := range []string{"handler", "kitten", "ab", "ünicode", "x", "listenandserve", strings.Repeat("ab", 32)} {
		d, ok := newBitDistance([]rune(base))
		if !ok {
			t.Fatalf("%q: not taken", base)
		}
		for _, w := range words {
			want := substringDistance(base, strings.ToLower(w))
			if got := d.substring([]byte(w)); got != want {
				t.Errorf("substring(%q, %q) = %d, substringDistance says %d", base, w, got, want)
			}
		}
	}
}
