package anchors

import (
	"bytes"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// MaySuggestFromGo is a prefilter for FileSuggestions over Go source: the
// returned test is false only when no declaration of src can be among
// FileSuggestions(a, …, origin), so a caller may leave such a file's table
// unparsed. It holds for the Go files symbols.ParseGoDecls accepts (names
// are ASCII identifiers outside strings and comments):
//
//   - a name close by edit distance is one of src's words (a run of
//     letters, digits and `_`; a run that starts with a digit, or holds a
//     byte outside ASCII, is searched for a close substring);
//   - a body whose tokens overlap origin's by BodySimilarity is a brace
//     group of src (groups: symbols.GoBraceGroups) of between
//     BodySimilarity·n and n/BodySimilarity tokens that holds that share
//     of origin's n tokens: an identifier occurs in the group at most as
//     often as it occurs as a word (in Go an identifier is a whole word
//     of code), an operator at most as often as bytes.Count finds it, a
//     literal (normalised or compared by value) is counted as found.
func MaySuggestFromGo(a Anchor, origin []string) func(src []byte, groups []BraceGroup) bool {
	base := strings.ToLower(BaseName(a.QualifiedName))
	maxDist := len(base) / 3
	if maxDist < 2 {
		maxDist = 2
	}
	baseRunes := utf8.RuneCountInString(base)
	type tok struct {
		text  []byte
		count int
		ident bool
	}
	var toks []tok
	free, n := 0, len(origin)
	for t, c := range tokenCounts(origin) {
		if spelt(t) {
			toks = append(toks, tok{[]byte(t), c, isIdentStart(t[0])})
		} else {
			free += c
		}
	}
	// Long tokens first: they are the rare ones, so a file without the
	// body fails early.
	sort.Slice(toks, func(i, j int) bool {
		if len(toks[i].text) != len(toks[j].text) {
			return len(toks[i].text) > len(toks[j].text)
		}
		return bytes.Compare(toks[i].text, toks[j].text) < 0
	})
	// common ≥ BodySimilarity·max(n, len(body)) ≥ BodySimilarity·n; one
	// token of slack keeps float rounding on the safe side.
	// sim = common/long ≥ BodySimilarity with whole numbers: the margin
	// only absorbs float rounding.
	atLeast := func(found, of int) bool { return float64(found) >= BodySimilarity*float64(of)*(1-1e-9) }
	holds := func(text []byte, of int) bool {
		found, missing := free, 0
		for _, t := range toks {
			var got int
			if t.ident {
				got = min(t.count, countWord(text, t.text))
			} else {
				got = min(t.count, bytes.Count(text, t.text))
			}
			found += got
			missing += t.count - got
			if atLeast(found, of) {
				return true
			}
			if !atLeast(n-missing, of) {
				return false
			}
		}
		return atLeast(found, of)
	}
	close := newCloseName(base, baseRunes, maxDist)
	return func(src []byte, groups []BraceGroup) bool {
		if close.in(src) {
			return true
		}
		if n == 0 || !holds(src, n) {
			return false
		}
		for _, g := range groups {
			// The body has at least g.Tokens tokens and at most one per
			// byte; short/long ≥ BodySimilarity bounds it by n.
			if !atLeast(n, g.Tokens) || !atLeast(g.End-g.Start, n) {
				continue
			}
			if holds(src[g.Start:g.End], max(n, g.Tokens)) {
				return true
			}
		}
		return false
	}
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

// BraceGroup is symbols.BraceGroup.
type BraceGroup = symbols.BraceGroup

// spelt reports whether a hash token is the source text it came from: an
// ASCII identifier or an operator. Literals are normalised (numbers) or
// compared by value (strings).
func spelt(t string) bool {
	if t == "" {
		return false
	}
	if isIdentStart(t[0]) {
		for i := 1; i < len(t); i++ {
			if !isIdentStart(t[i]) && !(t[i] >= '0' && t[i] <= '9') {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(t); i++ {
		if !strings.ContainsRune("+-*/%&|^<>=!:.,;()[]{}~", rune(t[i])) {
			return false
		}
	}
	return true
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

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

func goWordByte(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9' || c >= 0x80
}

// closeName tests whether some word of a declaration's source is within
// maxDist edits of base (lower case, as FileSuggestions compares),
// prepared once per name.
type closeName struct {
	base               string
	baseRunes, maxDist int
	bits               bitDistance
	fast               bool
}

func newCloseName(base string, baseRunes, maxDist int) *closeName {
	c := &closeName{base: base, baseRunes: baseRunes, maxDist: maxDist}
	c.bits, c.fast = newBitDistance([]rune(base))
	return c
}

// in reports whether some word of src is within maxDist edits of base.
func (c *closeName) in(src []byte) bool {
	base, baseRunes, maxDist, bits, fast := c.base, c.baseRunes, c.maxDist, &c.bits, c.fast
	var scratch []byte
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
		word := src[i:j]
		i = j
		if ascii && !(word[0] >= '0' && word[0] <= '9') {
			if d := len(word) - baseRunes; d > maxDist || -d > maxDist {
				continue
			}
			if fast {
				if bits.within(word, maxDist) {
					return true
				}
				continue
			}
			// A name over 64 runes (rare): a lowered copy and levenshtein.
			scratch = append(scratch[:0], word...)
			for k, c := range scratch {
				if c >= 'A' && c <= 'Z' {
					scratch[k] = c + 'a' - 'A'
				}
			}
			if levenshtein(base, string(scratch), maxDist+1) <= maxDist {
				return true
			}
			continue
		}
		if substringDistance(base, strings.ToLower(string(word))) <= maxDist {
			return true
		}
	}
	return false
}

// bitDistance computes the edit distance between a fixed string of at
// most 64 runes and ASCII words with one machine word per column
// (Myers' bit-vector algorithm, in Hyyrö's form for the distance between
// whole strings): eq[c] has bit i set when a's rune i is the lower case
// byte c.
type bitDistance struct {
	eq [128]uint64
	m  int
}

func newBitDistance(a []rune) (bitDistance, bool) {
	var d bitDistance
	if len(a) == 0 || len(a) > 64 {
		return d, false
	}
	d.m = len(a)
	for i, r := range a {
		if r < 128 {
			d.eq[r] |= 1 << i
		}
	}
	return d, true
}

// distance is the edit distance between a and the lower-cased ASCII word.
func (d *bitDistance) distance(word []byte) int {
	top := uint64(1) << (d.m - 1)
	pv, mv, score := ^uint64(0), uint64(0), d.m
	for _, c := range word {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		eq := d.eq[c&0x7f]
		xv := eq | mv
		xh := (((eq & pv) + pv) ^ pv) | eq
		ph := mv | ^(xh | pv)
		mh := pv & xh
		if ph&top != 0 {
			score++
		} else if mh&top != 0 {
			score--
		}
		ph = ph<<1 | 1
		mh <<= 1
		pv = mh | ^(xv | ph)
		mv = ph & xv
	}
	return score
}

// within reports whether the word is at most maxDist edits from a.
func (d *bitDistance) within(word []byte, maxDist int) bool {
	if l := len(word) - d.m; l > maxDist || -l > maxDist {
		return false
	}
	return d.distance(word) <= maxDist
}

// substringDistance is the least edit distance between a and any
// substring of b.
func substringDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1) // a substring may start anywhere: row 0 is all 0
	cur := make([]int, len(rb)+1)
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	best := prev[0]
	for _, v := range prev {
		best = min(best, v)
	}
	return best
}
