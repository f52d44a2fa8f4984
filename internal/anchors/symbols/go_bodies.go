package symbols

import (
	"bytes"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors/hash"
)

// Without history, a renamed declaration is known only by the body hash
// its pin holds. Finding the files that may hold it used to mean parsing
// every file of the language; GoBodyHashes reads the hash tokens of a Go
// file with a small lexer instead (Go's tokens are tree-sitter's leaves
// for a well-formed file) and hashes every brace group that can be a
// declaration's body, so a search parses only the files that hold the
// pinned hash. FuzzGoBodyHashes and TestGoBodyHashesCoverParse compare it
// with Parse.

// goTok is one hash token: src[start:end], or texts[text-1] when the
// token rules rewrite it (numbers, escaped strings, raw strings holding
// CRLF). Twelve bytes: a file's tokens are its largest allocation.
type goTok struct {
	start, end int32
	text       int32
}

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
func GoBodyHashes(src []byte) (hashes []string, ok bool) {
	src = trimBOM(src)
	toks, texts, groups, ok := goBodyTokens(src)
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

func trimBOM(src []byte) []byte {
	src, _ = splitBOM(src)
	return src
}

// goOpen is an open bracket: which, the token it is, and the keyword just
// before it (struct, interface).
type goOpen struct {
	c   byte
	tok int
	kw  string
}

// goBodyTokens lexes src into hash tokens (comments and `;` dropped, a
// `,` before a closing bracket dropped, literals rewritten as the token
// rules do) and lists the candidate body groups as [first, end) token
// ranges, in the order they close.
func goBodyTokens(src []byte) (toks []goTok, texts []string, groups [][2]int, ok bool) {
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

// goNumberEnd is where the number literal starting at i ends: digits,
// letters (prefixes, hex digits, the imaginary i), `_`, `.`, and a sign
// right after an exponent (e or E, p or P in a hex literal).
func goNumberEnd(src []byte, i int) int {
	hex := i+1 < len(src) && src[i] == '0' && (src[i+1] == 'x' || src[i+1] == 'X')
	j := i + 1
	for j < len(src) {
		b := src[j]
		switch {
		case isGoLetter(b) || isDigit(b) || b == '.':
			j++
		case (b == '+' || b == '-') && (hex && strings1(src[j-1], "pP") || !hex && strings1(src[j-1], "eE")):
			j++
		default:
			return j
		}
	}
	return j
}

// goOperatorLen is the length of the operator or punctuation at the start
// of s, longest first as Go's scanner reads it.
func goOperatorLen(s []byte) int {
	if len(s) >= 3 {
		switch string(s[:3]) { // no allocation
		case "<<=", ">>=", "&^=", "...":
			return 3
		}
	}
	if len(s) >= 2 {
		switch string(s[:2]) {
		case "<<", ">>", "&^", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "&&", "||", "<-", "++", "--",
			"==", "!=", "<=", ">=", ":=":
			return 2
		}
	}
	return 1
}

var crlf = []byte("\r\n")

func strings1Bytes(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}
