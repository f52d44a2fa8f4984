package devcontext

import (
	"bytes"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// The invariants of every answer, over a few hundred generated worlds and
// requests (fixed seeds, so a failure reproduces).
func TestPropertiesOverGeneratedWorlds(t *testing.T) {
	const worlds = 300
	var stats struct{ compiles, stale, lost, over, budgetEx, relevanceEx, depthEx, conflicts, folds, outlines int }
	for seed := int64(1); seed <= worlds; seed++ {
		rng := rand.New(rand.NewSource(seed))
		w := genWorld(rng, 5+rng.Intn(60))
		for k := 0; k < 3; k++ {
			r := genRequest(rng, w)
			c, err := Compile(w, r)
			if err != nil {
				t.Fatalf("world %d request %d: %v", seed, k, err)
			}
			stats.compiles++
			checkInvariants(t, w, r, c)
			// Same input, byte-identical JSON; a shuffled world, too.
			a := mustJSON(t, c)
			b := mustJSON(t, mustCompile(t, w, r))
			s := mustJSON(t, mustCompile(t, shuffled(w, rng), r))
			if !bytes.Equal(a, b) || !bytes.Equal(a, s) {
				t.Fatalf("world %d request %d: JSON not stable", seed, k)
			}
			for _, x := range c.Excluded {
				switch x.Reason {
				case ReasonStale:
					stats.stale++
				case ReasonUnresolved:
					stats.lost++
				case ReasonBudget:
					stats.budgetEx++
				case ReasonRelevance:
					stats.relevanceEx++
				case ReasonDepth:
					stats.depthEx++
				}
			}
			if c.Budget.OverBudget {
				stats.over++
			}
			stats.conflicts += len(c.Conflicts)
			for _, e := range c.Selected {
				if e.Kind == KindOutline {
					stats.outlines++
				}
			}
			for _, d := range c.Deduplicated {
				if d.Key != "uri" {
					stats.folds++
				}
			}
		}
	}
	t.Logf("%+v", stats)
	// The generator must exercise what the invariants speak about.
	if stats.stale == 0 || stats.lost == 0 || stats.over == 0 || stats.budgetEx == 0 || stats.relevanceEx == 0 ||
		stats.depthEx == 0 || stats.conflicts == 0 || stats.folds == 0 || stats.outlines == 0 {
		t.Fatalf("generated worlds do not cover every case: %+v", stats)
	}
}

func checkInvariants(t *testing.T, w World, r Request, c CompiledContext) {
	t.Helper()
	fail := func(format string, a ...any) {
		t.Helper()
		t.Fatalf(format+"\nrequest %+v", append(a, r)...)
	}
	set, _ := r.settings()
	nodes := map[string]*Node{}
	for i := range w.Nodes {
		if _, dup := nodes[w.Nodes[i].URI]; !dup {
			nodes[w.Nodes[i].URI] = &w.Nodes[i]
		}
	}

	// Budget arithmetic.
	bu := c.Budget
	var sum, req uint64
	for _, e := range c.Selected {
		sum += e.CostTokens
		if e.Required {
			req += e.CostTokens
		}
		if e.CostTokens != TokensFor(e.CostBytes) || e.CostTokens == 0 {
			fail("%s cost %d for %d bytes", e.URI, e.CostTokens, e.CostBytes)
		}
	}
	var tierSum uint64
	tierSel := 0
	if len(bu.Tiers) != len(Tiers) || len(Tiers) != 7 {
		fail("%d tier rows", len(bu.Tiers))
	}
	for i, row := range bu.Tiers {
		if row.Tier != Tiers[i] {
			fail("tier %d is %s", i, row.Tier)
		}
		tierSum += row.Tokens
		tierSel += row.Selected
		if row.Required > row.Selected {
			fail("tier %s required %d > selected %d", row.Tier, row.Required, row.Selected)
		}
	}
	if bu.UsedTokens != sum || sum != tierSum || tierSel != len(c.Selected) || bu.RequiredTokens != req {
		fail("used %d, Σ selected %d, Σ tiers %d, required %d/%d", bu.UsedTokens, sum, tierSum, bu.RequiredTokens, req)
	}
	if bu.OverBudget != (bu.UsedTokens > bu.LimitTokens) || bu.OverBudget != (bu.RequiredTokens > bu.LimitTokens) {
		fail("over_budget %v with used %d required %d limit %d", bu.OverBudget, bu.UsedTokens, bu.RequiredTokens, bu.LimitTokens)
	}
	if bu.RemainingTokens != bu.LimitTokens-min(bu.LimitTokens, bu.UsedTokens) ||
		(!bu.OverBudget && bu.UsedTokens+bu.RemainingTokens != bu.LimitTokens) {
		fail("remaining %d", bu.RemainingTokens)
	}

	// Seeds are present and required, even over budget.
	for _, s := range c.Seeds {
		if s.Kind == SeedKindPath || s.Kind == SeedKindIntent {
			continue
		}
		u := s.URI
		if s.Resolved != "" {
			u = s.Resolved
		}
		e := entryOf(c, u)
		if e == nil || !e.Required || e.Tier != TierTask {
			fail("seed %s missing or not required: %+v", u, e)
		}
	}

	// Entries: scalars derived from their discoveries; no duplicates; depth.
	seen := map[string]bool{}
	for _, e := range c.Selected {
		if seen[e.URI] {
			fail("%s selected twice", e.URI)
		}
		seen[e.URI] = true
		if len(e.DiscoveredBy) == 0 {
			fail("%s without discoveries", e.URI)
		}
		conf, depth := 0.0, math.MaxInt
		onlyWalk := true
		for i, d := range e.DiscoveredBy {
			conf, depth = max(conf, d.Confidence), min(depth, d.Depth)
			if i > 0 && compareDiscovery(e.DiscoveredBy[i-1], d) > 0 {
				fail("%s discoveries not best first", e.URI)
			}
			onlyWalk = onlyWalk && (d.Selector == SelRelation || d.Selector == SelIntentMatch)
		}
		if e.Confidence != conf || e.Depth != depth {
			fail("%s confidence %v (max %v) depth %d (min %d)", e.URI, e.Confidence, conf, e.Depth, depth)
		}
		if e.Relevance < 0 || e.Relevance > 1 || e.Confidence < 0 || e.Confidence > 1 {
			fail("%s out of [0,1]", e.URI)
		}
		if onlyWalk && e.Relevance < set.floor-1e-9 {
			fail("%s relevance %v below floor %v", e.URI, e.Relevance, set.floor)
		}
		if !e.Required && e.Depth > set.maxDepth {
			fail("%s depth %d past max_depth %d", e.URI, e.Depth, set.maxDepth)
		}
		n := nodes[e.URI]
		seed := slices.ContainsFunc(e.DiscoveredBy, func(d Discovery) bool { return d.Selector == SelSeed })
		if n != nil && n.Kind == KindPassage && (n.Anchor == AnchorStale || n.Anchor == AnchorLost) && !seed {
			fail("%s: a %s passage is selected", e.URI, n.Anchor)
		}
	}
	assertSelectedOrder(t, c)
	assertFirstFit(t, c)
	assertOutlines(t, w, c)

	// Exclusions: never also selected, canonical order, the right reasons.
	for i, x := range c.Excluded {
		if seen[x.URI] {
			fail("%s both selected and excluded", x.URI)
		}
		if i > 0 {
			p := c.Excluded[i-1]
			if cmpEx := []Excluded{p, x}; !slices.IsSortedFunc(cmpEx, func(a, b Excluded) int {
				if tierPos(a.Tier) != tierPos(b.Tier) {
					return tierPos(a.Tier) - tierPos(b.Tier)
				}
				if a.Reason != b.Reason {
					return strings.Compare(string(a.Reason), string(b.Reason))
				}
				return naturalCompare(a.URI, b.URI)
			}) {
				fail("excluded out of order at %d", i)
			}
		}
		n := nodes[x.URI]
		if n != nil && n.Kind == KindPassage {
			switch {
			case n.Anchor == AnchorStale && x.Reason != ReasonStale && x.Reason != ReasonRelevance && x.Reason != ReasonDepth:
				fail("stale passage %s excluded for %s", x.URI, x.Reason)
			case n.Anchor == AnchorLost && x.Reason != ReasonUnresolved && x.Reason != ReasonRelevance && x.Reason != ReasonDepth:
				fail("lost passage %s excluded for %s", x.URI, x.Reason)
			}
		}
		if x.Reason == ReasonBudget && bu.Tiers[tierPos(x.Tier)-1].Excluded == 0 {
			fail("budget exclusion not counted in its tier")
		}
	}

	// The wire: no null anywhere, lists present.
	js := mustJSON(t, c)
	if bytes.Contains(js, []byte("null")) {
		fail("null in JSON")
	}
	for _, k := range []string{`"seeds"`, `"selected"`, `"excluded"`, `"deduplicated"`, `"conflicts"`, `"diagnostics"`, `"tiers"`} {
		if !bytes.Contains(js, []byte(k)) {
			fail("%s missing", k)
		}
	}

	// Explain agrees with the answer, and Markdown projects every entry.
	md := Markdown(c, Texts(w))
	for _, e := range c.Selected {
		if !strings.Contains(md, e.URI) {
			fail("markdown misses %s", e.URI)
		}
	}
	if len(c.Selected) > 0 {
		e := c.Selected[len(c.Selected)-1]
		if ex, err := Explain(w, e.URI, r); err != nil || ex.Standing != StandingSelected {
			fail("explain %s: %v %v", e.URI, ex.Standing, err)
		}
	}
	if len(c.Excluded) > 0 {
		x := c.Excluded[0]
		if ex, err := Explain(w, x.URI, r); err != nil || ex.Standing != StandingExcluded || ex.Excluded.Reason != x.Reason {
			fail("explain %s: %+v %v", x.URI, ex, err)
		}
	}
}

// assertOutlines: an outline entry is a declaration of the world with an
// outline, in the outline tier, costing its signature; never one shown in
// full, inside a file shown whole, or inside a declaration shown in full;
// and no optional declaration with a signature line is given in full
// below the full floor.
func assertOutlines(t testing.TB, w World, c CompiledContext) {
	t.Helper()
	nodes := map[string]*Node{}
	for i := range w.Nodes {
		if _, dup := nodes[w.Nodes[i].URI]; !dup {
			nodes[w.Nodes[i].URI] = &w.Nodes[i]
		}
	}
	whole := map[string]bool{}
	var full []*Node
	for _, e := range c.Selected {
		switch e.Kind {
		case KindFile:
			whole[e.Provenance.Path] = true
		case KindSymbol, KindTest:
			full = append(full, nodes[e.URI])
		}
	}
	for _, e := range c.Selected {
		// The full floor: an optional declaration in full is at or above it
		// (one without a signature line has nothing else to be given as).
		if (e.Kind == KindSymbol || e.Kind == KindTest) && !e.Required && below(e.Relevance, fullFloor) && nodes[e.URI].Outline != "" {
			t.Fatalf("%s in full at relevance %v, below the full floor %v", e.URI, e.Relevance, fullFloor)
		}
		if (e.Kind == KindOutline) != (e.Tier == TierOutline) {
			t.Fatalf("%s: kind %s in tier %s", e.URI, e.Kind, e.Tier)
		}
		if e.Kind != KindOutline {
			continue
		}
		n := nodes[e.URI]
		if n == nil || (n.Kind != KindSymbol && n.Kind != KindTest) || n.Outline == "" {
			t.Fatalf("outline %s of %+v", e.URI, n)
		}
		if e.Facts[FactSignature] != n.Outline || e.CostBytes != len(n.Outline) || e.Required {
			t.Fatalf("outline %s: facts %v, %d bytes for %q", e.URI, e.Facts, e.CostBytes, n.Outline)
		}
		if whole[n.Path] {
			t.Fatalf("outline %s inside %s, selected whole", e.URI, n.Path)
		}
		for _, f := range full {
			if f.Path == n.Path && f.Range.StartLine <= n.Range.StartLine && n.Range.EndLine <= f.Range.EndLine {
				t.Fatalf("outline %s inside %s, selected in full", e.URI, f.URI)
			}
		}
	}
}
