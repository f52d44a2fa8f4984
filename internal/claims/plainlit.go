package claims

import "regexp"

// plainLiteral reads a leg's source that is one printable ASCII literal:
// characters that mean themselves, and punctuation escaped with a
// backslash (`\(`, `\.`, `\/`). Most of a law's legs look like that
// (`export function pay\(`), and for them translating the source, parsing
// it with RE2 and walking the tree for literals and purity all come to
// the same answer: the literal. ok is false for anything else — a meta
// character, a letter or digit escape, a byte outside printable ASCII, an
// empty source — which takes the full path. FuzzERE and
// TestPlainLiteralIsTheFullPath check the two agree.
func plainLiteral(src string) (lit string, ok bool) {
	if src == "" {
		return "", false
	}
	escaped := false
	buf := make([]byte, 0, len(src))
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c < ' ' || c > '~' {
			return "", false
		}
		if c == '\\' && !escaped {
			escaped = true
			continue
		}
		if escaped {
			escaped = false
			if isASCIILetter(rune(c)) || c >= '0' && c <= '9' {
				return "", false // \d, \1, \x…: refused or not a literal
			}
			buf = append(buf, c)
			continue
		}
		switch c {
		case '[', ']', '(', ')', '{', '}', '.', '*', '+', '?', '|', '^', '$':
			return "", false
		}
		buf = append(buf, c)
	}
	if escaped {
		return "", false // a trailing backslash is an error the full path words
	}
	return string(buf), true
}

// compilePlain is compileERE's answer for a plainLiteral source without
// flags: the RE2 program is the quoted literal (what translateERE writes
// for it), the prefilter that literal alone, and the regex pure.
func compilePlain(source, lit string) *Regex {
	return &Regex{Source: source, prog: &lazyProgram{src: regexp.QuoteMeta(lit)}, lits: litSet{{lit}}, pure: lit}
}
