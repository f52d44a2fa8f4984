package devcontext

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
)

// The outline tier: what the spend left is filled with signature-only
// entries of related declarations that were not given in full — a
// declaration candidate that did not fit, and the declarations of a file
// candidate that did not fit whole. A signature line is cheap and says what
// exists and how it is called; the full text is one request away (its uri).

// relOutlineInFile scales a file candidate's relevance onto each of its
// declarations: one of them is less surely wanted than the file.
const relOutlineInFile = 0.9

const outlineMeans = "after the spend, the budget left is filled with signature lines (first fit, most relevant first) of the declaration candidates that did not fit, at their relevance, and of the declarations of file candidates that did not fit whole, at the file's relevance × weight; never of a declaration shown in full or inside a file or declaration shown in full"

// outlineFact keys on an outline entry.
const (
	FactSignature  = "signature"   // the outline's text: the declaration's signature line
	FactFullTokens = "full_tokens" // what the declaration costs in full
)

// outlineOnly splits off the file candidates reached only by outline-only
// edges (sibling): they are not spent whole; outline offers their
// declarations.
func (s *selection) outlineOnly(live []*candidate) (spend, byOutline []*candidate) {
	for _, c := range live {
		only := c.node.Kind == KindFile && !c.seed && !c.required && len(c.disc) > 0
		for _, d := range c.disc {
			r := edgeByKind[d.Edge]
			only = only && d.Selector == SelRelation && r != nil && r.outline
		}
		if only {
			byOutline = append(byOutline, c)
		} else {
			spend = append(spend, c)
		}
	}
	return spend, byOutline
}

// outlined is the outline pass's result.
type outlined struct {
	selected []*candidate // synthetic outline candidates, spend order
	used     uint64
	of       map[int]bool // ids given as an outline
}

// outline spends limit − used on outline candidates, first fit, most
// relevant first. Nothing is reserved and nothing is listed as excluded for
// budget here: an outline that does not fit leaves its declaration's own
// exclusion standing.
func (s *selection) outline(sp spent, live []*candidate, dropped map[int]bool, limit uint64) outlined {
	out := outlined{of: map[int]bool{}}
	if sp.used >= limit {
		return out
	}
	given := map[int]bool{}    // selected in full
	whole := map[string]bool{} // paths selected whole
	var held []*Node           // declarations selected in full: their insides are shown
	for _, c := range sp.selected {
		given[c.id] = true
		switch c.node.Kind {
		case KindFile:
			whole[c.node.Path] = true
		case KindSymbol, KindTest:
			held = append(held, c.node)
		}
	}
	shown := func(n *Node) bool {
		if whole[n.Path] {
			return true
		}
		for _, h := range held {
			if h.Path == n.Path && h.Range != nil && n.Range != nil &&
				h.Range.StartLine <= n.Range.StartLine && n.Range.EndLine <= h.Range.EndLine {
				return true
			}
		}
		return false
	}
	type offer struct {
		rel   float64
		depth int
		disc  Discovery
	}
	offers := map[int]offer{}
	take := func(id int, o offer) {
		n := s.ix.nodes[id]
		if n == nil || n.Outline == "" || given[id] || dropped[id] || (n.Kind != KindSymbol && n.Kind != KindTest) || shown(n) {
			return
		}
		if old, ok := offers[id]; ok && (old.rel > o.rel || old.rel == o.rel && naturalCompare(old.disc.Via, o.disc.Via) <= 0) {
			return
		}
		offers[id] = o
	}
	var files []*candidate
	for _, c := range live {
		switch {
		case given[c.id]:
		case c.node.Kind == KindSymbol || c.node.Kind == KindTest:
			take(c.id, offer{c.rel, c.depth, Discovery{Selector: SelOutline, Via: s.ix.ids[c.id],
				Reason: "its signature: the declaration in full (" + strconv.FormatUint(TokensFor(c.node.CostBytes()), 10) + " tokens) did not fit",
				Depth:  c.depth, Confidence: confDeclared, Weight: 1}})
		case c.node.Kind == KindFile && c.node.Path != "":
			files = append(files, c)
		}
	}
	if len(files) > 0 {
		byPath := map[string][]int{}
		for _, k := range []string{KindSymbol, KindTest} {
			for _, id := range s.ix.ofKind(k) {
				byPath[s.ix.nodes[id].Path] = append(byPath[s.ix.nodes[id].Path], id)
			}
		}
		for _, f := range files {
			for _, id := range byPath[f.node.Path] {
				take(id, offer{f.rel * relOutlineInFile, f.depth, Discovery{Selector: SelOutline, Via: s.ix.ids[f.id],
					Reason: "a declaration of " + f.node.Path + ", which did not fit whole (" + strconv.FormatUint(TokensFor(f.node.CostBytes()), 10) + " tokens)",
					Depth:  f.depth, Confidence: confDeclared, Weight: relOutlineInFile}})
			}
		}
	}
	ids := slices.Collect(maps.Keys(offers))
	slices.SortFunc(ids, func(a, b int) int {
		return cmp.Or(cmp.Compare(round3(offers[b].rel), round3(offers[a].rel)), naturalCompare(s.ix.ids[a], s.ix.ids[b]))
	})
	left := limit - sp.used
	for _, id := range ids {
		n := s.ix.nodes[id]
		cost := TokensFor(len(n.Outline))
		if cost > left {
			continue
		}
		left -= cost
		o := offers[id]
		facts := maps.Clone(n.Facts)
		if facts == nil {
			facts = map[string]string{}
		}
		facts[FactSignature] = n.Outline
		facts[FactFullTokens] = strconv.FormatUint(TokensFor(n.CostBytes()), 10)
		on := &Node{URI: n.URI, Kind: KindOutline, Title: n.Title, Name: n.Name, Path: n.Path, Range: n.Range,
			Text: n.Outline, Facts: facts}
		out.selected = append(out.selected, &candidate{id: id, node: on, tier: TierOutline, rel: o.rel, depth: o.depth,
			disc: []Discovery{o.disc}})
		out.used += cost
		out.of[id] = true
	}
	return out
}
