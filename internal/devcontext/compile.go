package devcontext

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
)

// The answer lists the walk's cuts that are actionable: every depth cut (it
// was at or above the floor) and the relevance cuts that are near misses, at
// least NearMiss × floor. Farther cuts — the sibling passages of a doc, a
// caller four hops out — are noise in the list; Explain still describes
// them. Each reason lists at most MaxListedCuts, the most relevant first.
const (
	NearMiss      = 0.75
	MaxListedCuts = 50
)

// compiled is one compile with the internals Explain needs.
type compiled struct {
	ctx     CompiledContext
	cuts    map[string]Excluded // cut and ghost exclusions, listed or over the cap
	faint   map[string]Excluded // relevance cuts too far below the floor to list
	dropped map[string]Deduplicated
	ix      *index
	set     settings
}

// Prepared is a World indexed once. The workspace layer keeps one per
// snapshot and compiles many requests over it; it is read-only and safe
// for concurrent use. The world must not change after Prepare, nor may the
// nodes it shares (World.Shared) while the Prepared is in use.
type Prepared struct {
	w           *World
	ix          *index
	fingerprint string
	redacted    map[string]redaction // doc uri → its text without stale passages
}

// Prepare indexes a world: nodes by URI, followed edges as arcs both ways.
func Prepare(w World) *Prepared {
	var fp chan string
	if w.Fingerprint != "" {
		fp = make(chan string, 1)
		fp <- w.Fingerprint
	} else if len(w.Files) >= 1024 { // a large tree's fingerprint is hashed on the other core meanwhile
		fp = make(chan string, 1)
		go func() { fp <- Fingerprint(w.Files) }()
	}
	p := &Prepared{w: &w, ix: newIndex(&w)}
	if fp != nil {
		p.fingerprint = <-fp
	} else {
		p.fingerprint = Fingerprint(w.Files)
	}
	p.redacted = redactions(p.ix, partOfIndex(p.ix, w.Edges))
	for uri, r := range p.redacted {
		id := p.ix.byURI[uri]
		n := *p.ix.nodes[id] // a copy: the caller's world is not changed
		n.Text = r.text
		p.ix.nodes[id] = &n
	}
	return p
}

// Text is a node's text as the answer presents it: a doc's without the
// passages it excludes as stale or unresolved.
func (p *Prepared) Text(uri string) string {
	if id, ok := p.ix.byURI[uri]; ok && id < len(p.ix.nodes) && p.ix.nodes[id] != nil {
		return p.ix.nodes[id].Text
	}
	return ""
}

// Compile answers a request over a world: seeds, seven tiers, eight selectors,
// the edge walk, de-duplication and conflicts, first-fit spend, canonical
// order. The same request over the same world gives byte-identical JSON.
// Errors are only for the request: ErrInvalidRequest, ErrUnknownTarget.
func Compile(w World, req Request) (CompiledContext, error) { return Prepare(w).Compile(req) }

// Compile is Compile over the prepared world.
func (p *Prepared) Compile(req Request) (CompiledContext, error) {
	c, err := p.compile(req, false)
	if err != nil {
		return CompiledContext{}, err
	}
	return c.ctx, nil
}

// compile compiles req; explain says the caller is Explain, which also
// needs every cut's exclusion (compiled.cuts, compiled.faint): the answer
// lists only the best MaxListedCuts of each reason, so Compile describes
// only those.
func (p *Prepared) compile(req Request, explain bool) (*compiled, error) {
	set, err := req.settings()
	if err != nil {
		return nil, err
	}
	w, ix := p.w, p.ix
	s := newSelection(ix, set, req)
	if err := s.seed(); err != nil {
		return nil, err
	}
	s.walk()
	files, seedOf := s.filesInScope()
	s.scopePath(files, seedOf)
	s.contract(files, seedOf)
	s.requirePins()
	s.governance()
	s.sessionState()
	s.intentMatch()
	for id := range s.required {
		if c := s.cands[id]; c != nil {
			c.required = true
		}
	}

	f := s.fold()
	excluded := f.excluded
	var live []*candidate
	for _, id := range s.candidateIDs() {
		c := s.cands[id]
		if f.dropped[id] {
			continue
		}
		if r, detail := s.staleness(c); r != "" {
			excluded = append(excluded, s.exclusion(c, r, detail))
			continue
		}
		if !c.required && c.depth > set.maxDepth { // only fixed-depth selectors can get here
			excluded = append(excluded, s.exclusion(c, ReasonDepth,
				fmt.Sprintf("depth %d is past max_depth %d", c.depth, set.maxDepth)))
			continue
		}
		live = append(live, c)
	}
	s.skeletons(live)
	live, byOutline := s.outlineOnly(live)
	for _, c := range byOutline {
		if c.sigOnly {
			continue // excluded below only when its outline did not fit
		}
		if s.bare[c.id] {
			excluded = append(excluded, s.exclusion(c, ReasonOutlined,
				"reached only by "+c.disc[0].Edge+" (outline-only, or a co_changed strength below its outline_below), and it has no declarations to outline: not given"))
			continue
		}
		excluded = append(excluded, s.exclusion(c, ReasonOutlined,
			"reached only by "+c.disc[0].Edge+" (outline-only, or a co_changed strength below its outline_below): given as outline entries of its declarations (as many as the budget leaves room for), not whole"))
	}
	sp := s.spend(live, set.limit-reserveFor(set.limit))
	ol := s.outline(sp, append(live, byOutline...), f.dropped, set.limit)
	sp = s.spendRest(sp, &ol, set.limit)
	s.outlined = ol.of
	sp.contained = s.signaturesNotGiven(byOutline, sp, &ol, &excluded)
	for _, x := range sp.excluded {
		if id, ok := ix.byURI[x.URI]; !ok || !ol.of[id] { // given as an outline: selected, not excluded
			excluded = append(excluded, x)
		}
	}
	sp.selected = append(sp.selected, ol.selected...)
	f.records = append(f.records, sp.contained...)

	out := &compiled{ix: ix, set: set, cuts: map[string]Excluded{}, faint: map[string]Excluded{}, dropped: map[string]Deduplicated{}}
	listed, notListed := s.cutExclusions(out.cuts, out.faint, explain)
	excluded = append(excluded, listed...)
	for _, r := range f.records {
		for _, d := range r.Dropped {
			out.dropped[d] = r
		}
	}

	entries := make([]Entry, 0, len(sp.selected))
	var cites []CommitReference
	for _, c := range sp.selected {
		entries = append(entries, s.entry(c))
		for _, ct := range c.node.Cites {
			cites = append(cites, CommitReference{Commit: ct.Commit, NamedBy: c.node.URI, Covers: ct.Covers})
		}
		if c.node.Kind == KindPassage && c.node.Anchor == AnchorMoved {
			s.diags = append(s.diags, Diagnostic{Severity: SeverityWarning, Code: CodeMovedAnchor, Path: c.node.Path,
				Message: c.node.URI + "'s @code anchor moved or was renamed" + why(c.node.AnchorDetail) + ": confirm the passage still holds"})
		}
	}
	sortSelected(entries)
	excluded = p.listRedacted(entries, excluded)
	sortExcluded(excluded)
	sortDeduplicated(f.records)
	sortConflicts(f.conflicts)

	diags := slices.Concat(w.Diagnostics, ix.diags, s.diags, notListed)
	if diags == nil {
		diags = []Diagnostic{}
	}
	if excluded == nil {
		excluded = []Excluded{}
	}
	out.ctx = CompiledContext{
		Schema:       Schema,
		Fingerprint:  p.fingerprint,
		Git:          gitContext(w.Git, w.Files, cites),
		Seeds:        append([]Seed{}, s.seeds...),
		Selected:     entries,
		Excluded:     excluded,
		Deduplicated: f.records,
		Conflicts:    f.conflicts,
		Budget:       budgetOf(set.limit, entries, excluded),
		Diagnostics:  sortDiagnostics(diags),
	}
	return out, nil
}

// cutExclusions turns what the walk and the intent match cut (and the
// dangling references they reached) into exclusions, for every URI that did
// not become a candidate some other way. The answer lists the best
// MaxListedCuts near misses per reason, saying how many it left out; all
// gets the listed ones — and, for Explain (explain set), every near miss,
// with the far misses in faint. A cut is described (its Excluded made,
// its detail formatted) only when it goes somewhere.
func (s *selection) cutExclusions(all, faint map[string]Excluded, explain bool) (listed []Excluded, notListed []Diagnostic) {
	mk := func(id int, c cut) Excluded {
		uri := s.ix.ids[id]
		x := Excluded{URI: uri, Reason: c.reason, Relevance: round3(c.rel)}
		if n := s.ix.nodes[id]; n != nil {
			x.Kind, x.Tier, x.CostTokens = n.Kind, TierForKind(n.Kind), TokensFor(n.CostBytes())
		} else {
			x.Tier, x.CostTokens = TierForKind(KindOfURI(uri)), TokensFor(0)
		}
		from := "reached from " + c.via + " by " + c.edge
		if c.why != "" {
			from = c.why
		}
		switch c.reason {
		case ReasonRelevance:
			x.Detail = fmt.Sprintf("relevance %v is below the floor %v: %s", round3(c.rel), s.set.floor, from)
		case ReasonDepth:
			x.Detail = fmt.Sprintf("one hop past max_depth %d: %s", s.set.maxDepth, from)
		case ReasonUnresolved:
			x.Detail = c.via + " names it by " + c.edge + ", but nothing in the workspace resolves to it"
		}
		return x
	}
	for id, c := range s.ghosts {
		x := mk(id, c)
		all[x.URI] = x
		listed = append(listed, x)
	}
	// A cut is sorted by what the answer orders it by (relevance, URI);
	// its exclusion is made only when it is listed, or for Explain.
	type ref struct {
		id  int
		c   cut
		rel float64 // as listed: rounded
	}
	byReason := map[ExclusionReason][]ref{}
	for id, c := range s.cuts {
		if _, isCand := s.cands[id]; isCand {
			continue
		}
		if _, isGhost := s.ghosts[id]; isGhost || s.outlined[id] {
			continue
		}
		if c.reason == ReasonRelevance && below(c.rel, NearMiss*s.set.floor) {
			if explain {
				x := mk(id, c)
				faint[x.URI] = x
			}
			continue
		}
		byReason[c.reason] = append(byReason[c.reason], ref{id, c, round3(c.rel)})
	}
	for _, r := range slices.Sorted(maps.Keys(byReason)) {
		xs := byReason[r]
		slices.SortFunc(xs, func(a, b ref) int {
			if c := cmp.Compare(b.rel, a.rel); c != 0 {
				return c
			}
			return naturalCompare(s.ix.ids[a.id], s.ix.ids[b.id])
		})
		n := len(xs)
		if n > MaxListedCuts {
			notListed = append(notListed, Diagnostic{Severity: SeverityInfo, Code: CodeExclusionsNotListed,
				Message: fmt.Sprintf("%d more candidate(s) excluded for %s are not listed; explain answers for each", n-MaxListedCuts, r)})
			n = MaxListedCuts
		}
		for i, x := range xs {
			if i >= n && !explain {
				break
			}
			e := mk(x.id, x.c)
			all[e.URI] = e
			if i < n {
				listed = append(listed, e)
			}
		}
	}
	return listed, notListed
}

// entry turns an admitted candidate into its wire form: discoveries best
// first, confidence the max, depth the min, scalars rounded to 3 decimals.
func (s *selection) entry(c *candidate) Entry {
	n := c.node
	disc := make([]Discovery, len(c.disc))
	conf := 0.0
	for i, d := range c.disc {
		d.Confidence, d.Weight = round3(d.Confidence), round3(d.Weight)
		disc[i] = d
		conf = max(conf, d.Confidence)
	}
	slices.SortFunc(disc, compareDiscovery)
	var facts map[string]string
	if len(n.Facts) > 0 || (n.Kind == KindPassage && n.Anchor != "") {
		facts = maps.Clone(n.Facts)
		if facts == nil {
			facts = map[string]string{}
		}
		if n.Kind == KindPassage && n.Anchor != "" {
			if _, set := facts["anchor"]; !set {
				facts["anchor"] = string(n.Anchor)
			}
		}
	}
	return Entry{
		URI:   n.URI,
		Kind:  n.Kind,
		Title: n.Title,
		Provenance: Provenance{Path: n.Path, Directory: dirOf(n.Path), SourceClass: sourceClass(n.Kind),
			Section: n.Section, Bytes: n.CostBytes()},
		Tier:         c.tier,
		Relevance:    round3(c.rel),
		Confidence:   conf,
		DiscoveredBy: disc,
		Depth:        c.depth,
		CostTokens:   TokensFor(n.CostBytes()),
		CostBytes:    n.CostBytes(),
		Version:      n.Version,
		Status:       n.Status,
		Required:     c.required,
		Facts:        facts,
	}
}

func sourceClass(kind string) string {
	switch kind {
	case KindSymbol, KindFile, KindTest, KindOutline, KindSkeleton:
		return "code"
	case KindPassage, KindDoc, KindReadme, KindADR, KindAgents:
		return "docs"
	case KindClaim:
		return "claims"
	case KindCommit:
		return "git"
	case KindLocal:
		return "local-state"
	}
	return "named"
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
