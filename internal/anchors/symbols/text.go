package symbols

import (
	"strings"
	"unicode/utf8"
)

// normQuoted rewrites a '…' or "…" literal to "…" with the quote escapes
// resolved, so 'it\'s' == "it's" and "a\"b" == 'a"b': formatters swap quotes
// and escapes together. Other escapes stay as written.
func normQuoted(lit string) string {
	if len(lit) < 2 {
		return lit
	}
	q := lit[0]
	if (q != '\'' && q != '"') || lit[len(lit)-1] != q {
		return lit
	}
	return `"` + unescapeQuotes(lit[1:len(lit)-1]) + `"`
}

func unescapeQuotes(body string) string {
	if strings.IndexByte(body, '\\') < 0 {
		return body
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == '\\' && i+1 < len(body) {
			if n := body[i+1]; n == '\'' || n == '"' {
				b.WriteByte(n)
			} else {
				b.WriteByte(c)
				b.WriteByte(n)
			}
			i++
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// normPyString normalises a Python string literal: prefix letters lowercased
// and a redundant u dropped (black does both), ”' → """, ' → ", and quote
// escapes resolved unless the string is raw.
func normPyString(lit string) string {
	i := 0
	for i < len(lit) && lit[i] != '\'' && lit[i] != '"' {
		i++
	}
	prefix := strings.ReplaceAll(strings.ToLower(lit[:i]), "u", "")
	rest := lit[i:]
	raw := strings.Contains(prefix, "r")
	for _, d := range []string{`'''`, `"""`, `'`, `"`} {
		if len(rest) >= 2*len(d) && strings.HasPrefix(rest, d) && strings.HasSuffix(rest, d) {
			body := rest[len(d) : len(rest)-len(d)]
			if !raw {
				body = unescapeQuotes(body)
			}
			out := `"` + body + `"`
			if len(d) == 3 {
				out = `"""` + body + `"""`
			}
			return prefix + out
		}
	}
	return prefix + rest // unterminated (error recovery): keep as written
}

// normPyQuotes normalises an f-string's opening (prefix and quotes) or
// closing quotes the way normPyString does a whole literal.
func normPyQuotes(s string) string {
	i := 0
	for i < len(s) && s[i] != '\'' && s[i] != '"' {
		i++
	}
	prefix := strings.ReplaceAll(strings.ToLower(s[:i]), "u", "")
	q := s[i:]
	if len(q) == 3 {
		return prefix + `"""`
	}
	return prefix + `"`
}

// unquoteKey turns a quoted object key that is a plain identifier into that
// identifier: prettier drops such quotes.
func unquoteKey(lit string) string {
	if len(lit) < 3 || (lit[0] != '\'' && lit[0] != '"') || lit[len(lit)-1] != lit[0] {
		return lit
	}
	body := lit[1 : len(lit)-1]
	for i, r := range body {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return lit
		}
	}
	return body
}

// jsxText is what a JSX text renders as: whitespace that holds a line break
// goes, other runs become one space (HTML collapses them; prettier too).
func jsxText(s string) string {
	lines := strings.Split(s, "\n")
	var parts []string
	for i, l := range lines {
		if i > 0 {
			l = strings.TrimLeft(l, " \t\r")
		}
		if i < len(lines)-1 {
			l = strings.TrimRight(l, " \t\r")
		}
		if l != "" {
			parts = append(parts, l)
		}
	}
	out := strings.Join(parts, " ")
	var b strings.Builder
	space := false
	for _, r := range out {
		if r == ' ' || r == '\t' || r == '\r' {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}

// collapseSpace turns every whitespace run into one space and trims:
// strings.Join(strings.Fields(s), " "). The result may share s's bytes.
func collapseSpace(s string) string {
	if out, ok := collapseASCII(s); ok {
		return out
	}
	return strings.Join(strings.Fields(s), " ")
}

// collapseASCII is collapseSpace for an s of ASCII bytes only (ok false,
// nothing done, otherwise: strings.Fields splits at Unicode space too),
// without the slice of fields; a trimmed s that is already collapsed is
// returned as it is.
func collapseASCII(s string) (string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return "", false
		}
	}
	start, end := 0, len(s)
	for start < end && asciiSpace(s[start]) {
		start++
	}
	for end > start && asciiSpace(s[end-1]) {
		end--
	}
	s = s[start:end]
	clean := true
	for i := 0; i < len(s); i++ {
		// s is trimmed: a space inside has a byte after it.
		if c := s[i]; asciiSpace(c) && (c != ' ' || asciiSpace(s[i+1])) {
			clean = false
			break
		}
	}
	if clean {
		return s, true
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if asciiSpace(c) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteByte(c)
	}
	return b.String(), true
}

// dedent strips the common indentation of a multi-line literal (Java text
// blocks, Swift and C# multi-line strings): the language strips it too, so
// re-indenting the code does not change the value.
func dedent(s string) string {
	if strings.IndexByte(s, '\n') < 0 {
		return s
	}
	lines := strings.Split(s, "\n")
	common := -1
	for i, l := range lines {
		if i == 0 || strings.TrimSpace(l) == "" {
			continue
		}
		ind := len(l) - len(strings.TrimLeft(l, " \t"))
		if common < 0 || ind < common {
			common = ind
		}
	}
	if common <= 0 {
		return s
	}
	for i := 1; i < len(lines); i++ {
		if len(lines[i]) >= common {
			lines[i] = lines[i][common:]
		} else {
			lines[i] = strings.TrimLeft(lines[i], " \t")
		}
	}
	return strings.Join(lines, "\n")
}

// normGoNumber lowercases what gofmt lowercases: base prefixes and exponents.
func normGoNumber(s string) string {
	if len(s) >= 2 && s[0] == '0' && strings.ContainsRune("XBO", rune(s[1])) {
		s = "0" + strings.ToLower(s[1:2]) + s[2:]
	}
	if strings.HasPrefix(s, "0x") {
		return strings.ReplaceAll(s, "P", "p")
	}
	return strings.ReplaceAll(s, "E", "e")
}

// normPyNumber follows black: lowercase prefix, exponent and suffix, upper
// case hex digits.
func normPyNumber(s string) string {
	l := strings.ToLower(s)
	if strings.HasPrefix(l, "0x") {
		return "0x" + strings.ToUpper(l[2:])
	}
	return l
}

// normJSNumber follows prettier's number printing: lower case, no redundant
// exponent sign or zeros, no trailing fractional zeros or dot, a leading 0.
func normJSNumber(s string) string {
	l := strings.ToLower(s)
	if strings.HasPrefix(l, "0x") || strings.HasPrefix(l, "0b") || strings.HasPrefix(l, "0o") || strings.HasSuffix(l, "n") {
		return l
	}
	mant, exp := l, ""
	if i := strings.IndexByte(l, 'e'); i >= 0 {
		mant, exp = l[:i], l[i+1:]
		sign := ""
		if strings.HasPrefix(exp, "+") {
			exp = exp[1:]
		} else if strings.HasPrefix(exp, "-") {
			sign, exp = "-", exp[1:]
		}
		exp = strings.TrimLeft(exp, "0")
		if exp == "" {
			exp = ""
		} else {
			exp = "e" + sign + exp
		}
	}
	if strings.HasPrefix(mant, ".") {
		mant = "0" + mant
	}
	if strings.Contains(mant, ".") && !strings.Contains(mant, "_") {
		mant = strings.TrimRight(mant, "0")
		mant = strings.TrimSuffix(mant, ".")
	}
	return mant + exp
}
