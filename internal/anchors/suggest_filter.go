package anchors

import (
	"bytes"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// goMay is the suggestion filter's test for one lost anchor, prepared
// (why it may rule a file out: MaySuggestFromGo, the text-scanning
// reference in suggest_reference_test.go).
type goMay struct {
	close  *closeName
	toks   []mayTok
	free   int // origin's tokens counted as found (literals)
	n      int // origin's tokens
	origin []string
}

type mayTok struct {
	text  []byte
	count int
	ident bool
}

func newGoMay(a Anchor, origin []string) *goMay {
	base := strings.ToLower(BaseName(a.QualifiedName))
	maxDist := len(base) / 3
	if maxDist < 2 {
		maxDist = 2
	}
	m := &goMay{n: len(origin), origin: origin}
	for t, c := range tokenCounts(origin) {
		if spelt(t) {
			m.toks = append(m.toks, mayTok{[]byte(t), c, isIdentStart(t[0])})
		} else {
			m.free += c
		}
	}
	// Long tokens first: they are the rare ones, so a file without the
	// body fails early.
	sort.Slice(m.toks, func(i, j int) bool {
		if len(m.toks[i].text) != len(m.toks[j].text) {
			return len(m.toks[i].text) > len(m.toks[j].text)
		}
		return bytes.Compare(m.toks[i].text, m.toks[j].text) < 0
	})
	m.close = newCloseName(base, utf8.RuneCountInString(base), maxDist)
	return m
}

// atLeast: common ≥ BodySimilarity·max(n, len(body)) ≥ BodySimilarity·n;
// sim = common/long ≥ BodySimilarity with whole numbers: the margin only
// absorbs float rounding.
func atLeast(found, of int) bool { return float64(found) >= BodySimilarity*float64(of)*(1-1e-9) }

// groupFits: the body has at least g.Tokens tokens and at most one per
// byte; short/long ≥ BodySimilarity bounds it by n.
func (m *goMay) groupFits(g BraceGroup) bool {
	return atLeast(m.n, g.Tokens) && atLeast(g.End-g.Start, m.n)
}

// holds reports whether text may hold BodySimilarity of a body of of
// tokens sharing origin's; words(k) is how often the k-th identifier
// token occurs in text as a whole word (the file filter's positions).
func (m *goMay) holds(text []byte, of int, words func(k int) int) bool {
	found, missing := m.free, 0
	for k, t := range m.toks {
		var got int
		switch {
		case t.ident:
			got = min(t.count, words(k))
		default:
			got = min(t.count, bytes.Count(text, t.text))
		}
		found += got
		missing += t.count - got
		if atLeast(found, of) {
			return true
		}
		if !atLeast(m.n-missing, of) {
			return false
		}
	}
	return atLeast(found, of)
}

// A function's declaration holds one body, its block, which closes last
// among its brace groups; a var or const declaration holds none (the
// walker gives their names no body). So only the last group of a function
// can be a similar body, and none of a var or const: the bounds above
// pass 165 function declarations over GOROOT for two lost anchors where
// three bodies are similar. For a function that passes them, the block's
// tokens are read (symbols.GoHashTokens, the tokens Parse keeps for it)
// and their overlap with origin is FileSuggestions' own.

// similarBody reports whether a function's block (its last group, at
// text's offsets) may be a body similar to origin: the bounds hold and
// the block's tokens overlap origin's by BodySimilarity, or the lexer
// cannot read them.
func (m *goMay) similarBody(text []byte, g BraceGroup, words func(k int) int) bool {
	if !m.groupFits(g) || !m.holds(text[g.Start:g.End], max(m.n, g.Tokens), words) {
		return false
	}
	toks, ok := symbols.GoHashTokens(text[g.Start:g.End])
	return !ok || overlap(m.origin, toks) >= BodySimilarity
}

// goValueDeclAt reports whether text starts with a var or const
// declaration.
func goValueDeclAt(text []byte) bool {
	for _, kw := range []string{"var", "const"} {
		if rest, ok := bytes.CutPrefix(text, []byte(kw)); ok && (len(rest) == 0 || !goWordByte(rest[0])) {
			return true
		}
	}
	return false
}

// GoSuggestFilter is MaySuggestFromGo for several lost anchors, asked of
// the declarations of one file after another: each file's words are read
// once for all of them (File) — the words close to each lost name, and
// where each identifier of the pinned bodies occurs as countWord counts
// it — so a declaration costs a few binary searches, not a scan of its
// text per anchor and per identifier. Its answers are MaySuggestFromGo's
// (TestGoSuggestFilterIsMaySuggestFromGo, FuzzGoSuggestFilter).
type GoSuggestFilter struct {
	may    []*goMay
	idents map[string]int // every identifier token of the origins → its slot
	slots  [][]int        // per anchor, per token of its toks: its slot, -1 for an operator
	// first[c] has bit len&63 set when an identifier token of that
	// length starts with byte c: most words need no map lookup.
	first [256]uint64
	// minLen, maxLen bound the ASCII words close to some lost name.
	minLen, maxLen int
}

// NewGoSuggestFilter prepares the filter for lost (origins[i] is
// lost[i]'s pinned body's tokens, possibly none).
func NewGoSuggestFilter(lost []Anchor, origins [][]string) *GoSuggestFilter {
	f := &GoSuggestFilter{idents: map[string]int{}, minLen: 1 << 30}
	for i, a := range lost {
		m := newGoMay(a, origins[i])
		f.may = append(f.may, m)
		f.minLen = min(f.minLen, max(m.close.baseRunes-m.close.maxDist, 1))
		f.maxLen = max(f.maxLen, m.close.baseRunes+m.close.maxDist)
		slots := make([]int, len(m.toks))
		for k, t := range m.toks {
			slots[k] = -1
			if !t.ident {
				continue
			}
			slot, ok := f.idents[string(t.text)]
			if !ok {
				slot = len(f.idents)
				f.idents[string(t.text)] = slot
				f.first[t.text[0]] |= 1 << (len(t.text) & 63)
			}
			slots[k] = slot
		}
		f.slots = append(f.slots, slots)
	}
	return f
}

// GoFileFilter is a GoSuggestFilter read over one file.
type GoFileFilter struct {
	f     *GoSuggestFilter
	src   []byte
	close [][]int // per anchor: the starts of the words close to its name, in order
	at    [][]int // per identifier slot: where it occurs as a word, in order
}

// File reads, for every lost anchor of f, the words of src inside ranges
// (its declarations, in order: May is asked of these only).
func (f *GoSuggestFilter) File(src []byte, ranges [][2]int) *GoFileFilter {
	ff := &GoFileFilter{f: f, src: src, close: make([][]int, len(f.may)), at: make([][]int, len(f.idents))}
	for _, r := range ranges {
		ff.read(r[0], r[1])
	}
	return ff
}

// read reads the words of src[start:end] (no word crosses its bounds):
// the runs of word bytes closeName.in reads, and in them the identifiers
// countWord counts — a run of letters, digits and `_` read from its start
// or from right after a digit to its end (an ASCII run is one; a byte
// outside ASCII ends one).
func (ff *GoFileFilter) read(start, end int) {
	f, src := ff.f, ff.src[:end] // indexed below len(src): no bounds checks
	for i := start; i < len(src); {
		class := byteClass[src[i]]
		if class == 0 {
			i++
			continue
		}
		j := i + 1
		for ; j < len(src); j++ {
			k := byteClass[src[j]]
			if k == 0 {
				break
			}
			class |= k
		}
		word, ascii := src[i:j], class&classNonASCII == 0
		if n := j - i; !ascii || word[0] >= '0' && word[0] <= '9' || n >= f.minLen && n <= f.maxLen {
			for a, m := range f.may {
				if m.close.word(word, ascii) {
					ff.close[a] = append(ff.close[a], i)
				}
			}
		}
		if len(f.idents) > 0 {
			if class&(classDigit|classNonASCII) == 0 {
				ff.ident(i, j) // the common case: one identifier, or a keyword
			} else {
				pieceEnd := i
				for k := i; k < j; k++ {
					if k >= pieceEnd {
						for pieceEnd = k; pieceEnd < j && src[pieceEnd] < 0x80; pieceEnd++ {
						}
					}
					if src[k] < 0x80 && (k == i || isDigitByte(src[k-1]) || src[k-1] >= 0x80) {
						ff.ident(k, pieceEnd)
					}
				}
			}
		}
		i = j
	}
}

// ident notes src[k:e] where it is an identifier of the origins.
func (ff *GoFileFilter) ident(k, e int) {
	c := ff.src[k]
	if !isIdentStart(c) || ff.f.first[c]&(1<<((e-k)&63)) == 0 {
		return
	}
	if slot, ok := ff.f.idents[string(ff.src[k:e])]; ok {
		ff.at[slot] = append(ff.at[slot], k)
	}
}

// byteClass: which of word byte, outside ASCII, digit a byte is (0: no
// word holds it).
const (
	classWord     = 1
	classNonASCII = 2
	classDigit    = 4
)

var byteClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c >= 0x80:
			t[c] = classWord | classNonASCII
		case c >= '0' && c <= '9':
			t[c] = classWord | classDigit
		case goWordByte(byte(c)):
			t[c] = classWord
		}
	}
	return t
}()

func identByte(c byte) bool   { return isIdentStart(c) || isDigitByte(c) }
func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// May is MaySuggestFromGo(a, origin)(src[start:end], groups) for some
// lost anchor of the filter, where [start, end) is one of the ranges File
// read (a top-level declaration: its bounds are not inside a word) and
// groups are the brace groups inside it, at src's offsets (not the
// declaration's).
func (ff *GoFileFilter) May(start, end int, groups []BraceGroup) bool {
	text := ff.src[start:end]
	name := goFuncNameAt(text)
	for a, m := range ff.f.may {
		if name >= 0 && hasAt(ff.close[a], start+name) || name < 0 && hasIn(ff.close[a], start, end) {
			return true
		}
		if m.n == 0 || goValueDeclAt(text) {
			continue
		}
		words := func(s, e int) func(k int) int {
			return func(k int) int {
				slot := ff.f.slots[a][k]
				return countIn(ff.at[slot], s, e-len(m.toks[k].text))
			}
		}
		if !m.holds(text, m.n, words(start, end)) {
			continue
		}
		if name >= 0 {
			if len(groups) > 0 {
				g := groups[len(groups)-1]
				rel := BraceGroup{Start: g.Start - start, End: g.End - start, Tokens: g.Tokens}
				if m.similarBody(text, rel, words(g.Start, g.End)) {
					return true
				}
			}
			continue
		}
		for _, g := range groups {
			if !m.groupFits(g) {
				continue
			}
			if m.holds(ff.src[g.Start:g.End], max(m.n, g.Tokens), words(g.Start, g.End)) {
				return true
			}
		}
	}
	return false
}

// hasIn reports whether sorted starts holds one in [s, e).
func hasIn(starts []int, s, e int) bool {
	i := sort.SearchInts(starts, s)
	return i < len(starts) && starts[i] < e
}

// hasAt reports whether sorted starts holds at.
func hasAt(starts []int, at int) bool {
	i := sort.SearchInts(starts, at)
	return i < len(starts) && starts[i] == at
}

// countIn counts the sorted starts in [s, last].
func countIn(starts []int, s, last int) int {
	i := sort.SearchInts(starts, s)
	j := sort.SearchInts(starts, last+1)
	return max(j-i, 0)
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

// word reports whether one word (a run of word bytes; ascii: all of them
// ASCII) is within maxDist edits of base.
func (c *closeName) word(word []byte, ascii bool) bool {
	if ascii && !(word[0] >= '0' && word[0] <= '9') {
		if d := len(word) - c.baseRunes; d > c.maxDist || -d > c.maxDist {
			return false
		}
		if c.fast {
			return c.bits.within(word, c.maxDist)
		}
		// A name over 64 runes (rare): a lowered copy and levenshtein.
		scratch := make([]byte, len(word))
		for k, b := range word {
			if b >= 'A' && b <= 'Z' {
				b += 'a' - 'A'
			}
			scratch[k] = b
		}
		return levenshtein(c.base, string(scratch), c.maxDist+1) <= c.maxDist
	}
	// A word starting with a digit, or holding a byte outside ASCII: the
	// least distance to any of its substrings. None has more runes than
	// the word (its lower case has as many: one per rune, one per invalid
	// byte), so the distance is at least baseRunes minus those; most such
	// words are short numbers, ruled out here.
	if c.baseRunes-utf8.RuneCount(word) > c.maxDist {
		return false
	}
	if ascii && c.fast {
		return c.bits.substring(word) <= c.maxDist
	}
	return substringDistance(c.base, strings.ToLower(string(word))) <= c.maxDist
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
	score, _ := d.scan(word, 1)
	return score
}

// substring is substringDistance(a, the lower-cased ASCII word): the
// least distance from a to any substring of the word. It is distance's
// recurrence with row 0 all zeros (a substring may start anywhere: the
// horizontal deltas into row 1 are 0, not 1; Myers' search form), and
// the least score over every end (an empty substring: m).
func (d *bitDistance) substring(word []byte) int {
	_, best := d.scan(word, 0)
	return best
}

// scan runs Myers' bit-parallel recurrence over the lower-cased word;
// carry is the horizontal delta into row 1 at each column (1 for the
// distance to the whole word, 0 when a match may start anywhere). It
// returns the last column's score and the least score over all columns.
func (d *bitDistance) scan(word []byte, carry uint64) (score, best int) {
	top := uint64(1) << (d.m - 1)
	pv, mv := ^uint64(0), uint64(0)
	score = d.m
	best = score
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
		ph = ph<<1 | carry
		mh <<= 1
		pv = mh | ^(xv | ph)
		mv = ph & xv
		best = min(best, score)
	}
	return score, best
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
