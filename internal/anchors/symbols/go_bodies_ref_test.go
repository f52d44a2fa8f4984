package symbols

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/anchors/hash"
)

// The lexer of GoBodyHashes as it was before it streamed its hashes
// (one token array per file, then a joined buffer per group): the
// reference the streaming lexer is held to, hash for hash and in order
// (TestGoBodyHashesIsReference, FuzzGoBodyHashesIsReference).

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
func refGoBodyHashes(src []byte) (hashes []string, ok bool) {
	src = trimBOM(src)
	toks, texts, groups, ok := refGoBodyTokens(src)
	if !ok {
		return nil, false
	}
	var buf []byte
	for _, g := range groups {
		if g[1]-g[0] < MinBodyTokens {
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

// goBodyTokens lexes src into hash tokens (comments and `;` dropped, a
// `,` before a closing bracket dropped, literals rewritten as the token
// rules do) and lists the candidate body groups as [first, end) token
// ranges, in the order they close.
func refGoBodyTokens(src []byte) (toks []goTok, texts []string, groups [][2]int, ok bool) {
	if len(src) > 1<<31-1 {
		return nil, nil, nil, false
	}
	toks = make([]goTok, 0, len(src)/5)
	rewrite := func(t *goTok, s string) {
		texts = append(texts, s)
		t.text = int32(len(texts))
	}
	var stack []goOpen
	prevKw := ""
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n' || c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := indexFrom(src, i+2, "*/")
			if end < 0 {
				return nil, nil, nil, false
			}
			i = end + 2
			continue
		}
		kw := ""
		start := i
		switch {
		case c == '"' || c == '\'':
			j := i + 1
			for ; j < len(src) && src[j] != c; j++ {
				if src[j] == '\n' {
					return nil, nil, nil, false
				}
				if src[j] == '\\' {
					j++
				}
			}
			if j >= len(src) {
				return nil, nil, nil, false
			}
			i = j + 1
			t := goTok{start: int32(start), end: int32(i)}
			if c == '"' && strings1Bytes(src[start:i], '\\') {
				// An interpreted string is compared by value.
				v, _ := decodeLiteral(string(src[start:i]))
				rewrite(&t, v)
			}
			toks = append(toks, t)
		case c == '`':
			end := indexFrom(src, i+1, "`")
			if end < 0 {
				return nil, nil, nil, false
			}
			i = end + 1
			t := goTok{start: int32(start), end: int32(i)}
			if bytes.Contains(src[start:i], crlf) {
				rewrite(&t, strings.ReplaceAll(string(src[start:i]), "\r\n", "\n"))
			}
			toks = append(toks, t)
		case isGoLetter(c):
			j := i + 1
			for j < len(src) && (isGoLetter(src[j]) || isDigit(src[j])) {
				j++
			}
			if j-i >= 5 && j-i <= 9 {
				switch string(src[i:j]) { // no allocation
				case "struct":
					kw = "struct"
				case "interface":
					kw = "interface"
				}
			}
			i = j
			toks = append(toks, goTok{start: int32(start), end: int32(i)})
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			i = goNumberEnd(src, i)
			t := goTok{start: int32(start), end: int32(i)}
			for _, b := range src[start:i] {
				if b == 'X' || b == 'B' || b == 'O' || b == 'P' || b == 'E' {
					rewrite(&t, normGoNumber(string(src[start:i])))
					break
				}
			}
			toks = append(toks, t)
		case c >= 0x80 || c < ' ' || c == '$' || c == '@' || c == '#' || c == '?' || c == '\\' || c == 0x7f:
			return nil, nil, nil, false // not Go outside a literal or comment
		default:
			n := goOperatorLen(src[i:])
			i += n
			switch c {
			case ';':
				prevKw = ""
				continue // layout: gofmt writes a line break instead
			case '(', '[', '{':
				stack = append(stack, goOpen{c: c, tok: len(toks), kw: prevKw})
			case ')', ']', '}':
				if len(stack) == 0 || stack[len(stack)-1].c != opener(c) {
					return nil, nil, nil, false
				}
				if k := len(toks) - 1; k >= 0 && toks[k].text == 0 && toks[k].end-toks[k].start == 1 && src[toks[k].start] == ',' {
					toks = toks[:k] // a trailing comma is layout
				}
				o := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if c == '}' {
					end := len(toks) + 1
					if len(stack) == 0 || o.kw == "struct" {
						groups = append(groups, [2]int{o.tok, end})
					}
					if o.kw == "interface" && o.tok > 0 {
						groups = append(groups, [2]int{o.tok - 1, end})
					}
				}
			}
			toks = append(toks, goTok{start: int32(start), end: int32(i)})
		}
		prevKw = kw
	}
	if len(stack) > 0 {
		return nil, nil, nil, false
	}
	return toks, texts, groups, true
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
