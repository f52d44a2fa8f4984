package anchors

import (
	"bytes"
	"strings"
)

// BodyPattern is a pinned body's hash tokens prepared for a textual scan: it
// answers "could this body be written in these bytes?" without parsing.
type BodyPattern struct {
	toks         []patToken
	hashComments bool
	any          bool // the body cannot be scanned for: every file may hold it
}

type patToken struct {
	text     string
	isString bool // matches any string literal: the hash normalises quotes, escapes and prefixes
}

// NewBodyPattern prepares toks (as the symbol tables give them) for
// scanning. hashComments is true for languages whose comments start with #.
func NewBodyPattern(toks []string, hashComments bool) BodyPattern {
	p := BodyPattern{hashComments: hashComments}
	for _, t := range toks {
		if strings.ContainsAny(t, "\"'`") {
			p.toks = append(p.toks, patToken{text: t, isString: true})
			continue
		}
		if strings.ContainsAny(t, " \t\r\n") || t == "" {
			// A leaf with white space inside (a preprocessor argument,
			// say) may be spelled differently on disk: don't filter.
			return BodyPattern{any: true}
		}
		p.toks = append(p.toks, patToken{text: t})
	}
	if len(p.toks) == 0 || p.toks[0].isString {
		// Nothing exact to start a scan from.
		return BodyPattern{any: true}
	}
	return p
}

// MayOccur reports whether the body could be written somewhere in content:
// its tokens follow one another separated only by white space, comments, a
// trailing comma before a closing bracket, or a string literal (docstrings
// are not hash tokens). It may say yes for a file that does not hold the
// body (the parse then decides) but never no for one that does, so a
// rename is never missed because a file was skipped.
func (p BodyPattern) MayOccur(content []byte) bool {
	if p.any {
		return true
	}
	first := []byte(p.toks[0].text)
	for off := 0; off < len(content); {
		i := bytes.Index(content[off:], first)
		if i < 0 {
			return false
		}
		if p.matchFrom(content, off+i) {
			return true
		}
		off += i + 1
	}
	return false
}

func (p BodyPattern) matchFrom(content []byte, pos int) bool {
	for ti, t := range p.toks {
		if ti > 0 {
			pos = p.skipTrivia(content, pos, t)
		}
		if pos >= len(content) {
			return false
		}
		if t.isString {
			end, ok := skipStringLiteral(content, pos)
			if !ok {
				return false
			}
			pos = end
			continue
		}
		if !bytes.HasPrefix(content[pos:], []byte(t.text)) {
			return false
		}
		pos += len(t.text)
	}
	return true
}

// skipTrivia skips what is never a hash token before the expected token:
// white space, comments, a trailing comma before a closer, and string
// literals when a string is not expected (docstrings).
func (p BodyPattern) skipTrivia(content []byte, pos int, next patToken) int {
	closer := len(next.text) == 1 && strings.ContainsAny(next.text, ")]}")
	for pos < len(content) {
		c := content[pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			pos++
		case c == '/' && pos+1 < len(content) && content[pos+1] == '/':
			pos = skipLine(content, pos)
		case c == '/' && pos+1 < len(content) && content[pos+1] == '*':
			end := bytes.Index(content[pos+2:], []byte("*/"))
			if end < 0 {
				return len(content)
			}
			pos += end + 4
		case c == '#' && p.hashComments:
			pos = skipLine(content, pos)
		case c == ',' && closer, c == ';' && next.text != ";":
			// Trailing commas are not tokens; some grammars' hash tokens
			// drop optional semicolons too.
			pos++
		case (c == '"' || c == '\'') && !next.isString:
			end, ok := skipStringLiteral(content, pos)
			if !ok {
				return pos
			}
			pos = end
		default:
			return pos
		}
	}
	return pos
}

func skipLine(content []byte, pos int) int {
	if i := bytes.IndexByte(content[pos:], '\n'); i >= 0 {
		return pos + i + 1
	}
	return len(content)
}

// skipStringLiteral skips one string literal at pos, with an optional
// prefix (r, b, f, u, @, $, #…), triple quotes and raw-string hashes.
func skipStringLiteral(content []byte, pos int) (int, bool) {
	i := pos
	hashes := 0
	for i < len(content) && i-pos < 4 {
		c := content[i]
		if c == '#' {
			hashes++
		} else if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '@' || c == '$') {
			break
		}
		i++
	}
	if i >= len(content) {
		return pos, false
	}
	q := content[i]
	if q != '"' && q != '\'' && q != '`' {
		return pos, false
	}
	if i+2 < len(content) && content[i+1] == q && content[i+2] == q {
		end := bytes.Index(content[i+3:], []byte{q, q, q})
		if end < 0 {
			return len(content), true
		}
		return i + 3 + end + 3 + hashes, true
	}
	for j := i + 1; j < len(content); j++ {
		switch content[j] {
		case '\\':
			if hashes == 0 && q != '`' {
				j++
			}
		case q:
			if hashes == 0 || bytes.HasPrefix(content[j+1:], bytes.Repeat([]byte{'#'}, hashes)) {
				return j + 1 + hashes, true
			}
		}
	}
	return len(content), true
}
