package claims

import (
	"strings"
	"unicode/utf8"
)

// DialectFix is the quick fix for a regex the dialect gate refused: the
// byte span of the regex source (between the slashes) in the anchor's line
// and the source rewritten into POSIX ERE.
type DialectFix struct {
	Start, End int    // byte offsets into the line
	Source     string // the rewritten regex source
	// Changes lists each distinct rewrite, `\s → [[:space:]]`, in order.
	Changes []string
}

// shorthandERE spells the refused PCRE shorthands in POSIX ERE; the same
// translations the gate's messages give (shorthandHint). `\b` and `\B` have
// no token-for-token spelling and are left alone.
var shorthandERE = map[byte]string{
	's': "[[:space:]]",
	'S': "[^[:space:]]",
	'd': "[[:digit:]]",
	'D': "[^[:digit:]]",
	'w': "[[:alnum:]_]",
	'W': "[^[:alnum:]_]",
}

// FixDialect proposes the rewrite of the regex of the `@anchor` comment on
// line (one line of a doc, as ParseDoc splits it) that the dialect gate
// refused: each shorthand outside a bracket expression (`\s` →
// `[[:space:]]`, `\d` → `[[:digit:]]`, `\w` → `[[:alnum:]_]`, and their
// negations) and each bare `[:class:]` (→ `[[:class:]]`). ok is false when
// the line holds no regex or nothing in it is translatable; the rewrite may
// leave other refusals (`(?:`, backreferences), which need a person.
func FixDialect(line string) (DialectFix, bool) {
	start, end, ok := regexSpan(line)
	if !ok {
		return DialectFix{}, false
	}
	src, changes := translateDialect(line[start:end])
	if len(changes) == 0 {
		return DialectFix{}, false
	}
	return DialectFix{Start: start, End: end, Source: src, Changes: changes}, true
}

// regexSpan finds the regex source of the `@anchor` comment on line,
// tokenising the body exactly as parseBody does.
func regexSpan(line string) (start, end int, ok bool) {
	m := bodyRe().FindStringSubmatchIndex(line)
	if m == nil || m[2] < 0 {
		return 0, 0, false
	}
	body, pos := line[:m[3]], m[2]
	skip := func() {
		for pos < len(body) {
			r, size := utf8.DecodeRuneInString(body[pos:])
			if !isJSSpace(r) {
				return
			}
			pos += size
		}
	}
	token := func() {
		skip()
		for pos < len(body) {
			r, size := utf8.DecodeRuneInString(body[pos:])
			if isJSSpace(r) {
				break
			}
			pos += size
		}
		skip()
	}
	token() // claim ID
	token() // repo:glob
	for strings.HasPrefix(body[pos:], "!") {
		token()
	}
	t := regexTailRe().FindStringSubmatchIndex(body[pos:])
	if t == nil || t[2] < 0 {
		return 0, 0, false
	}
	return pos + t[2], pos + t[3], true
}

// translateDialect rewrites what FixDialect translates, leaving bracket
// expressions and every other escape as written.
func translateDialect(src string) (string, []string) {
	var out strings.Builder
	var changes []string
	seen := map[string]bool{}
	note := func(from, to string) {
		if c := from + " → " + to; !seen[c] {
			seen[c] = true
			changes = append(changes, c)
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src):
			if ere, ok := shorthandERE[src[i+1]]; ok {
				out.WriteString(ere)
				note(src[i:i+2], ere)
				i += 2
				continue
			}
			_, size := utf8.DecodeRuneInString(src[i+1:])
			out.WriteString(src[i : i+1+size])
			i += 1 + size
		case c == '[' && i+1 < len(src) && src[i+1] == ':':
			end := strings.Index(src[i+2:], ":]")
			if end < 0 {
				out.WriteByte(c)
				i++
				continue
			}
			name := src[i+2 : i+2+end]
			if _, known := posixClasses[name]; !known {
				out.WriteByte(c)
				i++
				continue
			}
			bare := src[i : i+2+end+2]
			out.WriteString("[" + bare + "]")
			note(bare, "["+bare+"]")
			i += len(bare)
		case c == '[':
			j := bracketEnd(src, i)
			out.WriteString(src[i:j])
			i = j
		default:
			out.WriteByte(c)
			i++
		}
	}
	return out.String(), changes
}

// bracketEnd returns the index after the bracket expression that opens at
// src[open] (the whole rest of src when it is unterminated), with the
// gate's rules: a `]` right after `[` or `[^` is a member, `[:name:]` is a
// class, a backslash takes the next character.
func bracketEnd(src string, open int) int {
	j := open + 1
	if j < len(src) && src[j] == '^' {
		j++
	}
	if j < len(src) && src[j] == ']' {
		j++
	}
	for j < len(src) {
		switch {
		case src[j] == ']':
			return j + 1
		case src[j] == '[' && j+1 < len(src) && src[j+1] == ':':
			if end := strings.Index(src[j+2:], ":]"); end >= 0 {
				j += 2 + end + 2
				continue
			}
			j++
		case src[j] == '\\' && j+1 < len(src):
			_, size := utf8.DecodeRuneInString(src[j+1:])
			j += 1 + size
		default:
			j++
		}
	}
	return len(src)
}
