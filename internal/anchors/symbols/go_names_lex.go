package symbols

import (
	"bytes"
)

// The tokens and skips of GoDeclNames: Go's tokens with its semicolon
// rule for the headers it reads, and a byte-speed skip over the bodies and
// values it does not (only literals, comments and brackets are read
// there, and the few errors tree-sitter would recover from its own way
// are refused).
// Token kinds of goNames; punctuation is its own byte.
const (
	gnEOF   = 0
	gnIdent = 'a'
	gnLit   = '0'
	gnSemi  = ';' // written, or inserted at a line break by Go's rule
)

// gnState is everything next() changes, for lookahead.
type gnState struct {
	pos, start, end, prevEnd int
	kind                     byte
	semi                     bool
}

func (p *goNames) save() gnState {
	return gnState{p.pos, p.start, p.end, p.prevEnd, p.kind, p.semi}
}

func (p *goNames) restore(s gnState) {
	p.pos, p.start, p.end, p.prevEnd, p.kind, p.semi = s.pos, s.start, s.end, s.prevEnd, s.kind, s.semi
}

func (p *goNames) fail() bool {
	p.bad, p.kind = true, gnEOF
	return false
}

func (p *goNames) text() []byte { return p.src[p.start:p.end] }

// is reports whether the current token is the identifier or keyword w.
func (p *goNames) is(w string) bool {
	return p.kind == gnIdent && p.end-p.start == len(w) && string(p.src[p.start:p.end]) == w
}

// ident reports whether the current token is an identifier, not a keyword.
func (p *goNames) ident() bool {
	if p.kind != gnIdent {
		return false
	}
	return !isKeyword(p.src[p.start:p.end])
}

// next reads one token, inserting a semicolon at a line break (or a
// comment holding one, or the end) after an identifier, a literal, one of
// `break continue fallthrough return`, `++ -- ) ] }`.
func (p *goNames) next() {
	if p.bad {
		p.kind = gnEOF
		return
	}
	if p.kind != gnSemi && p.kind != gnEOF {
		p.prevEnd = p.end
	}
	src := p.src
	for p.pos < len(src) {
		c := src[p.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			p.pos++
			continue
		case c == '\n':
			if p.semi {
				p.semi = false
				p.kind, p.start, p.end = gnSemi, p.pos, p.pos
				p.pos++
				return
			}
			p.pos++
			continue
		case c == '/' && p.pos+1 < len(src) && src[p.pos+1] == '/':
			if j := bytes.IndexByte(src[p.pos:], '\n'); j >= 0 {
				p.pos += j
			} else {
				p.pos = len(src)
			}
			continue
		case c == '/' && p.pos+1 < len(src) && src[p.pos+1] == '*':
			j := bytes.Index(src[p.pos+2:], []byte("*/"))
			if j < 0 {
				p.fail()
				return
			}
			body := src[p.pos+2 : p.pos+2+j]
			at := p.pos
			p.pos += j + 4
			if p.semi && bytes.IndexByte(body, '\n') >= 0 {
				p.semi = false
				p.kind, p.start, p.end = gnSemi, at, at
				return
			}
			continue
		}
		break
	}
	if p.pos >= len(src) {
		if p.semi {
			p.semi = false
			p.kind, p.start, p.end = gnSemi, p.pos, p.pos
			return
		}
		p.kind, p.start, p.end = gnEOF, p.pos, p.pos
		return
	}
	start := p.pos
	c := src[start]
	kind, semi, end := byte(0), false, start+1
	switch {
	case isGoLetter(c) || c >= 0x80:
		end = start
		for end < len(src) {
			if b := src[end]; isGoLetter(b) || isDigit(b) {
				end++
			} else if n := goUniIdentRune(src, end, end > start); n > 0 {
				end += n
			} else {
				break
			}
		}
		if end == start {
			p.fail() // not Go outside a literal or comment
			return
		}
		kind, semi = gnIdent, true
		if isKeyword(src[start:end]) {
			switch string(src[start:end]) {
			case "break", "continue", "fallthrough", "return":
			default:
				semi = false
			}
		}
	case isDigit(c) || c == '.' && start+1 < len(src) && isDigit(src[start+1]):
		e, clean := ScanGoNumber(src, start)
		if !clean {
			p.fail()
			return
		}
		kind, semi, end = gnLit, true, e
	case c == '"' || c == '\'':
		j := start + 1
		for ; j < len(src) && src[j] != c; j++ {
			if src[j] == '\n' {
				p.fail()
				return
			}
			if src[j] == '\\' {
				j++
			}
		}
		if j >= len(src) {
			p.fail()
			return
		}
		kind, semi, end = gnLit, true, j+1
	case c == '`':
		j := bytes.IndexByte(src[start+1:], '`')
		if j < 0 {
			p.fail()
			return
		}
		kind, semi, end = gnLit, true, start+2+j
	case gnClass[c] == gnBadByte:
		p.fail()
		return
	case c == ')' || c == ']' || c == '}':
		kind, semi = c, true
	case (c == '+' || c == '-') && start+1 < len(src) && src[start+1] == c:
		kind, semi, end = c, true, start+2
	default:
		kind = c
	}
	p.kind, p.start, p.end, p.pos, p.semi = kind, start, end, end, semi
}

// skipBlock skips from the current `{` token to its match, at byte speed:
// only literals, comments and brackets are read. The matching `}` is the
// current token then.
func (p *goNames) skipBlock() bool {
	src := p.src
	stack := append(p.blockStack[:0], '{')
	i := p.pos
	// code is the last byte of code (not a comment or space) read, line
	// where the current line starts: a line break after code inside `(`
	// or `[` is checked.
	code, line := -1, i
	for len(stack) > 0 {
		run := i
		for i < len(src) && gnClass[src[i]] == 0 {
			i++
		}
		for j := i - 1; j >= run; j-- {
			if c := src[j]; c != ' ' && c != '\t' && c != '\r' {
				code = j
				break
			}
		}
		if i >= len(src) {
			return p.fail()
		}
		c := src[i]
		switch gnClass[c] {
		case gnOpen:
			if c == '(' && groupKeyword(src, code) {
				c = 'g' // `var (`: a group of specs, one a line
			}
			stack = append(stack, c)
			code = i
			i++
		case gnClose:
			if open := stack[len(stack)-1]; open != opener(c) && !(c == ')' && open == 'g') {
				return p.fail()
			}
			stack = stack[:len(stack)-1]
			code = i
			i++
		case gnNewline:
			if code >= line && inBrackets(stack) && insertsSemicolon(src, code) {
				// Go ends the statement here, inside brackets: a syntax
				// error, from which tree-sitter recovers its own way.
				return p.fail()
			}
			i++
			line = i
		case gnQuote:
			j, ok := literalEnd(src, i)
			if !ok {
				return p.fail()
			}
			code, i = j-1, j
		case gnSlash:
			switch {
			case i+1 < len(src) && src[i+1] == '/':
				j := bytes.IndexByte(src[i:], '\n')
				if j < 0 {
					return p.fail() // the block never closes
				}
				i += j
			case i+1 < len(src) && src[i+1] == '*':
				j := bytes.Index(src[i+2:], []byte("*/"))
				if j < 0 {
					return p.fail()
				}
				if code >= line && bytes.IndexByte(src[i+2:i+2+j], '\n') >= 0 {
					if inBrackets(stack) && insertsSemicolon(src, code) {
						return p.fail() // as at a line break
					}
					line = i + 2 + j
				}
				i += j + 4
			default:
				code = i
				i++
			}
		case gnTilde:
			// `~` outside a constraint: tree-sitter reads no expression
			// with it, and its error recovery is its own.
			return p.fail()
		default:
			if c >= 0x80 {
				// A Unicode identifier's letter (a digit only after one).
				if n := goUniIdentRune(src, i, i > 0 && src[i-1] >= 0x80); n > 0 {
					i += n
					code = i - 1
					continue
				}
			}
			return p.fail()
		}
	}
	p.blockStack = stack
	p.pos, p.semi = i, true
	p.kind, p.start, p.end = '}', i-1, i
	return true
}

// inBrackets: the innermost open bracket is a `(` or `[` where a
// statement cannot end.
func inBrackets(stack []byte) bool {
	top := stack[len(stack)-1]
	return top == '(' || top == '['
}

// groupKeyword: the code before a `(` (its last byte at code, -1 for
// none) is `var`, `const`, `type` or `import`, so the parenthesis holds
// specs, one per line.
func groupKeyword(src []byte, code int) bool {
	if code < 0 {
		return false
	}
	switch src[code] {
	case 'r', 't', 'e': // var, const, import, type: most calls end otherwise
	default:
		return false
	}
	j := code
	for j > 0 && (isGoLetter(src[j-1]) || isDigit(src[j-1])) {
		if j--; code-j >= 6 {
			return false // longer than the longest, import
		}
	}
	switch string(src[j : code+1]) {
	case "var", "const", "type", "import":
		return j == 0 || src[j-1] < 0x80
	}
	return false
}

// insertsSemicolon: a line break after the code byte src[at] ends a
// statement by Go's rule (an identifier, keyword or literal, `++`, `--`,
// a closing bracket end there; a keyword that does not is taken as one
// that does, which only refuses a file).
func insertsSemicolon(src []byte, at int) bool {
	switch c := src[at]; {
	case isGoLetter(c) || isDigit(c) || c >= 0x80:
		return true
	case c == ')' || c == ']' || c == '}' || c == '"' || c == '\'' || c == '`':
		return true
	case c == '+' || c == '-':
		return at > 0 && src[at-1] == c
	}
	return false
}

// literalEnd is the end of the string, rune or raw string literal at
// src[i]; ok is false when it does not end (or an interpreted one holds a
// line break).
func literalEnd(src []byte, i int) (int, bool) {
	c := src[i]
	if c == '`' {
		j := bytes.IndexByte(src[i+1:], '`')
		if j < 0 {
			return 0, false
		}
		return i + 2 + j, true
	}
	j := i + 1
	for ; j < len(src) && src[j] != c; j++ {
		if src[j] == '\n' {
			return 0, false
		}
		if src[j] == '\\' {
			j++
		}
	}
	if j >= len(src) {
		return 0, false
	}
	return j + 1, true
}

// isKeyword: w is one of Go's 25 keywords (a switch, not a map: the
// lexer asks it of every identifier it reads).
func isKeyword(w []byte) bool {
	if len(w) < 2 || len(w) > 11 || w[0] < 'b' || w[0] > 'v' {
		return false
	}
	switch string(w) {
	case "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for",
		"func", "go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select",
		"struct", "switch", "type", "var":
		return true
	}
	return false
}

// Byte classes of skipBlock: 0 is a byte it passes over.
const (
	gnPlain = iota
	gnOpen
	gnClose
	gnQuote
	gnSlash
	gnTilde
	gnNewline
	gnBadByte
)

var gnClass = func() (t [256]byte) {
	for c := 0; c < 256; c++ {
		switch {
		case c >= 0x80, c < ' ' && c != '\t' && c != '\n' && c != '\r', c == 0x7f,
			c == '#', c == '$', c == '?', c == '@', c == '\\':
			t[c] = gnBadByte
		}
	}
	t['('], t['['], t['{'] = gnOpen, gnOpen, gnOpen
	t[')'], t[']'], t['}'] = gnClose, gnClose, gnClose
	t['"'], t['\''], t['`'] = gnQuote, gnQuote, gnQuote
	t['/'] = gnSlash
	t['~'] = gnTilde
	t['\n'] = gnNewline
	return t
}()

// skipTo skips tokens up to a `;` (or, when closers is true, a `)` or `}`)
// outside the brackets it opens, skipping brace groups at byte speed. It
// stops on that token without reading it.
func (p *goNames) skipTo(closers bool) bool {
	var buf [16]byte
	depth := buf[:0]
	for {
		switch p.kind {
		case gnEOF:
			if len(depth) > 0 {
				return p.fail()
			}
			return !p.bad
		case gnSemi:
			if len(depth) == 0 {
				return true
			}
			return p.fail() // a statement ends inside brackets: not Go
		case '(', '[':
			depth = append(depth, p.kind)
		case '{':
			if !p.skipBlock() {
				return false
			}
		case gnIdent:
			if !p.skipInterface() {
				return false
			}
		case '~':
			if p.exprs {
				return p.fail() // as in skipBlock
			}
		case ')', ']', '}':
			if len(depth) == 0 {
				if closers && p.kind != ']' {
					return true
				}
				return p.fail()
			}
			if depth[len(depth)-1] != opener(p.kind) {
				return p.fail()
			}
			depth = depth[:len(depth)-1]
		}
		p.next()
	}
}

// skipGroup skips from the current `(` or `[` to after its match.
func (p *goNames) skipGroup() bool {
	open := p.kind
	p.next()
	for {
		switch p.kind {
		case gnEOF, gnSemi:
			return p.fail()
		case '(', '[':
			if !p.skipGroup() {
				return false
			}
			continue
		case '{':
			if !p.skipBlock() {
				return false
			}
		case gnIdent:
			if !p.skipInterface() {
				return false
			}
		case ')', ']', '}':
			if opener(p.kind) != open {
				return p.fail()
			}
			p.next()
			return true
		}
		p.next()
	}
}

// skipInterface skips an interface type's body token by token when the
// current token is `interface` before a `{` (a constraint's `~` is Go
// there); the body's `}` is the current token then.
func (p *goNames) skipInterface() bool {
	if !p.is("interface") || p.peekKind() != '{' {
		return true
	}
	p.next()
	var buf [16]byte
	stack := append(buf[:0], '{')
	for {
		p.next()
		switch p.kind {
		case gnEOF:
			return p.fail()
		case '(', '[', '{':
			stack = append(stack, p.kind)
		case ')', ']', '}':
			if stack[len(stack)-1] != opener(p.kind) {
				return p.fail()
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return true
			}
		}
	}
}

// skipType skips tokens (and the groups they open) up to a `=`, `;`,
// `)` or the end, and stops there.
func (p *goNames) skipType() bool {
	for {
		switch p.kind {
		case '=', gnSemi, ')', gnEOF:
			return !p.bad
		case '(', '[':
			if !p.skipGroup() {
				return false
			}
			continue
		case '{':
			if !p.skipBlock() {
				return false
			}
		case gnIdent:
			if !p.skipInterface() {
				return false
			}
		case ']', '}':
			return p.fail()
		}
		p.next()
	}
}

// ScanGoNumber reads the number literal at text[i] (a digit, or a '.'
// before one): decimal, hex, octal or binary, with '_', a fraction, an
// exponent and an imaginary 'i'. clean is false when a letter follows that
// the literal cannot hold (`0A`, `1e`, `0x`): a parser may split it
// differently. The mention prefilter's lexer reads numbers with it too.
func ScanGoNumber(text []byte, i int) (end int, clean bool) {
	hex := false
	if text[i] == '0' && i+1 < len(text) {
		switch text[i+1] | 0x20 {
		case 'x':
			hex = true
			i += 2
		case 'o', 'b':
			i += 2
		}
		if i >= len(text) || !isNumberDigit(text[i], hex) && text[i] != '_' {
			return i, false
		}
	}
	for i < len(text) {
		c := text[i]
		switch {
		case isNumberDigit(c, hex) || c == '_' || c == '.':
			i++
		case !hex && c|0x20 == 'e' || hex && c|0x20 == 'p':
			i++
			if i < len(text) && (text[i] == '+' || text[i] == '-') {
				i++
			}
			if i >= len(text) || text[i] < '0' || text[i] > '9' {
				return i, false
			}
		case c == 'i':
			i++
			return i, i >= len(text) || !isGoLetter(text[i]) && !isDigit(text[i]) && text[i] < 0x80
		default:
			return i, !isGoLetter(c) && !isDigit(c) && c < 0x80
		}
	}
	return i, true
}

func isNumberDigit(c byte, hex bool) bool {
	return c >= '0' && c <= '9' || hex && (c|0x20 >= 'a' && c|0x20 <= 'f')
}
