package devcontext

import (
	"slices"
	"strings"
)

// candidate is one URI some selector offered. Offering a URI twice merges:
// relevance max, depth min, tier the strongest, discoveries de-duplicated.
type candidate struct {
	id       int
	node     *Node
	tier     Tier
	rel      float64 // raw best relevance; rounded only on the way out
	depth    int
	disc     []Discovery
	seed     bool
	required bool
	sigOnly  bool // a declaration reached only by outline-only edges: its outline or nothing
	// fullRel is the best relevance over the ways that may give it in full:
	// every way but an outline-only edge (whose reach is its signature).
	fullRel float64
}

// cut is a neighbour the walk or the intent match reached and did not admit:
// one step past the floor or past max_depth. Recorded so explain and the
// answer can say why, instead of "not reached".
type cut struct {
	reason ExclusionReason
	rel    float64
	via    string
	edge   string
	why    string // for an intent cut: what the words matched
}

// selection is the state of one compile between the request and the spend.
type selection struct {
	ix        *index
	set       settings
	req       Request
	cands     map[int]*candidate
	cuts      map[int]cut
	ghosts    map[int]cut // dangling references the walk reached
	seeds     []Seed
	objSeeds  []int    // distinct object seeds, in request order
	pathSeeds []string // the cursor's file and requested paths
	required  map[int]bool
	diags     []Diagnostic
	outlined  map[int]bool // given as an outline entry (outline.go)
	bare      map[int]bool // files given as outlines that have none (outline.go)
}

func newSelection(ix *index, set settings, req Request) *selection {
	return &selection{ix: ix, set: set, req: req, cands: map[int]*candidate{}, cuts: map[int]cut{},
		ghosts: map[int]cut{}, required: map[int]bool{}, bare: map[int]bool{}}
}

func (s *selection) offer(id int, tier Tier, rel float64, d Discovery) {
	c := s.cands[id]
	if r := edgeByKind[d.Edge]; d.Selector != SelRelation || r == nil || !r.outline {
		defer func() { c.fullRel = max(c.fullRel, rel) }()
	}
	if c == nil {
		c = &candidate{id: id, node: s.ix.nodes[id], tier: tier, rel: rel, depth: d.Depth}
		s.cands[id] = c
	} else {
		c.rel = max(c.rel, rel)
		c.depth = min(c.depth, d.Depth)
		if tierPos(tier) < tierPos(c.tier) {
			c.tier = tier
		}
	}
	for i, e := range c.disc {
		if e.Selector == d.Selector && e.Edge == d.Edge && e.Reason == d.Reason {
			if betterPath(d, e) {
				c.disc[i] = d
			}
			return
		}
	}
	c.disc = append(c.disc, d)
}

// betterPath decides between two discoveries with one (selector, edge,
// reason): the shallower, then the heavier, then the smaller via, so the
// result does not depend on the order things were offered in.
func betterPath(d, e Discovery) bool {
	if d.Depth != e.Depth {
		return d.Depth < e.Depth
	}
	if d.Weight != e.Weight {
		return d.Weight > e.Weight
	}
	if d.Confidence != e.Confidence {
		return d.Confidence > e.Confidence
	}
	return naturalCompare(d.Via, e.Via) < 0
}

func (s *selection) recordCut(id int, c cut) {
	old, ok := s.cuts[id]
	switch {
	case !ok:
	case old.reason != c.reason: // a depth cut (≥ floor) says more than a relevance cut
		if old.reason == ReasonDepth {
			return
		}
	case c.rel < old.rel || (c.rel == old.rel && naturalCompare(c.via+" "+c.edge+" "+c.why, old.via+" "+old.edge+" "+old.why) >= 0):
		return
	}
	s.cuts[id] = c
}

// below says r is under the floor, with slack for products like 0.5 × 0.5
// that must land exactly on it.
func below(r, floor float64) bool { return r+1e-12 < floor }

// walk follows the edge table breadth-first from the object seeds. It is a
// bounded relaxation: every node gets the best product of weights over paths
// of at most max_depth hops whose relevance stays at or above the floor, and
// the result is independent of the order of nodes and edges.
func (s *selection) walk() {
	best := map[int]float64{}
	type hop struct {
		id  int
		rel float64
	}
	var frontier []hop
	for _, id := range s.objSeeds {
		best[id] = relSeed
		frontier = append(frontier, hop{id, relSeed})
	}
	for depth := 0; len(frontier) > 0; depth++ {
		next := map[int]float64{}
		for _, h := range frontier {
			from := s.ix.ids[h.id]
			for _, a := range s.ix.arcs[h.id] {
				w := a.weight()
				if w == 0 {
					continue
				}
				r := h.rel * w
				c := cut{rel: r, via: from, edge: a.rule().kind}
				switch {
				case below(r, s.set.floor):
					c.reason = ReasonRelevance
					s.recordCut(a.other, c)
					continue
				case depth >= s.set.maxDepth:
					c.reason = ReasonDepth
					s.recordCut(a.other, c)
					continue
				}
				if s.ix.nodes[a.other] == nil {
					s.reachGhost(a.other, c, h.id)
					continue
				}
				if best[a.other] == relSeed && s.cands[a.other] != nil && s.cands[a.other].seed {
					continue // a way back to a seed adds nothing to it
				}
				tier := TierForKind(s.ix.nodes[a.other].Kind)
				if a.rule().tier != "" && a.forward {
					tier = a.rule().tier
				}
				s.offer(a.other, tier, r, Discovery{
					Selector: SelRelation, Reason: a.why(), Via: from, Edge: a.rule().kind,
					Depth: depth + 1, Confidence: confDeclared, Weight: w,
				})
				if a.rule().leaf && a.forward {
					continue // offered, not walked from
				}
				if r > best[a.other] {
					best[a.other] = r
					next[a.other] = max(next[a.other], r)
				}
			}
		}
		frontier = frontier[:0]
		for id, r := range next {
			frontier = append(frontier, hop{id, r})
		}
		slices.SortFunc(frontier, func(x, y hop) int { return x.id - y.id })
	}
}

// reachGhost records a dangling reference the walk reached: excluded as
// unresolved, and a warning on the node that names it.
func (s *selection) reachGhost(id int, c cut, from int) {
	c.reason = ReasonUnresolved
	if old, ok := s.ghosts[id]; !ok || c.rel > old.rel {
		s.ghosts[id] = c
	}
	path := ""
	if n := s.ix.nodes[from]; n != nil {
		path = n.Path
	}
	s.diags = append(s.diags, Diagnostic{Severity: SeverityWarning, Code: CodeUnresolvedReference, Path: path,
		Message: c.via + " refers by " + c.edge + " to " + s.ix.ids[id] + ", which resolves to nothing"})
}

// filesInScope are the file nodes under each path seed, with that seed.
func (s *selection) filesInScope() (ids []int, seedOf map[int]string) {
	seedOf = map[int]string{}
	for _, id := range s.ix.ofKind(KindFile) {
		p := s.ix.nodes[id].Path
		for _, ps := range s.pathSeeds {
			if under(p, ps) {
				if _, ok := seedOf[id]; !ok {
					ids = append(ids, id)
					seedOf[id] = ps
				}
			}
		}
	}
	return ids, seedOf
}

// scopePath offers the files under the path seeds and, Go's convention, the
// _test.go file beside a named .go file (not the whole package).
func (s *selection) scopePath(files []int, seedOf map[int]string) {
	for _, id := range files {
		ps := seedOf[id]
		why := "a file under the declared path"
		if s.ix.nodes[id].Path == ps {
			why = "the file at the declared path"
		}
		s.offer(id, TierSource, relScopePath, fixed(SelScopePath, why, ps))
	}
	for _, ps := range s.pathSeeds {
		base, ok := strings.CutSuffix(ps, ".go")
		if !ok || strings.HasSuffix(base, "_test") {
			continue
		}
		if id, ok := s.ix.byURI[FileURI(base+"_test.go")]; ok && s.ix.nodes[id] != nil {
			s.offer(id, TierSource, relScopePath, fixed(SelScopePath, "the test file beside the declared path", ps))
		}
	}
}

// contract offers the claims with a leg over a file in scope (required when
// the leg gates) and the nested AGENTS.md whose directory holds a path seed.
func (s *selection) contract(files []int, seedOf map[int]string) {
	for _, fid := range files {
		ps := seedOf[fid]
		fp := s.ix.nodes[fid].Path
		for _, a := range s.ix.arcs[fid] {
			if a.forward || a.rule().kind != EdgeCovers {
				continue
			}
			cn := s.ix.nodes[a.other]
			if cn == nil || cn.Kind != KindClaim {
				continue
			}
			leg := "a leg"
			if a.gating {
				leg = "a gating leg"
				s.required[a.other] = true
			}
			where := fp
			if fp != ps {
				where = "a file under " + ps
			}
			s.offer(a.other, TierGovernance, relContract, fixed(SelContract, leg+" of it covers "+where, ps))
		}
	}
	for _, id := range s.ix.ofKind(KindAgents) {
		dir := dirOf(s.ix.nodes[id].Path)
		if dir == "." {
			continue // the root one is governance
		}
		for _, ps := range s.pathSeeds {
			switch {
			case under(ps, dir):
				s.offer(id, TierGovernance, relContract, fixed(SelContract, "its directory "+dir+" holds the declared path", ps))
			case under(dir, ps): // a declared directory holds this AGENTS.md's subtree
				s.offer(id, TierGovernance, relContract, fixed(SelContract, "it governs "+dir+" inside the declared path", ps))
			}
		}
	}
}

// requirePins marks claims whose gating leg pins an object seed.
func (s *selection) requirePins() {
	for _, id := range s.objSeeds {
		for _, a := range s.ix.arcs[id] {
			if !a.forward && a.rule().kind == EdgePins && a.gating {
				s.required[a.other] = true
			}
		}
	}
}

// governance offers what applies to everything: the root AGENTS.md
// (required, the policy analogue) and, when asked, every gating claim.
func (s *selection) governance() {
	for _, id := range s.ix.ofKind(KindAgents) {
		if dirOf(s.ix.nodes[id].Path) == "." {
			s.required[id] = true
			s.offer(id, TierGovernance, relRootAgents, Discovery{Selector: SelGovernance,
				Reason: "the root AGENTS.md applies to everything", Depth: 0, Confidence: confDeclared, Weight: relRootAgents})
		}
	}
	if !s.req.AllBlockingClaims {
		return
	}
	for _, id := range s.ix.ofKind(KindClaim) {
		if s.ix.nodes[id].Gating {
			s.offer(id, TierGovernance, relBlockingClaim, Discovery{Selector: SelGovernance,
				Reason: "a claim with a gating leg (all_blocking_claims)", Depth: 0, Confidence: confDeclared, Weight: relBlockingClaim})
		}
	}
}

// sessionState offers the uncommitted changes of files in scope; a change
// inside the declaration at the cursor is worth more than one elsewhere.
func (s *selection) sessionState() {
	for _, id := range s.ix.ofKind(KindLocal) {
		n := s.ix.nodes[id]
		for _, ps := range s.pathSeeds {
			if !under(n.Path, ps) {
				continue
			}
			rel, why := relLocalInFile, "an uncommitted change to a file in scope"
			if name := s.seedTouched(n); name != "" {
				rel, why = relLocalInSymbol, "an uncommitted change inside "+name
			}
			s.offer(id, TierKnowledge, rel, Discovery{Selector: SelSessionState, Reason: why, Via: ps,
				Depth: depthFixedSelector, Confidence: confDeclared, Weight: rel})
		}
	}
}

// seedTouched names the first object seed in the same file whose range a
// hunk of n intersects.
func (s *selection) seedTouched(n *Node) string {
	for _, id := range s.objSeeds {
		sn := s.ix.nodes[id]
		if sn.Range == nil || sn.Path != n.Path {
			continue
		}
		for _, h := range n.Hunks {
			if h.StartLine <= sn.Range.EndLine && sn.Range.StartLine <= h.EndLine {
				if sn.Name != "" {
					return sn.Name
				}
				return sn.URI
			}
		}
	}
	return ""
}

func fixed(sel Selector, why, via string) Discovery {
	w := relScopePath
	if sel == SelContract {
		w = relContract
	}
	return Discovery{Selector: sel, Reason: why, Via: via, Depth: depthFixedSelector, Confidence: confDeclared, Weight: w}
}
