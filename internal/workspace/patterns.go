package workspace

import (
	"bytes"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// patternSet answers, in one pass over a file, the byte-string tests the
// repository-wide prefilter makes of it for all its needs at once: each
// need's name (as a whole word, in its shape: declaresNameAs) and the
// rare tokens of its pinned body (anywhere: bytes.Contains). One
// bytes.Index per test and need read each of GOROOT's 7,700 Go files
// twenty times for ten open anchors, each stopping at every occurrence of
// the pattern's first byte. Here each pattern is found by its rarest
// byte in source text (byteRank): one bytes.IndexByte scan per such byte
// serves every pattern that byte was chosen for, and each occurrence is
// compared with them whole, so a test answers as its own scan would.
// Patterns shorter than minPattern bytes are left to their own scans.
type patternSet struct {
	pats   []pattern
	groups []patternGroup
	// base[i] and rare[i] are need i's patterns: base -1 when the name is
	// not in the set, rare nil when a token is not (then the need tests
	// them itself).
	base []int
	rare [][]int
}

// patternGroup is the patterns found by one byte, and where it is in each.
type patternGroup struct {
	c   byte
	pat []int
	at  []int
}

// minPattern is the shortest pattern the set holds.
const minPattern = 4

// byteRank orders bytes by how rarely they occur in source code, rarest
// first (a guess: it decides speed, never an answer); bytes not listed
// rank after these.
const byteRank = "QZJXKVqzjYWU9876543210xHGOBFkIMvDLNPEAwyCRSTg_bhfmpvdulcsonrieat"

func rankOf(c byte) int {
	for i := 0; i < len(byteRank); i++ {
		if byteRank[i] == c {
			return i
		}
	}
	if c >= 0x80 || c < 'A' && c > ' ' {
		return -1 // punctuation and non-ASCII bytes: rarer than letters in a name
	}
	return len(byteRank)
}

type pattern struct {
	b     []byte
	word  bool      // a name: a whole word in shape
	shape nameShape // for a name
}

// newPatternSet is the set of needs' tests for a file in lang (a name's
// shape depends on the language).
func newPatternSet(needs []need, lang symbols.Language) *patternSet {
	ps := &patternSet{base: make([]int, len(needs)), rare: make([][]int, len(needs))}
	add := func(b []byte, word bool, shape nameShape) int {
		for j, p := range ps.pats {
			if bytes.Equal(p.b, b) && p.word == word && p.shape == shape {
				return j
			}
		}
		ps.pats = append(ps.pats, pattern{b: b, word: word, shape: shape})
		return len(ps.pats) - 1
	}
	for i, n := range needs {
		ps.base[i] = -1
		if len(n.base) >= minPattern {
			ps.base[i] = add(n.base, true, n.shapeIn(lang))
		}
		short := false
		for _, t := range n.rare {
			short = short || len(t) < minPattern
		}
		if short {
			continue
		}
		for _, t := range n.rare {
			ps.rare[i] = append(ps.rare[i], add(t, false, anyWord))
		}
	}
	byByte := map[byte]int{}
	for j, p := range ps.pats {
		q := 0
		for k := 1; k < len(p.b); k++ {
			if rankOf(p.b[k]) < rankOf(p.b[q]) {
				q = k
			}
		}
		g, ok := byByte[p.b[q]]
		if !ok {
			g = len(ps.groups)
			byByte[p.b[q]] = g
			ps.groups = append(ps.groups, patternGroup{c: p.b[q]})
		}
		ps.groups[g].pat = append(ps.groups[g].pat, j)
		ps.groups[g].at = append(ps.groups[g].at, q)
	}
	return ps
}

// find reports which patterns occur in text (hit[j] for pattern j).
func (ps *patternSet) find(text []byte) []bool {
	hit := make([]bool, len(ps.pats))
	for gi := range ps.groups {
		g := &ps.groups[gi]
		left := len(g.pat)
		for i := 0; left > 0; {
			k := bytes.IndexByte(text[i:], g.c)
			if k < 0 {
				break
			}
			pos := i + k
			i = pos + 1
			for x, j := range g.pat {
				s := pos - g.at[x]
				p := &ps.pats[j]
				if hit[j] || s < 0 || !bytes.HasPrefix(text[s:], p.b) {
					continue
				}
				if p.word && !nameAt(text, s, s+len(p.b), p.shape) {
					continue
				}
				hit[j] = true
				left--
			}
		}
	}
	return hit
}

// nameAt reports whether the occurrence of a name at [i, end) of content
// is a whole word in shape (declaresNameAs's test of one occurrence).
func nameAt(content []byte, i, end int, shape nameShape) bool {
	if i > 0 && isWordByte(content[i-1]) || end < len(content) && isWordByte(content[end]) {
		return false
	}
	return shape == anyWord || goFuncShape(content, i, end) || shape == goMethod && goIfaceMethodShape(content, i, end)
}

// needPatterns are a pass's pattern sets: a name's shape is Go's in a Go
// file, a plain word elsewhere.
type needPatterns struct {
	goSet, other *patternSet
}

func newNeedPatterns(needs []need) *needPatterns {
	return &needPatterns{goSet: newPatternSet(needs, symbols.Go), other: newPatternSet(needs, "")}
}

func (np *needPatterns) forLang(lang symbols.Language) *patternSet {
	if lang == symbols.Go {
		return np.goSet
	}
	return np.other
}
