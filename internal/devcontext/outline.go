package devcontext

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The outline tier: what the spend left is filled with signature-only
// entries of related declarations that were not given in full — a
// declaration candidate that did not fit, and the declarations of a file
// candidate that did not fit whole. A signature line is cheap and says what
// exists and how it is called; the full text is one request away (its uri).

// relOutlineInFile scales a file candidate's relevance onto each of its
// declarations: one of them is less surely wanted than the file.
const relOutlineInFile = 0.9

const outlineMeans = "full entries are spent within (1 − reserve) of the limit; then the budget left is filled with signature lines (first fit, most relevant first; among equals, a file's declarations nearest a seed first in the seed's file, top to bottom elsewhere) of the declaration candidates that did not fit, at their relevance, and of the declarations of file candidates that did not fit whole, at the file's relevance × weight; never of a declaration shown in full or inside a file or declaration shown in full; then the full candidates that did not fit get what is left (an outlined declaration upgraded to full, a whole file replacing the outlines inside it); a declaration below full_floor, or reached only by outline-only edges, is given as its signature line only, never in full"

// outlineFact keys on an outline entry.
const (
	FactSignature  = "signature"   // the outline's text: the declaration's signature line
	FactFullTokens = "full_tokens" // what the declaration costs in full
)

// outlineOnly splits off the file and declaration candidates reached only
// by outline-only edges (sibling, imports, imported_by) or by co_changed
// below its outline_below, and the declarations below the full floor: they
// are not spent in full; outline offers a file's declarations, and a
// declaration's own signature. A file so reached that has no declarations
// with a signature (a changelog, a non-Markdown doc, a data file) is not
// given at all: its text whole is what the strength did not earn (bare).
func (s *selection) outlineOnly(live []*candidate) (spend, byOutline []*candidate) {
	for _, c := range live {
		decl := (c.node.Kind == KindSymbol || c.node.Kind == KindTest) && c.node.Outline != ""
		only := (c.node.Kind == KindFile || decl) && !c.seed && !c.required && len(c.disc) > 0
		for _, d := range c.disc {
			r := edgeByKind[d.Edge]
			weak := c.node.Kind == KindFile && r != nil && r.outlineBelow > 0 && r.forward > 0 && d.Weight/r.forward < r.outlineBelow-1e-9
			only = only && d.Selector == SelRelation && r != nil && (r.outline || weak)
		}
		faint := decl && !c.seed && !c.required && below(c.fullRel, fullFloor)
		c.sigOnly = only && decl || faint
		if only || faint {
			if c.node.Kind == KindFile && !s.ix.hasOutlinedDecl(c.node.Path) {
				s.bare[c.id] = true
			}
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
	var skels []*Node          // skeleton seeds: the signatures they name are shown
	for _, c := range sp.selected {
		given[c.id] = true
		switch c.node.Kind {
		case KindFile:
			whole[c.node.Path] = true
		case KindSymbol, KindTest:
			held = append(held, c.node)
		case KindSkeleton: // it shows the signatures inside it
			skels = append(skels, c.node)
		}
	}
	shown := func(n *Node) bool {
		if whole[n.Path] {
			return true
		}
		for _, k := range skels {
			if skeletonShows(k, n) {
				return true
			}
		}
		for _, h := range held {
			if h.Path == n.Path && h.Range != nil && n.Range != nil && inside(n.Range, h.Range) {
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
	// offerable says whether id may be offered at all; take offers it
	// (the better of two offers stays). An offer's reason is built only
	// for an offerable id.
	offerable := func(id int) bool {
		n := s.ix.nodes[id]
		return !(n == nil || n.Outline == "" || given[id] || dropped[id] || (n.Kind != KindSymbol && n.Kind != KindTest) || shown(n))
	}
	take := func(id int, o offer) {
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
			if !offerable(c.id) {
				continue
			}
			why := "its signature: the declaration in full (" + strconv.FormatUint(TokensFor(c.node.CostBytes()), 10) + " tokens) did not fit"
			if c.sigOnly {
				why = sigOnlyWhy(c)
			}
			take(c.id, offer{c.rel, c.depth, Discovery{Selector: SelOutline, Via: s.ix.ids[c.id],
				Reason: why, Depth: c.depth, Confidence: confDeclared, Weight: 1}})
		case c.node.Kind == KindFile && c.node.Path != "":
			files = append(files, c)
		}
	}
	for _, f := range files {
		why := "" // the file's, one for all its declarations
		for _, id := range s.ix.decls[f.node.Path] {
			if !offerable(id) {
				continue
			}
			if why == "" {
				why = "a declaration of " + f.node.Path + ", which did not fit whole (" + strconv.FormatUint(TokensFor(f.node.CostBytes()), 10) + " tokens)"
			}
			take(id, offer{f.rel * relOutlineInFile, f.depth, Discovery{Selector: SelOutline, Via: s.ix.ids[f.id],
				Reason: why, Depth: f.depth, Confidence: confDeclared, Weight: relOutlineInFile}})
		}
	}
	// The most relevant first, then by path (natural order), nearest a
	// seed, URI (natural order). Each offer's keys are computed once, and
	// paths compare by their rank among the offered paths: a comparison
	// reads no map and folds no path.
	type sortKey struct {
		id, path, near int
		rel            float64
	}
	keys := make([]sortKey, 0, len(offers))
	rank := map[string]int{}
	near := s.nearSeed()
	for id, o := range offers {
		n := s.ix.nodes[id]
		rank[n.Path] = 0
		keys = append(keys, sortKey{id: id, near: near(n), rel: round3(o.rel)})
	}
	paths := slices.SortedFunc(maps.Keys(rank), naturalCompare)
	for i, p := range paths {
		rank[p] = i
	}
	for i := range keys {
		keys[i].path = rank[s.ix.nodes[keys[i].id].Path]
	}
	slices.SortFunc(keys, func(a, b sortKey) int {
		// (cmp.Or would compute every argument, the natural compare of the
		// URIs included, for every comparison)
		if c := cmp.Or(cmp.Compare(b.rel, a.rel), cmp.Compare(a.path, b.path), cmp.Compare(a.near, b.near)); c != 0 {
			return c
		}
		return naturalCompare(s.ix.ids[a.id], s.ix.ids[b.id])
	})
	ids := make([]int, len(keys))
	for i, k := range keys {
		ids[i] = k.id
	}
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

// fullFloor: a declaration (symbol or test) reached below this relevance
// is given as its signature line only, never in full. Measured on the
// usefulness bench, the bodies below it are 3–7 % in files the change
// touches (callers of callees, users of a type, members of the seed's
// type two hops out): the signature says they exist and how they are
// called, and the tokens go to what is nearer. Seeds and required entries
// are always given in full.
const fullFloor = 0.5

// sigOnlyWhy says why a declaration is given as its signature only.
func sigOnlyWhy(c *candidate) string {
	switch {
	case below(c.rel, fullFloor):
		return "its signature: relevance " + strconv.FormatFloat(round3(c.rel), 'f', -1, 64) +
			" is below the outline selector's full_floor " + strconv.FormatFloat(fullFloor, 'f', -1, 64)
	case c.fullRel == 0:
		return "its signature: reached only by " + c.disc[0].Edge + ", an outline-only edge"
	}
	return "its signature: " + strconv.FormatFloat(round3(c.fullRel), 'f', -1, 64) + " by the ways that give a declaration in full, below the outline selector's full_floor " +
		strconv.FormatFloat(fullFloor, 'f', -1, 64) + " (" + strconv.FormatFloat(round3(c.rel), 'f', -1, 64) + " only by an outline-only edge)"
}

// outlineReserve is the share of the limit the first spend leaves for
// outlines: full entries are spent within limit × (1 − reserve), outlines
// from what that leaves, and the full candidates that did not fit then get
// what the outlines left (spendRest). Without a reserve, whole files and
// bodies take the budget and the related declarations are not named at all.
const outlineReserve = 0.25

// reserveFor is the tokens the first spend leaves for outlines.
func reserveFor(limit uint64) uint64 { return uint64(float64(limit) * outlineReserve) }

// spendRest offers the candidates the first spend excluded for budget
// again, in spend order, with what the outlines left: first fit. A file
// admitted whole takes the place of the outline entries and optional
// declarations inside it (they are dropped, the declarations recorded as
// contained), so nothing is paid twice. Exclusions that stay are described
// with the final figures.
func (s *selection) spendRest(sp spent, ol *outlined, limit uint64) spent {
	used := sp.used + ol.used
	var excl []Excluded
	for _, x := range sp.excluded {
		id, ok := s.ix.byURI[x.URI]
		c := s.cands[id]
		if x.Reason != ReasonBudget || !ok || c == nil {
			excl = append(excl, x)
			continue
		}
		cost := TokensFor(c.node.CostBytes())
		if ol.of[id] { // given as an outline: in full instead, if that fits now
			free := ol.cost(id)
			if used-free+cost > limit {
				excl = append(excl, x)
				continue
			}
			used = used - free + cost
			ol.dropID(id)
			sp.selected = append(sp.selected, c)
			continue
		}
		if c.node.Kind == KindFile && c.node.Path != "" {
			// What admitting it whole frees: the entries inside it.
			free := uint64(0)
			for _, o := range ol.selected {
				if o.node.Path == c.node.Path {
					free += TokensFor(o.node.CostBytes())
				}
			}
			for _, y := range sp.selected {
				if (y.node.Kind == KindSymbol || y.node.Kind == KindTest) && !y.required && y.node.Path == c.node.Path {
					free += TokensFor(y.node.CostBytes())
				}
			}
			if used-free+cost > limit {
				x.Detail = restDetail(cost, used, limit, ol.used)
				excl = append(excl, x)
				continue
			}
			used = used - free + cost
			ol.drop(c.node.Path)
			var kept, inside []*candidate
			for _, y := range sp.selected {
				if (y.node.Kind == KindSymbol || y.node.Kind == KindTest) && !y.required && y.node.Path == c.node.Path {
					inside = append(inside, y)
				} else {
					kept = append(kept, y)
				}
			}
			sp.selected = append(kept, c)
			if len(inside) > 0 {
				var ds []string
				for _, y := range inside {
					ds = append(ds, s.ix.ids[y.id])
				}
				slices.SortFunc(ds, naturalCompare)
				sp.contained = append(sp.contained, Deduplicated{Kept: s.ix.ids[c.id], Dropped: ds, Key: "contained",
					Detail: strconv.Itoa(len(ds)) + " declaration(s) inside " + c.node.Path + ", which is selected whole: not repeated", Paths: 1})
			}
			continue
		}
		if inWhole(sp.selected, c) || used+cost > limit {
			if !inWhole(sp.selected, c) {
				x.Detail = restDetail(cost, used, limit, ol.used)
				excl = append(excl, x)
			}
			continue
		}
		used += cost
		sp.selected = append(sp.selected, c)
	}
	sp.excluded = excl
	sp.used = used - ol.used
	return sp
}

// inWhole reports whether an optional declaration lies in a file selected
// whole.
func inWhole(sel []*candidate, c *candidate) bool {
	if c.required || (c.node.Kind != KindSymbol && c.node.Kind != KindTest) {
		return false
	}
	for _, y := range sel {
		if y.node.Kind == KindFile && y.node.Path == c.node.Path {
			return true
		}
	}
	return false
}

func restDetail(cost, used, limit, outlines uint64) string {
	return strconv.FormatUint(cost, 10) + " token(s) would not fit: " + strconv.FormatUint(used, 10) + " of " +
		strconv.FormatUint(limit, 10) + " spent or reserved (" + strconv.FormatUint(outlines, 10) + " on outline entries), " +
		strconv.FormatUint(limit-min(limit, used), 10) + " left"
}

// drop removes the outline entries of a file now selected whole.
func (o *outlined) drop(p string) {
	var kept []*candidate
	for _, c := range o.selected {
		if c.node.Path == p {
			o.used -= TokensFor(c.node.CostBytes())
			delete(o.of, c.id)
			continue
		}
		kept = append(kept, c)
	}
	o.selected = kept
}

// cost is what the outline entry of id costs (0 when it has none).
func (o *outlined) cost(id int) uint64 {
	for _, c := range o.selected {
		if c.id == id {
			return TokensFor(c.node.CostBytes())
		}
	}
	return 0
}

// dropID removes the outline entry of id (now given in full).
func (o *outlined) dropID(id int) {
	var kept []*candidate
	for _, c := range o.selected {
		if c.id == id {
			o.used -= TokensFor(c.node.CostBytes())
			delete(o.of, id)
			continue
		}
		kept = append(kept, c)
	}
	o.selected = kept
}

// nearSeed orders the declarations of one file for the outline pass: in
// the file of an object seed, by their distance in lines from the nearest
// seed (what is next to the change is read first); elsewhere top to bottom.
func (s *selection) nearSeed() func(*Node) int {
	at := map[string][]int{}
	for _, id := range s.objSeeds {
		if n := s.ix.nodes[id]; n != nil && n.Range != nil {
			at[n.Path] = append(at[n.Path], n.Range.StartLine)
		}
	}
	return func(n *Node) int {
		if n.Range == nil {
			return math.MaxInt
		}
		lines, ok := at[n.Path]
		if !ok {
			return n.Range.StartLine
		}
		d := math.MaxInt
		for _, l := range lines {
			d = min(d, abs(n.Range.StartLine-l))
		}
		return d
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// signaturesNotGiven accounts for the signature-only declarations that got
// no outline entry: one inside a file or declaration shown in full is
// deduplicated as contained (its text is there; merged into that entry's
// contained record); the others are excluded as outlined (their line did
// not fit). It returns the contained records.
func (s *selection) signaturesNotGiven(byOutline []*candidate, sp spent, ol *outlined, excluded *[]Excluded) []Deduplicated {
	contained := map[string][]string{} // kept uri → contained uris
	path := map[string]string{}        // kept uri → its path
	kind := map[string]string{}        // kept uri → its entry's kind
	for _, c := range byOutline {
		if !c.sigOnly || ol.of[c.id] {
			continue
		}
		kept := ""
		for _, y := range sp.selected {
			n := y.node
			switch {
			case n.Path != c.node.Path:
			case n.Kind == KindFile:
				kept = s.ix.ids[y.id]
			case n.Kind == KindSkeleton && skeletonShows(n, c.node):
				kept = s.ix.ids[y.id]
			case (n.Kind == KindSymbol || n.Kind == KindTest) && n.Range != nil && c.node.Range != nil && inside(c.node.Range, n.Range):
				kept = s.ix.ids[y.id]
			}
			if kept != "" {
				path[kept], kind[kept] = n.Path, n.Kind
				break
			}
		}
		if kept != "" {
			contained[kept] = append(contained[kept], s.ix.ids[c.id])
			continue
		}
		*excluded = append(*excluded, s.exclusion(c, ReasonOutlined,
			strings.TrimPrefix(sigOnlyWhy(c), "its signature: ")+": given as its signature line only, when the budget leaves room for it; it did not"))
	}
	out := sp.contained
	for i, d := range out {
		if more, ok := contained[d.Kept]; ok {
			ds := slices.Concat(d.Dropped, more)
			slices.SortFunc(ds, naturalCompare)
			out[i].Dropped = ds
			out[i].Detail = strconv.Itoa(len(ds)) + " declaration(s) inside " + path[d.Kept] + ", which is selected whole: not repeated"
			delete(contained, d.Kept)
		}
	}
	for _, kept := range sortedKeys(contained) {
		ds := contained[kept]
		slices.SortFunc(ds, naturalCompare)
		what := "whole"
		switch {
		case kind[kept] == KindSkeleton:
			what = "as its skeleton (their signature lines)"
		case !strings.HasPrefix(kept, FileURI("")):
			what = "in full"
		}
		out = append(out, Deduplicated{Kept: kept, Dropped: ds, Key: "contained",
			Detail: strconv.Itoa(len(ds)) + " declaration(s) inside " + path[kept] + ", which is selected " + what + ": not repeated", Paths: 1})
	}
	return out
}
