package symbols

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

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
// literal or comment, unbalanced brackets, a byte outside ASCII in code
// that is not part of an identifier, as goUniIdentRune reads it):
// then any body may be in it and the caller must parse it.
//
// It reads the file once, writing the hash tokens joined by the separator
// into one buffer (reused from file to file); a group's tokens are a run
// of that buffer, hashed when the group closes. Without a history it
// reads every Go file of a repository: no token array, no copy per group.
// A token's first byte picks its case by one table (hashClass); a string
// literal whose escapes are canonical is its own value, the others are
// decoded straight into the buffer (appendValue, decodeLiteral's core).
// goBodyTokens, which lists the tokens, reads them by the same rules
// (TestGoBodyHashesIsReference holds the two to the same hashes).
func GoBodyHashes(src []byte) (hashes []string, ok bool) {
	h := bodyHashers.Get().(*bodyHasher)
	hashes, ok = h.hashes(trimBOM(src))
	bodyHashers.Put(h)
	return hashes, ok
}

// GoBodySpans is where, in src, the groups GoBodyHashes lists with hash
// h are: [start, end) byte offsets from the brace (from the keyword of
// `interface {…}`) to the closing brace's end. ok is GoBodyHashes'. A
// declaration of a well-formed file whose BodyHash is h has its body at
// one of them, so a caller looking for that body parses only the
// declarations around them (or none when there are none).
func GoBodySpans(src []byte, h string) (spans [][2]int, ok bool) {
	if h == "" {
		return nil, false
	}
	b := bodyHashers.Get().(*bodyHasher)
	text, off := splitBOM(src)
	b.want = h
	_, ok = b.hashes(text)
	spans, b.want, b.spans = b.spans, "", nil
	bodyHashers.Put(b)
	if !ok {
		return nil, false
	}
	for i := range spans {
		spans[i][0] += off
		spans[i][1] += off
	}
	return spans, true
}

var bodyHashers = sync.Pool{New: func() any { return &bodyHasher{} }}

// bodyHasher is GoBodyHashes' buffers, kept between files.
type bodyHasher struct {
	joined  []byte
	stack   []hashOpen
	scratch []byte // a literal's value between its decoding and its spelling
	// want, when set, is a hash whose groups' spans go to spans.
	want  string
	spans [][2]int
}

// hashOpen is an open bracket: which, how many tokens came before it,
// where it starts in the joined tokens and in src, and for `interface {`
// where the keyword does.
type hashOpen struct {
	c          byte
	kw         byte // 's' after struct, 'i' after interface
	n          int
	at, kwAt   int
	src, kwSrc int
}

func (h *bodyHasher) hashes(src []byte) (out []string, ok bool) {
	if len(src) > 1<<31-1 {
		return nil, false
	}
	// The hash tokens so far, joined by the separator; locals, not h's
	// fields, so that appending to them is no heap write.
	joined, stack, scratch := h.joined[:0], h.stack[:0], h.scratch[:0]
	defer func() { h.joined, h.stack, h.scratch = joined, stack, scratch }()
	if cap(joined) < len(src)+len(src)/4 {
		joined = make([]byte, 0, len(src)+len(src)/4)
	}
	// Every token is written after a separator, the first too: a group's
	// run starts at its first token's text, so that one is never hashed,
	// and a token is one grow check and one copy.
	n, last, comma := 0, 0, false // how many; where the last starts; whether it is a `,`
	emit := func(text []byte) {
		l := len(joined)
		if cap(joined)-l < 1+len(text) {
			joined = slices.Grow(joined, 1+len(text))
		}
		joined = joined[:l+1+len(text)]
		joined[l] = hash.Separator[0]
		if len(text) <= 16 {
			// Most tokens are short: a loop, not a call.
			to := joined[l+1:]
			for k, b := range text {
				to[k] = b
			}
		} else {
			copy(joined[l+1:], text)
		}
		last = l + 1
		n++
		comma = false
	}
	var prevKw byte
	value := false          // in a top-level var or const declaration (go_skip.go)
	prevAt, prevSrc := 0, 0 // where the token before the current one starts, in joined and in src
	for i := 0; i < len(src); {
		c := src[i]
		class := hashClass[c]
		switch class {
		case hcSpace:
			// The most common bytes, a run at a time.
			for i++; i < len(src) && goSpace[src[i]]; i++ {
			}
			continue
		case hcSlash:
			if i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*') {
				j, ok := skipGoComment(src, i)
				if !ok {
					return nil, false
				}
				i = j
				continue
			}
			class = hcOther // `/` or `/=`
		case hcDot:
			if i+1 >= len(src) || !isDigit(src[i+1]) {
				class = hcOther // `.` or `...`
			}
		}
		var kw byte
		start := i
		tokAt := len(joined) + len(hash.Separator) // where this token's text will start
		switch class {
		case hcQuote:
			j := i + 1
			// canon: every escape is one of \\ \n \t \r and no control
			// byte is written raw, so the value spelt canonically is the
			// literal itself (decodeLiteral would return it unchanged).
			escaped, canon := false, true
			for ; j < len(src) && src[j] != c; j++ {
				b := src[j]
				if b == '\n' {
					return nil, false
				}
				if b == '\\' {
					escaped = true
					j++
					if j < len(src) {
						switch src[j] {
						case '\\', 'n', 't', 'r':
						default:
							canon = false
						}
					}
					continue
				}
				if b < ' ' || b == 0x7f {
					canon = false
				}
			}
			if j >= len(src) {
				return nil, false
			}
			i = j + 1
			if c == '"' && escaped && !canon {
				// An interpreted string is compared by value.
				// decodeLiteral's value, decoded straight into the buffer;
				// a literal it cannot decode is compared as written.
				l := len(joined)
				v, sc, ok := appendValue(append(joined, hash.Separator[0], '"'), scratch, src[start+1:i-1])
				scratch = sc
				if ok {
					joined, last, comma = append(v, '"'), l+len(hash.Separator), false
					n++
				} else {
					emit(src[start:i])
				}
			} else {
				emit(src[start:i])
			}
		case hcRaw:
			end := indexFrom(src, i+1, "`")
			if end < 0 {
				return nil, false
			}
			i = end + 1
			if bytes.Contains(src[start:i], crlf) {
				emit(bytes.ReplaceAll(src[start:i], crlf, []byte("\n")))
			} else {
				emit(src[start:i])
			}
		case hcLetter, hcHigh:
			j := i + 1
			if class == hcHigh {
				k := goUniIdentRune(src, i, false)
				if k == 0 {
					return nil, false // not Go outside a literal or comment
				}
				j = i + k
			}
			for j < len(src) && identPart[src[j]] {
				j++ // ASCII, the common case, without a call
			}
			if j < len(src) && src[j] >= utf8.RuneSelf {
				j = goIdentEnd(src, j)
			}
			if len(stack) == 0 {
				if m := goValueMode(src[i:j]); m >= 0 {
					value = m == 1
				}
			}
			if j-i == 6 && string(src[i:j]) == "struct" {
				kw = 's'
			} else if j-i == 9 && string(src[i:j]) == "interface" {
				kw = 'i'
			}
			i = j
			emit(src[start:i])
		case hcDigit, hcDot:
			j := i + 1
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			if j < len(src) && (identPart[src[j]] || src[j] == '.') {
				j = goNumberEnd(src, i) // not only decimal digits
			}
			i = j
			rewrite := false
			for _, b := range src[start:i] {
				if b == 'X' || b == 'B' || b == 'O' || b == 'P' || b == 'E' {
					rewrite = true
					break
				}
			}
			if rewrite {
				emit([]byte(normGoNumber(string(src[start:i]))))
			} else {
				emit(src[start:i])
			}
		case hcBad:
			return nil, false // not Go outside a literal or comment
		case hcSemi:
			i++
			prevKw = 0
			continue // layout: gofmt writes a line break instead
		case hcOpen:
			if value && len(stack) == 0 {
				if e, ok := skipGoGroup(src, i); ok {
					i, prevKw = e, 0
					continue
				}
			}
			i++
			stack = append(stack, hashOpen{c: c, kw: prevKw, n: n, at: tokAt, kwAt: prevAt, src: start, kwSrc: prevSrc})
			emit(src[start:i])
		case hcClose:
			i++
			if len(stack) == 0 || stack[len(stack)-1].c != opener(c) {
				return nil, false
			}
			if comma {
				// A trailing comma is layout.
				joined = joined[:last-len(hash.Separator)]
				n--
				tokAt = len(joined) + len(hash.Separator)
			}
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			emit(src[start:i])
			if c == '}' {
				if (len(stack) == 0 || o.kw == 's') && n-o.n >= MinBodyTokens {
					out = append(out, hash.OfJoined(joined[o.at:]))
					h.spanIf(out[len(out)-1], o.src, i)
				}
				if o.kw == 'i' && o.n > 0 && n-o.n+1 >= MinBodyTokens {
					out = append(out, hash.OfJoined(joined[o.kwAt:]))
					h.spanIf(out[len(out)-1], o.kwSrc, i)
				}
			}
		case hcComma:
			i++
			emit(src[start:i])
			comma = true
		default:
			i += goOperatorLen(src[i:])
			emit(src[start:i])
		}
		prevKw = kw
		prevAt, prevSrc = tokAt, start
	}
	if len(stack) > 0 {
		return nil, false
	}
	return out, true
}

// spanIf records [start, end) when the group's hash is the one wanted.
func (h *bodyHasher) spanIf(hash string, start, end int) {
	if h.want != "" && hash == h.want {
		h.spans = append(h.spans, [2]int{start, end})
	}
}

func trimBOM(src []byte) []byte {
	src, _ = splitBOM(src)
	return src
}

// GoHashTokens lists the hash tokens of a Go fragment as Decl.Body would
// list them for a body spelt so (a function's block, a struct's fields):
// comments and `;` dropped, a `,` before a closing bracket dropped,
// numbers normalised, interpreted strings by value. ok is false where
// GoBodyHashes refuses the text. A caller that needs one body's tokens
// (how far it overlaps a pinned body) reads them without a parse.
func GoHashTokens(src []byte) ([]string, bool) {
	toks, texts, _, ok := goBodyTokens(src)
	if !ok {
		return nil, false
	}
	out := make([]string, len(toks))
	for i, t := range toks {
		if t.text > 0 {
			out[i] = texts[t.text-1]
		} else {
			out[i] = string(src[t.start:t.end])
		}
	}
	return out, true
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
		if goSpace[c] {
			i++ // the most common byte, kept off a call
			continue
		}
		if j, ok := skipGoComment(src, i); !ok {
			return nil, nil, nil, false
		} else if j > i {
			i = j
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
		case isGoLetter(c) || c >= utf8.RuneSelf && goUniIdentRune(src, i, false) > 0:
			j := goIdentEnd(src, i+max(1, goUniIdentRune(src, i, false)))
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

// goSpace is the bytes Go reads as white space.
var goSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// Byte classes of GoBodyHashes' loop: what a token starting with the byte
// may be (hcOther: an operator's first byte).
const (
	hcOther = iota
	hcSpace
	hcLetter
	hcDigit
	hcQuote // " or '
	hcRaw   // `
	hcSlash // a comment, `/` or `/=`
	hcDot   // a number, `.` or `...`
	hcOpen
	hcClose
	hcSemi
	hcComma
	hcBad  // no Go token starts with it
	hcHigh // a byte outside ASCII: a letter's first (goUniIdentRune) or refused
)

var hashClass = func() (t [256]byte) {
	for c := range 256 {
		b := byte(c)
		switch {
		case goSpace[b]:
			t[c] = hcSpace
		case isGoLetter(b):
			t[c] = hcLetter
		case isDigit(b):
			t[c] = hcDigit
		case b == '"' || b == '\'':
			t[c] = hcQuote
		case b == '`':
			t[c] = hcRaw
		case b == '/':
			t[c] = hcSlash
		case b == '.':
			t[c] = hcDot
		case b == '(' || b == '[' || b == '{':
			t[c] = hcOpen
		case b == ')' || b == ']' || b == '}':
			t[c] = hcClose
		case b == ';':
			t[c] = hcSemi
		case b == ',':
			t[c] = hcComma
		case b >= utf8.RuneSelf:
			t[c] = hcHigh
		case b < ' ' || b == '$' || b == '@' || b == '#' || b == '?' || b == '\\' || b == 0x7f:
			t[c] = hcBad
		}
	}
	return t
}()

// skipGoComment is where the comment at src[i] ends (i when none starts
// there); ok is false for a comment that never ends.
func skipGoComment(src []byte, i int) (next int, ok bool) {
	switch c := src[i]; {
	case c == '/' && i+1 < len(src) && src[i+1] == '/':
		if e := bytes.IndexByte(src[i:], '\n'); e >= 0 {
			return i + e, true
		}
		return len(src), true
	case c == '/' && i+1 < len(src) && src[i+1] == '*':
		end := indexFrom(src, i+2, "*/")
		if end < 0 {
			return i, false
		}
		return end + 2, true
	}
	return i, true
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
	if len(s) < 2 {
		return 1
	}
	switch c, d := s[0], s[1]; c {
	case '<', '>':
		if d == c {
			if len(s) > 2 && s[2] == '=' {
				return 3 // <<= >>=
			}
			return 2 // << >>
		}
		if d == '=' || c == '<' && d == '-' {
			return 2 // <= >= <-
		}
	case '&':
		if d == '^' {
			if len(s) > 2 && s[2] == '=' {
				return 3 // &^=
			}
			return 2 // &^
		}
		if d == '&' || d == '=' {
			return 2
		}
	case '.':
		if d == '.' && len(s) > 2 && s[2] == '.' {
			return 3 // ...
		}
	case '+', '-', '|':
		if d == c || d == '=' {
			return 2 // ++ -- || += -= |=
		}
	case '*', '/', '%', '^', '=', '!', ':':
		if d == '=' {
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
