package symbols

import (
	"crypto/sha256"
	"encoding/hex"
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

// goTok is one hash token: src[start:end], or text when the token rules
// rewrite it (numbers, escaped strings, raw strings holding CRLF).
type goTok struct {
	start, end int
	text       string
	norm       bool
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
	toks, groups, ok := goBodyTokens(src)
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
			if t := &toks[i]; t.norm {
				buf = append(buf, t.text...)
			} else {
				buf = append(buf, src[t.start:t.end]...)
			}
		}
		sum := sha256.Sum256(buf)
		hashes = append(hashes, hex.EncodeToString(sum[:])[:hash.Len])
	}
	return hashes, true
}

func trimBOM(src []byte) []byte {
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		return src[3:]
	}
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
func goBodyTokens(src []byte) (toks []goTok, groups [][2]int, ok bool) {
	toks = make([]goTok, 0, len(src)/5)
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
				return nil, nil, false
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
					return nil, nil, false
				}
				if src[j] == '\\' {
					j++
				}
			}
			if j >= len(src) {
				return nil, nil, false
			}
			i = j + 1
			t := goTok{start: start, end: i}
			if c == '"' && strings1Bytes(src[start:i], '\\') {
				// An interpreted string is compared by value.
				t.text, _ = decodeLiteral(string(src[start:i]))
				t.norm = true
			}
			toks = append(toks, t)
		case c == '`':
			end := indexFrom(src, i+1, "`")
			if end < 0 {
				return nil, nil, false
			}
			i = end + 1
			t := goTok{start: start, end: i}
			if s := string(src[start:i]); strings.Contains(s, "\r\n") {
				t.text, t.norm = strings.ReplaceAll(s, "\r\n", "\n"), true
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
			toks = append(toks, goTok{start: start, end: i})
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			i = goNumberEnd(src, i)
			t := goTok{start: start, end: i}
			for _, b := range src[start:i] {
				if b == 'X' || b == 'B' || b == 'O' || b == 'P' || b == 'E' {
					t.text, t.norm = normGoNumber(string(src[start:i])), true
					break
				}
			}
			toks = append(toks, t)
		case c >= 0x80 || c < ' ' || c == '$' || c == '@' || c == '#' || c == '?' || c == '\\' || c == 0x7f:
			return nil, nil, false // not Go outside a literal or comment
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
					return nil, nil, false
				}
				if k := len(toks) - 1; k >= 0 && !toks[k].norm && toks[k].end-toks[k].start == 1 && src[toks[k].start] == ',' {
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
			toks = append(toks, goTok{start: start, end: i})
		}
		prevKw = kw
	}
	if len(stack) > 0 {
		return nil, nil, false
	}
	return toks, groups, true
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
	for _, op := range goOperators {
		if len(s) >= len(op) && string(s[:len(op)]) == op {
			return len(op)
		}
	}
	return 1
}

var goOperators = []string{"<<=", ">>=", "&^=", "...",
	"<<", ">>", "&^", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "&&", "||", "<-", "++", "--",
	"==", "!=", "<=", ">=", ":="}

func strings1Bytes(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}
