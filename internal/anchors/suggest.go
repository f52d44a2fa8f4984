package anchors

import (
	"sort"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// MaxSuggestions bounds what a lost anchor offers (docs/anchors.md).
const MaxSuggestions = 3

// BodySimilarity is the token overlap from which a body counts as similar.
const BodySimilarity = 0.7

// suggest proposes up to three declarations for a lost anchor: names close
// by edit distance, or bodies whose tokens overlap the pinned body's by at
// least 0.7 (only when the pinned body is known from history). They are
// offered as quick fixes, never applied.
func suggest(a Anchor, ix *Index, origin []string) []Candidate {
	if ix == nil {
		return nil
	}
	var lists [][]Suggestion
	for _, p := range ix.Paths() {
		lists = append(lists, FileSuggestions(a, p, ix.Decls(p), origin))
	}
	return BestSuggestions(a, lists)
}

// Suggestion is one declaration of one file that a lost anchor could
// mean, with what ranks it.
type Suggestion struct {
	c    Candidate
	sim  float64
	dist int
}

// FileSuggestions are the best suggestions for a lost anchor among one
// file's declarations, at most MaxSuggestions, best first. Merging every
// file's with BestSuggestions, in path order, gives exactly what ranking
// all declarations at once gives, so a caller may keep each file's list
// while the file is unchanged.
func FileSuggestions(a Anchor, path string, decls []symbols.Decl, origin []string) []Suggestion {
	base := strings.ToLower(BaseName(a.QualifiedName))
	maxDist := len(base) / 3
	if maxDist < 2 {
		maxDist = 2
	}
	var all []Suggestion
	var counts, scratch map[string]int
	if len(origin) > 0 {
		counts, scratch = tokenCounts(origin), map[string]int{}
	}
	for i := range decls {
		d := &decls[i]
		if d.QualifiedName == a.QualifiedName && d.Kind == a.Kind && path == a.Path {
			continue
		}
		s := Suggestion{c: Ref{Path: path, Decl: d}.candidate(), dist: levenshtein(base, strings.ToLower(BaseName(d.QualifiedName)), maxDist+1)}
		if len(origin) > 0 && d.Body.Len() > 0 {
			s.sim = overlapAtLeast(counts, len(origin), d.Body, BodySimilarity, scratch)
		}
		if s.sim >= BodySimilarity || s.dist <= maxDist {
			all = append(all, s)
		}
	}
	return bestOf(a, all)
}

// Candidate is the declaration the suggestion offers.
func (s Suggestion) Candidate() Candidate { return s.c }

// BestSuggestions merges per-file lists (in path order) into the anchor's
// suggestions.
func BestSuggestions(a Anchor, lists [][]Suggestion) []Candidate {
	var all []Suggestion
	for _, l := range lists {
		all = append(all, l...)
	}
	var out []Candidate
	for _, s := range bestOf(a, all) {
		out = append(out, s.c)
	}
	return out
}

// bestOf sorts stably (similar bodies first, then the anchor's kind, then
// edit distance, path and line) and keeps MaxSuggestions.
func bestOf(a Anchor, all []Suggestion) []Suggestion {
	sort.SliceStable(all, func(i, j int) bool {
		x, y := all[i], all[j]
		if (x.sim >= BodySimilarity) != (y.sim >= BodySimilarity) {
			return x.sim >= BodySimilarity
		}
		if x.sim >= BodySimilarity && x.sim != y.sim {
			return x.sim > y.sim // raw similarity only ranks similar bodies
		}
		if (x.c.Kind == a.Kind) != (y.c.Kind == a.Kind) {
			return x.c.Kind == a.Kind
		}
		if x.dist != y.dist {
			return x.dist < y.dist
		}
		if x.c.Path != y.c.Path {
			return x.c.Path < y.c.Path
		}
		return x.c.LineStart < y.c.LineStart
	})
	if len(all) > MaxSuggestions {
		all = all[:MaxSuggestions]
	}
	return all
}

// overlap is the multiset intersection of two token lists over the larger
// list's length: 1 for identical bodies, near 0 for unrelated ones.
func overlap(a, b []string) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	counts := make(map[string]int, len(a))
	for _, t := range a {
		counts[t]++
	}
	common := 0
	for _, t := range b {
		if counts[t] > 0 {
			counts[t]--
			common++
		}
	}
	n := len(a)
	if len(b) > n {
		n = len(b)
	}
	return float64(common) / float64(n)
}

func tokenCounts(toks []string) map[string]int {
	m := make(map[string]int, len(toks))
	for _, t := range toks {
		m[t]++
	}
	return m
}

// overlapAtLeast is overlap(a, b) for a given as its token counts (n
// tokens), or 0 when it cannot reach min: the intersection is at most the
// shorter list, so unequal lengths rule most bodies out without counting.
// scratch is reused between calls.
func overlapAtLeast(counts map[string]int, n int, b symbols.TokenList, min float64, scratch map[string]int) float64 {
	if n == 0 || b.Len() == 0 {
		return 0
	}
	short, long := n, b.Len()
	if short > long {
		short, long = long, short
	}
	if float64(short)/float64(long) < min {
		return 0
	}
	clear(scratch)
	common := 0
	for i := range b.Len() {
		if t := b.At(i); scratch[t] < counts[t] {
			scratch[t]++
			common++
		}
	}
	return float64(common) / float64(long)
}

// levenshtein is the edit distance between a and b, capped at limit (the
// caller only cares whether it is small).
func levenshtein(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(rb)], limit)
}
