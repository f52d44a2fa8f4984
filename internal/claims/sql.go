package claims

import (
	"strings"
	"unicode"
)

// Statement is one normalised SQL statement: whitespace runs collapsed to a
// single space, comments replaced by a space, the terminating `;` dropped.
type Statement struct {
	Text string
	Line int // 1-based line of its first character that is neither space nor comment
}

// SplitSQL cuts a `.sql` file into statements (docs/claims.md). It is one pass
// over the bytes: every construct, terminated or not, advances the cursor,
// so no input can make it loop or backtrack.
func SplitSQL(src string) []Statement {
	var out []Statement
	eachStatement(src, func(st Statement) { out = append(out, st) })
	return out
}

// eachStatement is SplitSQL handing each statement to yield as soon as its
// `;` is read, so a big file is never held as a list of statements.
func eachStatement(src string, yield func(Statement)) {
	var cur strings.Builder
	line, first := 1, 0 // first: line of the statement's first real character
	emit := func() {
		if text := collapseSpace(cur.String()); text != "" {
			yield(Statement{Text: text, Line: first})
		}
		cur.Reset()
		first = 0
	}
	mark := func() {
		if first == 0 {
			first = line
		}
	}
	// copyRaw appends src[i:j] verbatim, counting its newlines.
	copyRaw := func(i, j int) {
		cur.WriteString(src[i:j])
		line += strings.Count(src[i:j], "\n")
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			cur.WriteByte(' ')
			line++
			i++
		case c == '-' && strings.HasPrefix(src[i:], "--"):
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				end = len(src) - i
			}
			cur.WriteByte(' ')
			i += end // the newline itself is handled above
		case c == '/' && strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			j := len(src)
			if end >= 0 {
				j = i + 2 + end + 2
			}
			line += strings.Count(src[i:j], "\n")
			cur.WriteByte(' ')
			i = j
		case c == '\'':
			mark()
			j := closeQuote(src, i+1)
			copyRaw(i, j)
			i = j
		case c == '$':
			mark()
			tag, ok := dollarTag(src, i)
			if !ok {
				cur.WriteByte(c)
				i++
				continue
			}
			j := len(src)
			if end := strings.Index(src[i+len(tag):], tag); end >= 0 {
				j = i + len(tag) + end + len(tag)
			}
			copyRaw(i, j)
			i = j
		case c == ';':
			emit()
			i++
		default:
			if !isSQLSpace(c) {
				mark()
			}
			cur.WriteByte(c)
			i++
		}
	}
	emit()
}

// closeQuote returns the index after the `'` that closes a literal opened
// just before from; `”` is an escaped quote. Unterminated: end of input.
func closeQuote(src string, from int) int {
	for i := from; i < len(src); i++ {
		if src[i] != '\'' {
			continue
		}
		if i+1 < len(src) && src[i+1] == '\'' {
			i++
			continue
		}
		return i + 1
	}
	return len(src)
}

// dollarTag recognises `$$` or `$tag$` at src[i]. A `$` glued to an
// identifier (`a$b$c`) or followed by a digit (`$1`) opens nothing.
func dollarTag(src string, i int) (string, bool) {
	if i > 0 && isIdentByte(src[i-1]) {
		return "", false
	}
	j := i + 1
	if j < len(src) && (isLetterByte(src[j]) || src[j] == '_') {
		j++
		for j < len(src) && (isLetterByte(src[j]) || isDigitByte(src[j]) || src[j] == '_') {
			j++
		}
	}
	if j < len(src) && src[j] == '$' {
		return src[i : j+1], true
	}
	return "", false
}

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigitByte(c byte) bool  { return c >= '0' && c <= '9' }
func isIdentByte(c byte) bool  { return isLetterByte(c) || isDigitByte(c) || c == '_' || c == '$' }
func isSQLSpace(c byte) bool   { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// collapseSpace trims and folds every whitespace run to one space, literals included.
func collapseSpace(s string) string {
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}
