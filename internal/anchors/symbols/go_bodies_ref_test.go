package symbols

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/clew-lsp/clew-lsp/internal/anchors/hash"
)

// GoBodyHashes as it was before it streamed its hashes: goBodyTokens'
// token array (which LexGoDecls still reads), then a joined buffer per
// group. The reference the streaming lexer is held to, hash for hash and
// in order (TestGoBodyHashesIsReference, FuzzGoBodyHashesIsReference):
// the two lexers read tokens by the same rules.

// GoBodyHashes lists the body hashes (as Decl.BodyHash gives them) of the
// brace groups of src that may be a declaration's body: every group at
// the top level (a function's or method's body, and a result type or
// composite literal there), every group after `struct` (a struct's
// fields, at any depth) and every `interface {…}`. Every BodyHash of a
// function, method, struct, interface or field that Parse gives for a
// well-formed file is among them; the others are harmless extras. ok is
// false when the file is not plainly well-formed Go (an unterminated
// literal or comment, unbalanced brackets, a byte outside ASCII in code):
// then any body may be in it and the caller must parse it.
// skippedSpans are the bracket groups GoBodyHashes steps over: each opens
// at the top level of a var or const declaration (the mode goValueMode
// sets, read from the top-level words) and skipGoGroup reads it.
func skippedSpans(src []byte, toks []goTok) [][2]int {
	var spans [][2]int
	depth, value := 0, false
	for _, t := range toks {
		if len(spans) > 0 && int(t.start) < spans[len(spans)-1][1] {
			continue // inside a skipped group
		}
		text := src[t.start:t.end]
		switch text[0] {
		case '(', '[', '{':
			if depth == 0 && value {
				if e, ok := skipGoGroup(src, int(t.start)); ok {
					spans = append(spans, [2]int{int(t.start), e})
					continue
				}
			}
			depth++
		case ')', ']', '}':
			depth--
		default:
			if depth == 0 {
				if m := goValueMode(text); m >= 0 {
					value = m == 1
				}
			}
		}
	}
	return spans
}

func inSpans(spans [][2]int, at int) bool {
	for _, s := range spans {
		if s[0] <= at && at < s[1] {
			return true
		}
	}
	return false
}

func refGoBodyHashes(src []byte) (hashes []string, ok bool) {
	src = trimBOM(src)
	toks, texts, groups, ok := goBodyTokens(src)
	if !ok {
		return nil, false
	}
	skipped := skippedSpans(src, toks)
	var buf []byte
	for _, g := range groups {
		if g[1]-g[0] < MinBodyTokens || inSpans(skipped, int(toks[g[1]-1].start)) {
			continue
		}
		buf = buf[:0]
		for i := g[0]; i < g[1]; i++ {
			if i > g[0] {
				buf = append(buf, hash.Separator...)
			}
			if t := &toks[i]; t.text > 0 {
				buf = append(buf, texts[t.text-1]...)
			} else {
				buf = append(buf, src[t.start:t.end]...)
			}
		}
		hashes = append(hashes, hash.OfJoined(buf))
	}
	return hashes, true
}

// TestGoBodyHashesIsReference: the streaming lexer gives the reference's
// answer, hash for hash and in order, on every file of the corpus
// (GOROOT's Go files with CLEW_TEST_GOROOT_ALL=1) and on the cases the
// rules name.
func TestGoBodyHashesIsReference(t *testing.T) {
	srcs := [][]byte{
		[]byte("package p\ntype I interface { M(a, b int,) (int, error); N() }\nvar v = []int{1, 2, 3, 4, 5, 6, 7, 8,}\n"),
		[]byte("package p\nfunc F() {,}\nfunc G() { x := struct{ a, b, c, d int }{1, 2, 3, 4,}; _ = x }\n"),
		[]byte("package p\nfunc F() []string { return []string{\"a\\x41\", `r\r\n`, '\\'', 0X1P-2, 1E3, 0x1e+2, .5e1,} }\n"),
		[]byte("\ufeffpackage p\n/* c */ func F(a int) int { a++ // x\n a <<= 2; a &^= 1; return a }\n"),
		[]byte("package p\ntype T interface /* c */ { A(); B(); C() }\ntype S struct /* c */ { a, b, c, d int }\n"),
		[]byte("package p\nfunc F() { x := \"abc\n}\n"),
		[]byte("package p\nfunc F() { if x { }\n"),
		[]byte("package p\nfunc F() { s := \"unterminated"),
		[]byte("package p\nfunc F() { /* open"),
		[]byte("package p\nfunc F() { `raw"),
		[]byte("package p\nfunc Fé() { return }\n"),
		[]byte("package p; func F() { x := [](int){1, 2, 3,}; ; ; y := x[1:2:3]; _ = y }"),
		{},
	}
	for _, f := range goFilesForChunkTest(t) {
		src, err := os.ReadFile(f)
		if err == nil {
			srcs = append(srcs, src)
		}
	}
	for i, src := range srcs {
		got, gotOK := GoBodyHashes(src)
		want, wantOK := refGoBodyHashes(src)
		if gotOK != wantOK || !slices.Equal(got, want) {
			t.Errorf("source %d (%.60q): got %v %v, want %v %v", i, src, gotOK, got, wantOK, want)
		}
	}
	if len(srcs) < 100 {
		t.Fatalf("only %d sources", len(srcs))
	}
}

func FuzzGoBodyHashesIsReference(f *testing.F) {
	for _, s := range []string{
		"package p\nfunc A() { x := 1; y := x + 2; _ = y }\n",
		"package p; type T struct{ x, y, z int; w string }; func (T) M() int { return 1 + 2 + 3 }",
		"package p\ntype I interface { M(int) error; N() }\nvar v = struct{ a, b int }{1, 2,}\n",
		"package p\nfunc F() { s := \"\\u00e9\\t\"; r := '\\n'; n := 0X1P+2i; _, _, _ = s, r, n }\n",
		"{,}{a,}(,)interface{a b c d e f g h,}struct{,}",
		"package p\ntype Φ struct{ µ, ŝ, λ2 int }\nfunc (φ Φ) M() int { return φ.µ + φ.ŝ + φ.λ2 }\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		got, gotOK := GoBodyHashes(src)
		want, wantOK := refGoBodyHashes(src)
		if gotOK != wantOK || !slices.Equal(got, want) {
			t.Fatalf("got %v %v, want %v %v", gotOK, got, wantOK, want)
		}
	})
}

// BenchmarkGoBodyHashes reads the corpus with GoBodyHashes and with the
// reference lexer, alternating file by file; x-reference is the first's
// cpu over the second's.
//
//	go test ./internal/anchors/symbols -run XXX -bench GoBodyHashes
func BenchmarkGoBodyHashes(b *testing.B) {
	files := goCorpus(b)
	var size int64
	for _, f := range files {
		size += int64(len(f))
	}
	b.SetBytes(size)
	var newCPU, refCPU time.Duration
	for b.Loop() {
		for _, f := range files {
			c0 := processCPU()
			GoBodyHashes(f)
			c1 := processCPU()
			refGoBodyHashes(f)
			newCPU += c1 - c0
			refCPU += processCPU() - c1
		}
	}
	b.ReportMetric(float64(size)*float64(b.N)/newCPU.Seconds()/1e6, "MB/cpu-s")
	b.ReportMetric(float64(newCPU)/float64(refCPU), "x-reference")
}

// FuzzGoStringValueIsDecodeLiteral: the value GoBodyHashes writes into
// its buffer for a literal with an escape (appendValue, after what dst
// held, scratch reused) is decodeLiteral's; where Go reads the literal
// alike, the value is Go's (strconv.Unquote); and the canonical spelling
// (a token's text, not a Go literal: a `"` stays as it is) is its own.
func FuzzGoStringValueIsDecodeLiteral(f *testing.F) {
	for _, s := range []string{
		`a\"b`, `\x41\x7f\x00\xff\xC3`, `\a\b\f\v\n\t\r\\`, `\'\$` + "\\`",
		"tab\there\\n", `\u00e9`, `\101`, `\x4`, `\q`, `é\n`, `\`, `\\\x1`,
		`\u{1F600}`, `\U0001F600`, `\ud800`, `\377`, "a\\\nb", "\xff\\n",
	} {
		f.Add([]byte(s))
	}
	scratch := []byte("left over")
	f.Fuzz(func(t *testing.T, body []byte) {
		// GoBodyHashes asks only of a literal with an escape, as its lexer
		// reads one: ended by the first `"` not escaped, on one line.
		if !bytes.Contains(body, []byte{'\\'}) {
			return
		}
		for i := 0; i < len(body); i++ {
			switch body[i] {
			case '\\':
				if i++; i == len(body) {
					return // it would escape the closing quote
				}
			case '"', '\n':
				return
			}
		}
		lit := `"` + string(body) + `"`
		want, _ := decodeLiteral(lit)
		got, sc, ok := appendValue([]byte("pre\""), scratch, body)
		scratch = sc
		if !ok {
			if string(got) != "pre\"" {
				t.Fatalf("declined %q but wrote %q", lit, got)
			}
			if want != lit {
				t.Fatalf("%q declined, but decodeLiteral gives %q", lit, want)
			}
			return
		}
		if string(got)+`"` != "pre"+want {
			t.Fatalf("%q: got %q, want %q", lit, got[3:], want)
		}
		if goValue, err := strconv.Unquote(lit); err == nil && utf8.ValidString(goValue) && byteEscapesASCII(body) {
			if string(sc) != goValue {
				t.Fatalf("%q: value %q, Go reads %q", lit, sc, goValue)
			}
		}
		if again, _ := decodeLiteral(want); again != want {
			t.Fatalf("%q: canonical %s is spelt again as %s", lit, want, again)
		}
	})
}

// byteEscapesASCII: every \x and octal escape of body is below 0x80. Go
// reads those escapes as bytes, the hash scheme (for every language) as
// code points, so only then are the two values the same.
func byteEscapesASCII(body []byte) bool {
	for i := 0; i+1 < len(body); i++ {
		if body[i] != '\\' {
			continue
		}
		i++
		switch e := body[i]; {
		case e == 'x' && i+1 < len(body) && body[i+1] >= '8':
			return false
		case e >= '2' && e <= '7': // three octal digits from \200 up
			return false
		}
	}
	return true
}

// TestGoStringValueAnswersTheCommonEscapes: the decoder takes the
// literals Go code is full of, and the rarer escapes Go has, with Go's
// values.
func TestGoStringValueAnswersTheCommonEscapes(t *testing.T) {
	for _, lit := range []string{`"a\"b"`, `"\x41\x7f\x00\xff"`, `"\a\b\f\v\n\t\r\\"`, "\"tab\there\\n\"",
		`"\u00e9"`, `"\101"`, `"é\n"`, `"\U0001F600\x01"`} {
		got, sc, ok := appendValue(nil, nil, []byte(lit[1:len(lit)-1]))
		want, _ := decodeLiteral(lit)
		goValue, _ := strconv.Unquote(lit)
		if !byteEscapesASCII([]byte(lit)) {
			goValue = string(sc) // Go reads \xff as a byte, the scheme as ÿ
		}
		if !ok || `"`+string(got)+`"` != want || string(sc) != goValue {
			t.Errorf("%s: got %q (value %q) %v, want %q (value %q)", lit, got, sc, ok, want, goValue)
		}
	}
	for _, lit := range []string{`"\x4"`, `"\q"`, "\"\xff\xfe\\n\""} {
		if got, _, ok := appendValue([]byte("x"), nil, []byte(lit[1:len(lit)-1])); ok || string(got) != "x" {
			t.Errorf("%s: answered %q, should be compared as written", lit, got)
		}
	}
}

// TestGoOperatorLenIsLongestOperator: goOperatorLen reads Go's operators
// longest first, as the list of them says, on every string of up to
// three bytes of operator characters (and a letter).
func TestGoOperatorLenIsLongestOperator(t *testing.T) {
	ops := []string{"<<=", ">>=", "&^=", "...", "<<", ">>", "&^", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
		"&&", "||", "<-", "++", "--", "==", "!=", "<=", ">=", ":="}
	want := func(s string) int {
		for _, op := range ops { // longest first
			if strings.HasPrefix(s, op) {
				return len(op)
			}
		}
		return 1
	}
	alphabet := "<>&^.+-*/%|=!:~()[]{},;a"
	var all []string
	for _, a := range alphabet {
		all = append(all, string(a))
		for _, b := range alphabet {
			all = append(all, string(a)+string(b))
			for _, c := range alphabet {
				all = append(all, string(a)+string(b)+string(c))
			}
		}
	}
	for _, s := range all {
		if got := goOperatorLen([]byte(s)); got != want(s) {
			t.Errorf("goOperatorLen(%q) = %d, want %d", s, got, want(s))
		}
	}
}
