package anchors

import "bytes"

// The text-scanning form of the suggestion filter: the reference
// GoSuggestFilter and GoFileFilter are held to (they read each file's
// words once; this scans the text per lost anchor).

// MaySuggestFromGo is a prefilter for FileSuggestions over Go source: the
// returned test is false only when no declaration of src can be among
// FileSuggestions(a, …, origin), so a caller may leave such a file's table
// unparsed. It holds for the Go files symbols.ParseGoDecls accepts (names
// are ASCII identifiers outside strings and comments):
//
//   - a name close by edit distance is one of src's words (a run of
//     letters, digits and `_`; a run that starts with a digit, or holds a
//     byte outside ASCII, is searched for a close substring) — when src is
//     a function's declaration, its name (goFuncNameAt: a function body
//     declares nothing a table lists);
//   - a body whose tokens overlap origin's by BodySimilarity is a brace
//     group of src (groups: symbols.GoBraceGroups) of between
//     BodySimilarity·n and n/BodySimilarity tokens that holds that share
//     of origin's n tokens: an identifier occurs in the group at most as
//     often as it occurs as a word (in Go an identifier is a whole word
//     of code), an operator at most as often as bytes.Count finds it, a
//     literal (normalised or compared by value) is counted as found — of
//     a function's declaration only the last group (its block), whose
//     tokens then overlap origin's by BodySimilarity (read by
//     symbols.GoHashTokens, or not readable), and none of a var or const
//     declaration.
func MaySuggestFromGo(a Anchor, origin []string) func(src []byte, groups []BraceGroup) bool {
	m := newGoMay(a, origin)
	return func(src []byte, groups []BraceGroup) bool {
		at := goFuncNameAt(src)
		if at >= 0 {
			// A function's declaration: only its name is a table's name.
			end := at
			for end < len(src) && goWordByte(src[end]) {
				end++
			}
			if m.close.in(src[at:end]) {
				return true
			}
		} else if m.close.in(src) {
			return true
		}
		if m.n == 0 || goValueDeclAt(src) || !m.holds(src, m.n, m.countWords(src)) {
			return false
		}
		if at >= 0 {
			if len(groups) == 0 {
				return false
			}
			g := groups[len(groups)-1]
			return m.similarBody(src, g, m.countWords(src[g.Start:g.End]))
		}
		for _, g := range groups {
			if !m.groupFits(g) {
				continue
			}
			if m.holds(src[g.Start:g.End], max(m.n, g.Tokens), m.countWords(src[g.Start:g.End])) {
				return true
			}
		}
		return false
	}
}

// countWords counts goMay's identifier tokens in text by scanning it.
func (m *goMay) countWords(text []byte) func(k int) int {
	return func(k int) int { return countWord(text, m.toks[k].text) }
}

// in reports whether some word of src is within maxDist edits of base.
func (c *closeName) in(src []byte) bool {
	for i := 0; i < len(src); {
		if wordClass[src[i]] == 0 {
			i++
			continue
		}
		j, ascii := i, true
		for j < len(src) {
			k := wordClass[src[j]]
			if k == 0 {
				break
			}
			ascii = ascii && k == 1
			j++
		}
		if c.word(src[i:j], ascii) {
			return true
		}
		i = j
	}
	return false
}

// countWord counts w (an identifier) where it is a whole word: no letter
// or `_` before it (a digit may be a number's end), no letter, digit or
// `_` after it.
func countWord(text, w []byte) int {
	n := 0
	for off := 0; ; {
		i := bytes.Index(text[off:], w)
		if i < 0 {
			return n
		}
		i += off
		end := i + len(w)
		off = end
		if i > 0 && isIdentStart(text[i-1]) || end < len(text) && (isIdentStart(text[end]) || text[end] >= '0' && text[end] <= '9') {
			off = i + 1
			continue
		}
		n++
	}
}

// wordClass is 0 for a byte no word holds, 1 for an ASCII word byte, 2
// for a byte outside ASCII (goWordByte, by table).
var wordClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c >= 0x80:
			t[c] = 2
		case goWordByte(byte(c)):
			t[c] = 1
		}
	}
	return t
}()
