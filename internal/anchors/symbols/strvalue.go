package symbols

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Scheme 2: string literals are compared by value. '✨' and '\u2728', 'A'
// and '\x41' are one token. decodeLiteral rewrites a literal already
// normalised to `"…"` (or `"""…"""`, with a prefix) with its escapes
// resolved; ok is false when it is not such a literal or holds an escape
// this decoder does not know (then the literal is compared as written).
// A literal without a backslash is returned unchanged, so it hashes as it
// did under scheme 1.
func decodeLiteral(lit string) (string, bool) {
	if strings.IndexByte(lit, '\\') < 0 {
		return lit, false
	}
	i := strings.IndexByte(lit, '"')
	if i < 0 {
		return lit, false
	}
	prefix := lit[:i]
	if strings.ContainsAny(prefix, "rRbB@`") { // raw and byte strings: no (or other) escapes
		return lit, false
	}
	q := `"`
	if strings.HasPrefix(lit[i:], `"""`) && len(lit)-i >= 6 {
		q = `"""`
	}
	body := lit[i+len(q):]
	if !strings.HasSuffix(body, q) {
		return lit, false
	}
	body = body[:len(body)-len(q)]
	v, ok := unescape(body)
	if !ok {
		return lit, false
	}
	out := prefix + q + reescape(v) + q
	return out, out != lit
}

// reescape writes a value back with one spelling per character: \\, \n,
// \t, \r for those, \x.. for other control characters, everything else
// as itself. The common spellings are the canonical ones, so a literal
// written with only those hashes as it did under scheme 1.
func reescape(v string) string {
	var b strings.Builder
	for _, r := range v {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatInt(int64(r)+0x100, 16)[1:])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unescape resolves the escapes the C family shares (\n \t \r \0 \\ \" \'
// \xHH \uHHHH \u{H…} \UHHHHHHHH, octal, and a backslash-newline
// continuation).
func unescape(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(s) {
			return "", false
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case 'a':
			b.WriteByte('\a')
		case '\\', '"', '\'', '`', '$':
			b.WriteByte(e)
		case '\n':
			// a line continuation
		case 'x':
			r, n, ok := hexRune(s[i+1:], 2, 2)
			if !ok {
				return "", false
			}
			b.WriteRune(r)
			i += n
		case 'u':
			if i+1 < len(s) && s[i+1] == '{' {
				j := strings.IndexByte(s[i:], '}')
				if j < 0 {
					return "", false
				}
				r, _, ok := hexRune(s[i+2:i+j], 1, 6)
				if !ok {
					return "", false
				}
				b.WriteRune(r)
				i += j
				continue
			}
			r, n, ok := hexRune(s[i+1:], 4, 4)
			if !ok {
				return "", false
			}
			b.WriteRune(r)
			i += n
		case 'U':
			r, n, ok := hexRune(s[i+1:], 8, 8)
			if !ok {
				return "", false
			}
			b.WriteRune(r)
			i += n
		default:
			if e >= '0' && e <= '7' {
				j := i
				for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
					j++
				}
				v, _ := strconv.ParseUint(s[i:j], 8, 32)
				b.WriteRune(rune(v))
				i = j - 1
				continue
			}
			return "", false
		}
	}
	out := b.String()
	return out, utf8.ValidString(out)
}

func hexRune(s string, minN, maxN int) (rune, int, bool) {
	n := 0
	for n < len(s) && n < maxN && strings.IndexByte("0123456789abcdefABCDEF", s[n]) >= 0 {
		n++
	}
	if n < minN {
		return 0, 0, false
	}
	v, err := strconv.ParseUint(s[:n], 16, 32)
	if err != nil || v > utf8.MaxRune {
		return 0, 0, false
	}
	return rune(v), n, true
}
