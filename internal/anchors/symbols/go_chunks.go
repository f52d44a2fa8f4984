package symbols

import (
	"bytes"
	"sort"
)

// A Go file is a sequence of top-level declarations, each ended by a
// semicolon (written, or inserted at a line break by Go's rule). goChunks
// finds them with a small lexer, so a caller that needs the declarations of
// a few names can parse only the declarations that mention them
// (ParseGoDecls) instead of the whole file.

// goChunk is one top-level declaration: [start, end) runs from its keyword
// to its last token (a written `;` after it included).
type goChunk struct {
	start, end int
	keyword    string // package, import, func, type, var or const
}

// goLex is the lexer's state: the chunk being read, the bracket stack and
// the kind of the last token (for semicolon insertion).
type goLex struct {
	src    []byte
	chunks []goChunk
	groups []BraceGroup
	opens  []BraceGroup // the `{` groups open, with the token count at each
	count  int          // identifiers, keywords, literals and brackets so far
	prevKw string       // the last token, when it was a keyword
	prevAt int          // and where it started
	stack  []byte
	in     bool // inside a chunk
	cur    goChunk
	semi   bool // the last token lets a line break end the statement
	last   int  // end of the last token
}

// goChunks splits src into its top-level declarations. ok is false when
// the text is not plainly well-formed at the top level (an unterminated
// literal or comment, unbalanced brackets, a byte outside ASCII in code, a
// top-level token that starts no declaration): the caller then parses the
// whole file.
func goChunks(src []byte) (chunks []goChunk, ok bool) {
	l, ok := goLexFile(src)
	if !ok {
		return nil, false
	}
	return l.chunks, true
}

// GoDeclRanges are the [start, end) byte ranges of src's top-level
// declarations other than the package clause and imports: what
// ParseGoDecls asks keep about. ok is false when ParseGoDecls would parse
// nothing.
func GoDeclRanges(src []byte) ([][2]int, bool) {
	g, ok := LexGoLayout(src)
	if !ok {
		return nil, false
	}
	return g.ranges, true
}

// BraceGroup is one `{…}` of a Go file: [Start, End) from the brace (or
// the `interface` keyword before it: an interface type's body is both) to
// after its match. Tokens is a lower bound on the hash tokens of a
// declaration body spanning it: its identifiers, keywords, literals and
// brackets (operators, which tree-sitter may lex differently, are not
// counted).
type BraceGroup struct {
	Start, End int
	Tokens     int
}

// GoBraceGroups lists every brace group of src in the order they close;
// ok is false when goChunks would refuse the file.
func GoBraceGroups(src []byte) ([]BraceGroup, bool) {
	g, ok := LexGoLayout(src)
	if !ok {
		return nil, false
	}
	return g.groups, true
}

func goLexFile(src []byte) (*goLex, bool) {
	l := &goLex{src: src}
	// One group per `{` of code: at most one per `{` byte (one vector
	// count, instead of growing the list a dozen times).
	if n := bytes.Count(src, []byte{'{'}); n > 0 {
		l.groups = make([]BraceGroup, 0, n)
	}
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			l.lineBreak()
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			if n := bytes.IndexByte(src[i:], '\n'); n >= 0 {
				i += n
			} else {
				i = len(src)
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := indexFrom(src, i+2, "*/")
			if end < 0 {
				return nil, false
			}
			if bytes.IndexByte(src[i:end], '\n') >= 0 {
				l.lineBreak() // a comment holding a line break is one
			}
			i = end + 2
		case c == '"' || c == '\'':
			j := i + 1
			for ; j < len(src) && src[j] != c; j++ {
				if src[j] == '\n' {
					return nil, false
				}
				if src[j] == '\\' {
					j++
				}
			}
			if j >= len(src) {
				return nil, false
			}
			l.count++
			if !l.token(i, j+1, "", true) {
				return nil, false
			}
			i = j + 1
		case c == '`':
			end := indexFrom(src, i+1, "`")
			if end < 0 {
				return nil, false
			}
			l.count++
			if !l.token(i, end+1, "", true) {
				return nil, false
			}
			i = end + 1
		case isGoLetter(c):
			j := i + 1
			for j < len(src) && identPart[src[j]] {
				j++
			}
			word, semi := "", true
			if j-i >= 2 && j-i <= 11 && src[i] >= 'a' && src[i] <= 'z' {
				if kw := goKeyword(src[i:j]); kw != "" {
					word = kw
					semi = kw == "break" || kw == "continue" || kw == "fallthrough" || kw == "return"
				}
			}
			l.count++
			if !l.token(i, j, word, semi) {
				return nil, false
			}
			i = j
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			j := i + 1
			for j < len(src) {
				b := src[j]
				if isGoLetter(b) || isDigit(b) || b == '.' {
					j++
				} else if (b == '+' || b == '-') && strings1(src[j-1], "eEpP") {
					j++
				} else {
					break
				}
			}
			if !l.token(i, j, "", true) {
				return nil, false
			}
			i = j
		case c >= 0x80 || c < ' ' || c == '$' || c == '@' || c == '#' || c == '?' || c == '\\' || c == 0x7f:
			return nil, false // not Go outside a literal or comment
		default:
			n, semi := 1, false
			switch c {
			case '(', '[', '{':
				l.stack = append(l.stack, c)
				if c == '{' {
					g := BraceGroup{Start: i, Tokens: l.count}
					if l.prevKw == "interface" {
						// An interface type's body is the keyword and the group.
						g.Start, g.Tokens = l.prevAt, l.count-1
					}
					l.opens = append(l.opens, g)
				}
				l.count++
			case ')', ']', '}':
				if len(l.stack) == 0 || l.stack[len(l.stack)-1] != opener(c) {
					return nil, false
				}
				l.stack = l.stack[:len(l.stack)-1]
				semi = true
				l.count++
				if c == '}' {
					g := l.opens[len(l.opens)-1]
					l.opens = l.opens[:len(l.opens)-1]
					l.groups = append(l.groups, BraceGroup{Start: g.Start, End: i + 1, Tokens: l.count - g.Tokens})
				}
			case '+', '-':
				if i+1 < len(src) && src[i+1] == c {
					n, semi = 2, true
				}
			case ';':
				if len(l.stack) == 0 {
					if l.in {
						l.cur.end = i + 1
						l.close()
					}
					l.semi = false
					i++
					continue
				}
			}
			if !l.token(i, i+n, "", semi) {
				return nil, false
			}
			i += n
		}
	}
	if len(l.stack) > 0 {
		return nil, false
	}
	if l.in {
		l.cur.end = l.last
		l.close()
	}
	if len(l.groups) == 0 {
		l.groups = nil // as when none was allocated
	}
	return l, true
}

// token records one token at [start, end); keyword is set for a keyword.
func (l *goLex) token(start, end int, keyword string, semi bool) bool {
	if !l.in {
		if len(l.stack) > 0 {
			return false // brackets open outside any declaration
		}
		switch keyword {
		case "package", "import", "func", "type", "var", "const":
		default:
			return false
		}
		l.in, l.cur = true, goChunk{start: start, keyword: keyword}
	}
	l.semi, l.last = semi, end
	l.prevKw, l.prevAt = keyword, start
	return true
}

// lineBreak ends the chunk when Go would insert a semicolon here.
func (l *goLex) lineBreak() {
	if l.in && l.semi && len(l.stack) == 0 {
		l.cur.end = l.last
		l.close()
	}
	l.semi = false
}

func (l *goLex) close() {
	l.chunks = append(l.chunks, l.cur)
	l.in = false
}

func opener(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

func isGoLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool    { return c >= '0' && c <= '9' }

// identPart is isGoLetter(c) || isDigit(c), by table.
var identPart = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isGoLetter(byte(c)) || isDigit(byte(c))
	}
	return t
}()

func strings1(c byte, set string) bool {
	for i := 0; i < len(set); i++ {
		if set[i] == c {
			return true
		}
	}
	return false
}

func indexFrom(src []byte, from int, sep string) int {
	if i := bytes.Index(src[from:], []byte(sep)); i >= 0 {
		return from + i
	}
	return -1
}

// goKeyword is w when it is one of Go's keywords (the lexers' keywords
// are these strings, compared by value), else "". A switch on the bytes
// allocates nothing and hashes nothing (it was a map lookup per word).
func goKeyword(w []byte) string {
	switch string(w) {
	case "break":
		return "break"
	case "case":
		return "case"
	case "chan":
		return "chan"
	case "const":
		return "const"
	case "continue":
		return "continue"
	case "default":
		return "default"
	case "defer":
		return "defer"
	case "else":
		return "else"
	case "fallthrough":
		return "fallthrough"
	case "for":
		return "for"
	case "func":
		return "func"
	case "go":
		return "go"
	case "goto":
		return "goto"
	case "if":
		return "if"
	case "import":
		return "import"
	case "interface":
		return "interface"
	case "map":
		return "map"
	case "package":
		return "package"
	case "range":
		return "range"
	case "return":
		return "return"
	case "select":
		return "select"
	case "struct":
		return "struct"
	case "switch":
		return "switch"
	case "type":
		return "type"
	case "var":
		return "var"
	}
	return ""
}

// ParseGoDecls is Parse(Go, src, opt) restricted to the top-level
// declarations for which keep(declaration text) is true: each of the
// others is replaced by one line break when it spans one, else by a space
// (whitespace either way, as far as the grammar goes), the package clause,
// imports and the comments between declarations stay, and the table's
// offsets and lines are mapped back to src's, so they are the file's.
// Go's declarations are independent productions of its grammar, so on a
// well-formed file each kept one yields exactly the declarations the whole
// file's table holds for it (TestParseGoDeclsMatchesParse checks every
// file of GOROOT/src). ok is false, and the caller must parse the whole
// file, when the top level is not plainly well-formed (goChunks) or the
// parse of what is kept has a syntax error or gave up.
func ParseGoDecls(src []byte, keep func(start, end int) bool, opt Options) (t Table, ok bool) {
	g, ok := LexGoLayout(src)
	if !ok {
		return Table{}, false
	}
	return ParseGoDeclsIn(g, src, keep, opt)
}

// parseGoChunks is ParseGoDecls once src is split into its chunks.
func parseGoChunks(chunks []goChunk, src []byte, keep func(start, end int) bool, opt Options) (t Table, ok bool) {
	buf, segs := keptText(chunks, src, keep)
	if buf == nil {
		t = Parse(Go, src, opt) // nothing dropped
	} else {
		t = Parse(Go, buf, opt)
	}
	if t.GaveUp || t.SyntaxErrors > 0 {
		return Table{}, false
	}
	if buf != nil {
		for i := range t.Decls {
			mapBack(&t.Decls[i], segs)
		}
	}
	return t, true
}

// keptText is the text ParseGoDecls parses: src with every chunk keep
// refuses (package clause and imports always stay) replaced by one line
// break when it spans one, else by a space, and the stretches of src it
// copied (for mapBack). Once a chunk is dropped, every stretch between
// chunks that holds only white space and comments is replaced the same
// way: no declaration holds one (comments are extras of the grammar,
// outside the declarations beside them), and a Go file's doc comments are
// often most of what a shortened text kept (a general comment spanning a
// line break stands for one, as in Go). buf is nil when nothing is
// dropped: src is the text then.
func keptText(chunks []goChunk, src []byte, keep func(start, end int) bool) (buf []byte, segs []verbatim) {
	// The chunks dropped, in order (keep asked once each).
	var drops []span
	for _, c := range chunks {
		if c.keyword == "package" || c.keyword == "import" || keep(c.start, c.end) {
			continue
		}
		drops = append(drops, span{c.start, c.end})
	}
	if drops == nil {
		return nil, nil
	}
	// The blank stretches between chunks, merged with the dropped chunks
	// (a dropped chunk and the blanks around it become one stand-in).
	all := make([]span, 0, 2*len(chunks)+1)
	k, prev := 0, 0
	add := func(s span) {
		if n := len(all); n > 0 && all[n-1].end == s.start {
			all[n-1].end = s.end
			return
		}
		all = append(all, s)
	}
	for _, c := range chunks {
		if c.start > prev && blankGo(src[prev:c.start]) {
			add(span{prev, c.start})
		}
		if k < len(drops) && drops[k].start == c.start {
			add(drops[k])
			k++
		}
		prev = c.end
	}
	if len(src) > prev && blankGo(src[prev:]) {
		add(span{prev, len(src)})
	}
	// The text is allocated at its size: each stretch dropped becomes one
	// byte.
	size := len(src)
	for _, d := range all {
		size -= d.end - d.start - 1
	}
	buf, segs = make([]byte, 0, size), make([]verbatim, 0, len(all)+1)
	var (
		from int // end of the last stretch dropped
		// line breaks before from in src, and before len(buf) in buf
		srcLines, bufLines int
	)
	copyTo := func(end int) {
		segs = append(segs, verbatim{from: from, at: len(buf), lines: srcLines - bufLines})
		n := bytes.Count(src[from:end], newline)
		buf = append(buf, src[from:end]...)
		srcLines, bufLines = srcLines+n, bufLines+n
	}
	for _, d := range all {
		copyTo(d.start)
		if n := bytes.Count(src[d.start:d.end], newline); n > 0 {
			buf = append(buf, '\n')
			srcLines, bufLines = srcLines+n, bufLines+1
		} else {
			buf = append(buf, ' ')
		}
		from = d.end
	}
	copyTo(len(src))
	return buf, segs
}

// span is a stretch src[start:end].
type span struct{ start, end int }

// blankGo reports whether b holds only white space and whole comments.
func blankGo(b []byte) bool { return SkipGoSpace(b, 0) == len(b) }

// SkipGoSpace is the offset of the first byte from i on that is neither
// Go white space nor inside a comment (len(text) when there is none), or
// -1 when a general comment there is never closed.
func SkipGoSpace(text []byte, i int) int {
	for i < len(text) {
		switch c := text[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '/' && i+1 < len(text) && text[i+1] == '/':
			j := bytes.IndexByte(text[i:], '\n')
			if j < 0 {
				return len(text)
			}
			i += j
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			j := bytes.Index(text[i+2:], []byte("*/"))
			if j < 0 {
				return -1
			}
			i += j + 4
		default:
			return i
		}
	}
	return i
}

var newline = []byte{'\n'}

// verbatim is a stretch of src copied into the parsed text: from src
// offset from, at offset at of the text, where src's line numbers are
// the text's plus lines.
type verbatim struct{ from, at, lines int }

// mapBack moves a declaration parsed from the shortened text to src's
// offsets and lines. Every declaration lies in kept text (a dropped
// chunk's stand-in is whitespace, which no declaration starts or ends
// with): a start maps by the stretch holding it, an end by the stretch
// holding its last byte.
func mapBack(d *Decl, segs []verbatim) {
	at := func(p int) *verbatim {
		i := sort.Search(len(segs), func(i int) bool { return segs[i].at > p }) - 1
		return &segs[max(i, 0)]
	}
	start := at(d.StartByte)
	last := start
	if d.EndByte > d.StartByte {
		last = at(d.EndByte - 1)
	}
	d.StartLine += start.lines
	d.EndLine += last.lines
	d.StartByte += start.from - start.at
	d.EndByte += last.from - last.at
	if d.NameEndByte > d.NameStartByte {
		ns, ne := at(d.NameStartByte), at(d.NameEndByte-1)
		d.NameStartByte += ns.from - ns.at
		d.NameEndByte += ne.from - ne.at
	} else {
		ns := at(d.NameStartByte)
		d.NameStartByte += ns.from - ns.at
		d.NameEndByte += ns.from - ns.at
	}
}
