package devcontext

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Semantic identity: several URIs can stand for the same bytes. Only whole
// files fold by path; a symbol, a passage or a claim shares its file's path
// without being the file.
var wholeFileRank = map[string]int{KindADR: 0, KindAgents: 0, KindReadme: 0, KindDoc: 1, KindFile: 2}

// folds runs the de-duplication and conflict stage (docs/context.md) over the
// candidates. A dropped candidate either gets an exclusion (superseded) or,
// when it is only another name for a kept one, nothing but a dedup record.
type folds struct {
	records   []Deduplicated
	conflicts []Conflict
	dropped   map[int]bool
	excluded  []Excluded
}

func (s *selection) fold() *folds {
	f := &folds{records: []Deduplicated{}, conflicts: []Conflict{}, dropped: map[int]bool{}}
	ids := s.candidateIDs()
	for _, id := range ids {
		s.structural(f, s.cands[id])
	}
	s.foldPaths(f, ids)
	s.foldVersions(f, ids)
	s.foldSupersedes(f, ids)
	return f
}

// candidateIDs are the candidates in URI order, the one iteration order.
func (s *selection) candidateIDs() []int {
	ids := make([]int, 0, len(s.cands))
	for id := range s.cands {
		ids = append(ids, id)
	}
	slices.Sort(ids) // ids follow URI order (index.go)
	return ids
}

func (s *selection) structural(f *folds, c *candidate) {
	if len(c.disc) < 2 {
		return
	}
	var labels []string
	for _, d := range c.disc {
		l := string(d.Selector)
		if d.Edge != "" {
			l += "(" + d.Edge + ")"
		}
		labels = append(labels, l)
	}
	slices.SortFunc(labels, naturalCompare)
	labels = slices.Compact(labels)
	f.records = append(f.records, Deduplicated{Kept: s.ix.ids[c.id], Dropped: []string{}, Key: "uri",
		Detail: fmt.Sprintf("one object reached by %d discovery path(s): %s", len(c.disc), strings.Join(labels, ", ")),
		Paths:  len(c.disc)})
}

// foldPaths keeps one whole-file URI per path: a seed, then the most
// specific kind (an ADR beats the doc it is, a doc beats a plain file), then
// relevance, then URI. The losers are other names, not exclusions.
func (s *selection) foldPaths(f *folds, ids []int) {
	groups := map[string][]int{}
	var paths []string
	for _, id := range ids {
		n := s.ix.nodes[id]
		if _, whole := wholeFileRank[n.Kind]; !whole || n.Path == "" {
			continue
		}
		if groups[n.Path] == nil {
			paths = append(paths, n.Path)
		}
		groups[n.Path] = append(groups[n.Path], id)
	}
	slices.Sort(paths)
	for _, p := range paths {
		g := groups[p]
		if len(g) < 2 {
			continue
		}
		keep := slices.MinFunc(g, func(a, b int) int {
			ca, cb := s.cands[a], s.cands[b]
			switch {
			case ca.seed != cb.seed:
				if ca.seed {
					return -1
				}
				return 1
			case wholeFileRank[ca.node.Kind] != wholeFileRank[cb.node.Kind]:
				return wholeFileRank[ca.node.Kind] - wholeFileRank[cb.node.Kind]
			case ca.rel != cb.rel:
				if ca.rel > cb.rel {
					return -1
				}
				return 1
			}
			return naturalCompare(s.ix.ids[a], s.ix.ids[b])
		})
		var dropped []string
		for _, id := range g {
			if id != keep && !s.cands[id].seed {
				f.dropped[id] = true
				dropped = append(dropped, s.ix.ids[id])
			}
		}
		if len(dropped) == 0 {
			continue
		}
		slices.SortFunc(dropped, naturalCompare)
		f.records = append(f.records, Deduplicated{Kept: s.ix.ids[keep], Dropped: dropped, Key: "path",
			Detail: fmt.Sprintf("%d identifiers stand for %s; kept the %s", len(dropped)+1, p, s.ix.nodes[keep].Kind),
			Paths:  1})
	}
}

// foldVersions keeps the highest @<n> revision of an identity; each older
// one is a version conflict and, unless named as a seed, superseded.
func (s *selection) foldVersions(f *folds, ids []int) {
	type rev struct {
		id, n int
	}
	groups := map[string][]rev{}
	var bases []string
	for _, id := range ids {
		if f.dropped[id] {
			continue
		}
		base, n, ok := versionOf(s.ix.ids[id])
		if !ok {
			continue
		}
		if groups[base] == nil {
			bases = append(bases, base)
		}
		groups[base] = append(groups[base], rev{id, n})
	}
	slices.Sort(bases)
	for _, b := range bases {
		// The bare identity is the record as it stands now: newer than any
		// numbered revision of it.
		if id, ok := s.ix.byURI[b]; ok && s.cands[id] != nil && !f.dropped[id] {
			groups[b] = append(groups[b], rev{id, math.MaxInt})
		}
		g := groups[b]
		if len(g) < 2 {
			continue
		}
		keep := slices.MaxFunc(g, func(x, y rev) int {
			if x.n != y.n {
				return x.n - y.n
			}
			return naturalCompare(s.ix.ids[y.id], s.ix.ids[x.id])
		})
		cur := s.ix.ids[keep.id]
		var dropped []string
		for _, r := range g {
			if r.id == keep.id {
				continue
			}
			old := s.ix.ids[r.id]
			detail := cur + " is a later revision of " + b + " than revision " + strconv.Itoa(r.n)
			f.conflicts = append(f.conflicts, Conflict{Current: cur, Against: old, Kind: "version", Detail: detail})
			if !s.cands[r.id].seed {
				f.dropped[r.id] = true
				dropped = append(dropped, old)
				f.excluded = append(f.excluded, s.exclusion(s.cands[r.id], ReasonSuperseded, detail))
			}
		}
		if len(dropped) == 0 {
			continue
		}
		slices.SortFunc(dropped, naturalCompare)
		f.records = append(f.records, Deduplicated{Kept: cur, Dropped: dropped, Key: "identity",
			Detail: fmt.Sprintf("%d revision(s) of %s; kept the latest", len(dropped)+1, b), Paths: 1})
	}
}

// foldSupersedes records a conflict for every supersedes edge between two
// candidates; the earlier one is excluded unless it was named as a seed (it
// was asked for, but the conflict still says a later one stands in for it).
func (s *selection) foldSupersedes(f *folds, ids []int) {
	// Only names folded away before this stage are skipped: a superseded
	// record still supersedes its own predecessor, whatever the URI order.
	gone := maps.Clone(f.dropped)
	for _, id := range ids {
		if gone[id] {
			continue
		}
		for _, a := range s.ix.arcs[id] {
			if !a.forward || a.rule().kind != EdgeSupersede {
				continue
			}
			old, ok := s.cands[a.other]
			if !ok || gone[a.other] {
				continue
			}
			cur, against := s.ix.ids[id], s.ix.ids[a.other]
			f.conflicts = append(f.conflicts, Conflict{Current: cur, Against: against, Kind: "supersedes",
				Detail: cur + " supersedes " + against})
			if !old.seed && !f.dropped[a.other] {
				f.dropped[a.other] = true
				f.excluded = append(f.excluded, s.exclusion(old, ReasonSuperseded, "the later "+cur+" stands in for it"))
			}
		}
	}
}

// exclusion is a candidate turned away, with what keeping it would cost.
func (s *selection) exclusion(c *candidate, r ExclusionReason, detail string) Excluded {
	return Excluded{URI: s.ix.ids[c.id], Kind: c.node.Kind, Tier: c.tier, Reason: r, Detail: detail,
		CostTokens: TokensFor(c.node.CostBytes()), Relevance: round3(c.rel)}
}
