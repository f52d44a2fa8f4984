package anchors

import (
	"bytes"
	"unicode/utf8"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// BodyPattern is a pinned body's hash tokens prepared for a textual scan: it
// answers "could this body be written in these bytes?" without parsing.
//
// Hash tokens are normalised (parentheses made canonical, optional commas
// and semicolons dropped, quotes and numbers rewritten), so only the
// identifiers and keywords of a body are sure to stand verbatim in the
// source. The pattern is their sequence, and a file may hold the body when
// that sequence occurs contiguously among the file's words (comments and
// string literals skipped).
type BodyPattern struct {
	words   []string
	longest []byte
	syntax  Syntax
	any     bool // nothing to scan for: every file may hold the body
}

// Syntax is what the scan must know of a language's lexical rules.
type Syntax struct {
	HashComments       bool // # starts a comment (Python)
	SingleQuoteStrings bool // '…' is a string (Python, JS/TS); elsewhere only a char literal
	Preprocessor       bool // #word is a directive (C, C++)
	// Unscanned: the scan does not model the language's lexical rules
	// (heredocs, sigils, `--` comments, `$` variables, shell words), so
	// any file may hold the body and the parse decides.
	Unscanned bool
}

// minPatternWords is the fewest identifiers worth filtering by.
const minPatternWords = 2

// NewBodyPattern prepares toks (as the symbol tables give them) for
// scanning files of a language with the given syntax.
func NewBodyPattern(toks []string, syntax Syntax) BodyPattern {
	if syntax.Unscanned {
		return BodyPattern{any: true}
	}
	p := BodyPattern{syntax: syntax}
	for _, t := range toks {
		// A word token stands verbatim in the source; a JS private name
		// `#x` is seen by the scan as the word x (where # starts no comment
		// or directive). Other tokens (strings, numbers, operators, the
		// \x00-marked) hold no word the scan is sure to see.
		var ws []string
		switch {
		case isWord(t):
			ws = []string{t}
		case len(t) > 1 && t[0] == '#' && isWord(t[1:]) && !syntax.HashComments && !syntax.Preprocessor:
			ws = []string{t[1:]}
		}
		for _, w := range ws {
			p.words = append(p.words, w)
			if len(w) > len(p.longest) {
				p.longest = []byte(w)
			}
		}
	}
	if len(p.words) < minPatternWords {
		return BodyPattern{any: true}
	}
	return p
}

func isWordStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isWordByte(c byte) bool { return isWordStart(c) || c >= '0' && c <= '9' }

func isWord(t string) bool {
	if t == "" || !isWordStart(t[0]) {
		return false
	}
	for i := 1; i < len(t); i++ {
		if !isWordByte(t[i]) {
			return false
		}
	}
	return true
}

// MayOccur reports whether the body could be written somewhere in content.
// It may say yes for a file that does not hold the body (the parse then
// decides) but never no for one that does, so a rename is never missed
// because a file was skipped.
func (p BodyPattern) MayOccur(content []byte) bool {
	if p.any {
		return true
	}
	if !ContainsRare(content, p.longest) {
		return false
	}
	words := p.scanWords(content)
	for i := 0; i+len(p.words) <= len(words); i++ {
		if words[i] != p.words[0] {
			continue
		}
		match := true
		for j := 1; j < len(p.words); j++ {
			if words[i+j] != p.words[j] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// scanWords lists the identifiers and keywords of content in order,
// skipping comments, string literals (with their prefixes) and numbers.
func (p BodyPattern) scanWords(content []byte) []string {
	var out []string
	for i := 0; i < len(content); {
		c := content[i]
		switch {
		case c == '/' && i+1 < len(content) && content[i+1] == '/':
			i = skipLine(content, i)
		case c == '/' && i+1 < len(content) && content[i+1] == '*':
			end := bytes.Index(content[i+2:], []byte("*/"))
			if end < 0 {
				return out
			}
			i += end + 4
		case c == '#' && p.syntax.HashComments:
			i = skipLine(content, i)
		case c == '#' && p.syntax.Preprocessor:
			for i++; i < len(content) && isWordByte(content[i]); i++ {
			}
		case c == '"' || c == '`' || (c == '\'' && p.syntax.SingleQuoteStrings):
			i = skipString(content, i)
		case c == '\'':
			i = skipCharLiteral(content, i)
		case c >= '0' && c <= '9':
			// A number: digits, letters (hex, exponents, suffixes) and a
			// '.' only when a digit follows (`1..xs` is a range).
			for i < len(content) && (isWordByte(content[i]) ||
				content[i] == '.' && i+1 < len(content) && content[i+1] >= '0' && content[i+1] <= '9') {
				i++
			}
		case isWordStart(c):
			start := i
			for i < len(content) && isWordByte(content[i]) {
				i++
			}
			// A word glued to a quote is a string prefix (r"…", f'…', @"…").
			if i < len(content) && (content[i] == '"' || (content[i] == '\'' && p.syntax.SingleQuoteStrings) || (content[i] == '#' && !p.syntax.HashComments)) && i-start <= 3 {
				if j := skipStringAt(content, i); j > i {
					i = j
					continue
				}
			}
			out = append(out, string(content[start:i]))
		default:
			i++
		}
	}
	return out
}

func skipLine(content []byte, pos int) int {
	if i := bytes.IndexByte(content[pos:], '\n'); i >= 0 {
		return pos + i + 1
	}
	return len(content)
}

// skipStringAt skips a string literal whose quote (or raw-string #) is at
// pos; it returns pos when there is none.
func skipStringAt(content []byte, pos int) int {
	i := pos
	hashes := 0
	for i < len(content) && content[i] == '#' {
		hashes++
		i++
	}
	if i >= len(content) || (content[i] != '"' && content[i] != '\'') {
		return pos
	}
	if hashes == 0 {
		return skipString(content, i)
	}
	closing := append([]byte{content[i]}, bytes.Repeat([]byte{'#'}, hashes)...)
	if end := bytes.Index(content[i+1:], closing); end >= 0 {
		return i + 1 + end + len(closing)
	}
	return len(content)
}

// skipString skips one quoted literal starting at pos (triple quotes and
// backticks included; escapes honoured except in backticks).
func skipString(content []byte, pos int) int {
	q := content[pos]
	if pos+2 < len(content) && content[pos+1] == q && content[pos+2] == q {
		end := bytes.Index(content[pos+3:], []byte{q, q, q})
		if end < 0 {
			return len(content)
		}
		return pos + 3 + end + 3
	}
	for i := pos + 1; i < len(content); i++ {
		switch content[i] {
		case '\\':
			if q != '`' {
				i++
			}
		case q:
			return i + 1
		case '\n':
			if q != '`' {
				return i // an unterminated quote (a Rust lifetime, a char): stop at the line end
			}
		}
	}
	return len(content)
}

// skipCharLiteral skips 'x' or '\n'-like char literals; any other quote
// (a Rust lifetime, a Swift/Kotlin apostrophe in error recovery) is
// punctuation and only the quote itself is skipped.
func skipCharLiteral(content []byte, pos int) int {
	i := pos + 1
	if i < len(content) && content[i] == '\\' {
		for j := i + 1; j < len(content) && j < pos+12; j++ {
			if content[j] == '\'' {
				return j + 1
			}
			if content[j] == '\n' {
				break
			}
		}
		return pos + 1
	}
	if _, size := utf8.DecodeRune(content[i:]); i+size < len(content) && content[i+size] == '\'' {
		return i + size + 1
	}
	return pos + 1
}

// SyntaxFor returns the lexical rules the scan needs for a language.
func SyntaxFor(lang symbols.Language) Syntax {
	switch lang {
	case "python":
		return Syntax{HashComments: true, SingleQuoteStrings: true}
	case "typescript", "tsx", "javascript":
		return Syntax{SingleQuoteStrings: true}
	case "c", "cpp":
		return Syntax{Preprocessor: true}
	case "ruby", "php", "scala", "lua", "bash", "elixir":
		return Syntax{Unscanned: true}
	}
	return Syntax{}
}
