package symbols

import (
	"bytes"
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
	out, _, ok := appendValue([]byte(prefix+q), nil, []byte(body))
	if !ok {
		return lit, false
	}
	s := string(append(out, q...))
	return s, s != lit
}

// appendValue appends to dst the value of a literal's body (what is
// between its quotes) spelt canonically: its escapes resolved
// (appendUnescaped, into scratch, which is returned for reuse), then
// written back with one spelling per character (appendReescaped). ok is
// false, dst unchanged, when the body holds an escape this decoder does
// not know or its value is not UTF-8. decodeLiteral and GoBodyHashes
// (into its token buffer) both decode through it.
func appendValue(dst, scratch, body []byte) ([]byte, []byte, bool) {
	v, ok := appendUnescaped(scratch[:0], body)
	if !ok || !utf8.Valid(v) {
		return dst, v, false
	}
	return appendReescaped(dst, v), v, true
}

// appendReescaped writes a value back with one spelling per character:
// \\, \n, \t, \r for those, \x.. for other control characters,
// everything else as itself. The common spellings are the canonical ones,
// so a literal written with only those hashes as it did under scheme 1.
func appendReescaped(dst, v []byte) []byte {
	for i := 0; i < len(v); {
		c := v[i]
		if c >= utf8.RuneSelf {
			_, n := utf8.DecodeRune(v[i:]) // v is UTF-8: written as itself
			dst = append(dst, v[i:i+n]...)
			i += n
			continue
		}
		i++
		switch {
		case c == '\\':
			dst = append(dst, '\\', '\\')
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c < 0x20 || c == 0x7f:
			dst = append(dst, '\\', 'x', lowerHex[c>>4], lowerHex[c&15])
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

const lowerHex = "0123456789abcdef"

// appendUnescaped resolves the escapes the C family shares (\n \t \r \0
// \\ \" \' \xHH \uHHHH \u{H…} \UHHHHHHHH, octal, and a backslash-newline
// continuation), appending the value to dst.
func appendUnescaped(dst, s []byte) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			dst = append(dst, c)
			continue
		}
		if i+1 >= len(s) {
			return dst, false
		}
		i++
		switch e := s[i]; e {
		case 'n':
			dst = append(dst, '\n')
		case 't':
			dst = append(dst, '\t')
		case 'r':
			dst = append(dst, '\r')
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'v':
			dst = append(dst, '\v')
		case 'a':
			dst = append(dst, '\a')
		case '\\', '"', '\'', '`', '$':
			dst = append(dst, e)
		case '\n':
			// a line continuation
		case 'x':
			r, n, ok := hexRune(s[i+1:], 2, 2)
			if !ok {
				return dst, false
			}
			dst = utf8.AppendRune(dst, r)
			i += n
		case 'u':
			if i+1 < len(s) && s[i+1] == '{' {
				j := bytes.IndexByte(s[i:], '}')
				if j < 0 {
					return dst, false
				}
				r, _, ok := hexRune(s[i+2:i+j], 1, 6)
				if !ok {
					return dst, false
				}
				dst = utf8.AppendRune(dst, r)
				i += j
				continue
			}
			r, n, ok := hexRune(s[i+1:], 4, 4)
			if !ok {
				return dst, false
			}
			dst = utf8.AppendRune(dst, r)
			i += n
		case 'U':
			r, n, ok := hexRune(s[i+1:], 8, 8)
			if !ok {
				return dst, false
			}
			dst = utf8.AppendRune(dst, r)
			i += n
		default:
			if e >= '0' && e <= '7' {
				j, v := i, rune(0)
				for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
					v = v<<3 | rune(s[j]-'0')
					j++
				}
				dst = utf8.AppendRune(dst, v)
				i = j - 1
				continue
			}
			return dst, false
		}
	}
	return dst, true
}

// hexRune reads minN to maxN hex digits at the start of s: the rune they
// spell and how many they are.
func hexRune(s []byte, minN, maxN int) (rune, int, bool) {
	n, v := 0, uint64(0)
	for n < len(s) && n < maxN {
		d, ok := hexDigit(s[n])
		if !ok {
			break
		}
		v = v<<4 | uint64(d)
		n++
	}
	if n < minN || v > utf8.MaxRune {
		return 0, 0, false
	}
	return rune(v), n, true
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
