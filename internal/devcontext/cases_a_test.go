package devcontext

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// Part A of the public cases: the behaviours of the original compiler, in
// clew's world (the tour fixture of Part B).

func TestA01_RequestThatNamesNothing(t *testing.T) {
	c := mustCompile(t, newTour().world(), Request{})
	if c.Schema != 1 || len(c.Fingerprint) != 64 {
		t.Fatalf("schema %d, fingerprint %q", c.Schema, c.Fingerprint)
	}
	if c.Seeds == nil || len(c.Seeds) != 0 {
		t.Fatalf("seeds = %#v, want []", c.Seeds)
	}
	root := entryOf(c, AgentsURI("."))
	if root == nil || !root.Required || root.Tier != TierGovernance {
		t.Fatalf("root AGENTS.md (the policy analogue) must be selected and required: %+v", root)
	}
	if c.Budget.LimitTokens != 24000 || len(c.Budget.Tiers) != 7 {
		t.Fatalf("budget %+v", c.Budget)
	}
	for i, row := range c.Budget.Tiers {
		if row.Tier != Tiers[i] || row.Meaning == "" {
			t.Fatalf("tier row %d = %+v", i, row)
		}
	}
	if c.Git.Branch != "main" || c.Git.WorkingTree != "clean" {
		t.Fatalf("git %+v", c.Git)
	}
	if !strings.Contains(string(mustJSON(t, c)), `"seeds": []`) {
		t.Fatal("empty seeds must encode as []")
	}
}

func TestA03_ATypeReachesItsMethods(t *testing.T) {
	tr := newTour()
	c := mustCompile(t, tr.world(), Request{URIs: []string{tr.server}, BudgetTokens: budget(1_000_000)})
	for _, m := range []string{tr.initialize, tr.shutdown, tr.run} {
		e := entryOf(c, m)
		if e == nil {
			t.Fatalf("method %s not selected", m)
		}
		found := false
		for _, d := range e.DiscoveredBy {
			found = found || (d.Edge == EdgeMethodOf && d.Via == tr.server && strings.Contains(d.Reason, "method of it"))
		}
		if !found {
			t.Fatalf("%s: no method_of discovery from the type: %+v", m, e.DiscoveredBy)
		}
	}
	// The cursor's file widens the scope: the file is a scope_path entry.
	c = mustCompile(t, tr.world(), inInitialize())
	if e := entryOf(c, tr.serverFile); e == nil || e.DiscoveredBy[0].Selector != SelScopePath || e.Tier != TierSource || e.Required {
		t.Fatalf("file entry %+v", e)
	}
}

func TestA05_TotalOrderSameAnswerTwice(t *testing.T) {
	tr := newTour()
	r := inInitialize()
	r.Intent = "the workspace load and the decision to index lazily"
	r.BudgetTokens = budget(1_000_000)
	a, b := mustJSON(t, mustCompile(t, tr.world(), r)), mustJSON(t, mustCompile(t, tr.world(), r))
	if string(a) != string(b) {
		t.Fatal("two compiles differ")
	}
	c := mustCompile(t, tr.world(), r)
	assertSelectedOrder(t, c)
}

func assertSelectedOrder(t testing.TB, c CompiledContext) {
	t.Helper()
	for i := 1; i < len(c.Selected); i++ {
		x, y := c.Selected[i-1], c.Selected[i]
		ok := tierPos(x.Tier) < tierPos(y.Tier) ||
			(x.Tier == y.Tier && x.Relevance > y.Relevance) ||
			(x.Tier == y.Tier && x.Relevance == y.Relevance && naturalCompare(x.URI, y.URI) < 0)
		if !ok {
			t.Fatalf("selected out of order at %d: %s/%v/%s then %s/%v/%s", i, x.Tier, x.Relevance, x.URI, y.Tier, y.Relevance, y.URI)
		}
	}
}

func TestA07_BudgetSpendsTheAuthorityOrder(t *testing.T) {
	tr := newTour()
	r := inInitialize()
	r.BudgetTokens = budget(400)
	c := mustCompile(t, tr.world(), r)
	assertFirstFit(t, c)
	budgetRows := 0
	for _, x := range c.Excluded {
		if x.Reason == ReasonBudget {
			budgetRows++
			if x.Tier == TierTask {
				t.Fatalf("task-tier budget exclusion %+v", x)
			}
		}
	}
	if budgetRows == 0 {
		t.Fatal("a 400-token budget should exclude something in the tour")
	}
	if len(c.Selected) == 0 || c.Selected[0].Tier != TierTask {
		t.Fatal("no task-tier entry")
	}
}

// assertFirstFit: if an entry of tier T was dropped for budget, every
// optional entry kept in a later tier costs no more than it did. Outline
// entries are spent from their reserve (outline.go), so they are checked
// only against each other: the outline pass is first fit too.
func assertFirstFit(t testing.TB, c CompiledContext) {
	t.Helper()
	for _, d := range c.Excluded {
		if d.Reason != ReasonBudget {
			continue
		}
		for _, k := range c.Selected {
			if !k.Required && k.Tier != TierOutline && tierPos(k.Tier) > tierPos(d.Tier) && k.CostTokens > d.CostTokens {
				t.Fatalf("%s (%d tokens, %s) kept after %s (%d tokens, %s) was dropped for budget",
					k.URI, k.CostTokens, k.Tier, d.URI, d.CostTokens, d.Tier)
			}
		}
	}
}

func TestA09_ALaterDecisionStandsInForAnEarlierOne(t *testing.T) {
	tr := newTour()
	c := mustCompile(t, tr.world(), Request{URIs: []string{tr.adr2}, BudgetTokens: budget(1_000_000)})
	if len(c.Conflicts) != 1 {
		t.Fatalf("conflicts %+v", c.Conflicts)
	}
	k := c.Conflicts[0]
	if k.Kind != "supersedes" || !strings.HasSuffix(k.Current, "adr-0002") || !strings.HasSuffix(k.Against, "adr-0001") {
		t.Fatalf("conflict %+v", k)
	}
	if entryOf(c, tr.adr1) != nil {
		t.Fatal("adr-0001 selected")
	}
	x := excludedOfURI(c, tr.adr1)
	if x == nil || x.Reason != ReasonSuperseded || !strings.Contains(x.Detail, "adr-0002 stands in for it") {
		t.Fatalf("adr-0001 exclusion %+v", x)
	}
}

func TestA11_AnInferenceIsNeverAsConfidentAsADeclaration(t *testing.T) {
	tr := newTour()
	c := mustCompile(t, tr.world(), Request{Intent: "workspace", BudgetTokens: budget(1_000_000)})
	n := 0
	for _, e := range c.Selected {
		onlyIntent := true
		for _, d := range e.DiscoveredBy {
			onlyIntent = onlyIntent && d.Selector == SelIntentMatch
		}
		if !onlyIntent {
			continue
		}
		n++
		if e.Relevance >= 1 || e.Relevance > 0.6 || e.Confidence >= 1 {
			t.Fatalf("%s: relevance %v confidence %v", e.URI, e.Relevance, e.Confidence)
		}
		for _, d := range e.DiscoveredBy {
			if !strings.Contains(d.Reason, "workspace") {
				t.Fatalf("reason %q does not name the intent", d.Reason)
			}
		}
	}
	if n == 0 {
		t.Fatal("no entry reached by intent_match alone")
	}
}

func TestA13_AnUncommittedChangeIsKnowledge(t *testing.T) {
	tr := newTour()
	local := tr.b.Local("internal/lsp/server.go", Range{StartLine: 50, EndLine: 52})
	c := mustCompile(t, tr.world(), inInitialize())
	e := entryOf(c, local)
	if e == nil || e.Tier != TierKnowledge || e.DiscoveredBy[0].Selector != SelSessionState ||
		!strings.Contains(e.DiscoveredBy[0].Reason, "uncommitted change") {
		t.Fatalf("local entry %+v", e)
	}
}

func TestA15_AChangedTreeIsADifferentAnswer(t *testing.T) {
	tr := newTour()
	before := mustCompile(t, tr.world(), Request{})
	tr.b.Content("internal/lsp/server.go", "package lsp\n// one more line\n")
	tr.b.Git(Git{Branch: "main", Head: strings.Repeat("cd34", 10), WorkingTree: "clean"})
	after := mustCompile(t, tr.world(), Request{})
	if before.Fingerprint == after.Fingerprint {
		t.Fatal("fingerprint unchanged")
	}
	if after.Git.Head != strings.Repeat("cd34", 10) {
		t.Fatalf("head %q", after.Git.Head)
	}
}

func TestA17_PolicyJudgesEveryEdge(t *testing.T) {
	p := Policy()
	if p.Graph == "" || len(p.Tiers) != 7 || p.Tiers[0].Tier != TierTask || p.Tiers[0].Position != 1 {
		t.Fatalf("policy head %+v", p.Tiers)
	}
	for i, tr := range p.Tiers {
		if tr.Position != i+1 || tr.Meaning == "" || tr.Kinds == nil {
			t.Fatalf("tier %+v", tr)
		}
		if tr.Tier != TierTask && len(tr.Kinds) == 0 {
			t.Fatalf("tier %s lists no kinds", tr.Tier)
		}
	}
	m := keysOf(t, p)
	seen := 0
	for _, raw := range m["edges"].([]any) {
		e := raw.(map[string]any)
		switch e["edge"] {
		case EdgeInPackage:
			seen++
			_, f := e["forward"]
			_, r := e["reverse"]
			if e["refused"] != true || f || r || !strings.Contains(e["reason"].(string), "whole package") {
				t.Fatalf("in_package %+v", e)
			}
		case EdgeCalls:
			if e["refused"] != false || e["forward"] != 0.7 || e["means"] == "" {
				t.Fatalf("calls %+v", e)
			}
		}
	}
	if seen != 1 {
		t.Fatalf("in_package listed %d times", seen)
	}
	undeclared := 0
	for _, s := range p.Selectors {
		if !s.Declared {
			undeclared++
			if s.Selector != SelIntentMatch {
				t.Fatalf("%s is not declared", s.Selector)
			}
		}
	}
	if len(p.Selectors) != 8 || undeclared != 1 {
		t.Fatalf("selectors %+v", p.Selectors)
	}
	if p.DefaultBudgetTokens != 24000 || p.BytesPerToken != 4 || p.DefaultMaxDepth != 3 || p.DefaultFloor != 0.25 {
		t.Fatalf("defaults %+v", p)
	}
}

func TestA19_EveryBlockingClaimIsHonestAboutTheCost(t *testing.T) {
	tr := newTour()
	for _, base := range []Request{{}, inInitialize()} {
		some := base
		some.BudgetTokens = budget(1_000_000)
		all := some
		all.AllBlockingClaims = true
		cs, ca := mustCompile(t, tr.world(), some), mustCompile(t, tr.world(), all)
		if ca.Budget.UsedTokens <= cs.Budget.UsedTokens {
			t.Fatalf("all_blocking_claims used %d <= %d", ca.Budget.UsedTokens, cs.Budget.UsedTokens)
		}
		e := entryOf(ca, tr.inv3)
		if e == nil || e.Tier != TierGovernance || e.Facts["state"] != "active" || e.DiscoveredBy[0].Selector != SelGovernance {
			t.Fatalf("INV-3 entry %+v", e)
		}
		for _, e := range ca.Selected {
			if e.Kind != KindClaim || (e.Status != "proposed" && e.Status != "drift") {
				continue
			}
			only := true
			for _, d := range e.DiscoveredBy {
				only = only && d.Selector == SelGovernance
			}
			if only {
				t.Fatalf("advisory claim %s selected by governance alone", e.URI)
			}
		}
	}
}

func TestA21_ASeedSurvivesACeilingItDoesNotFitIn(t *testing.T) {
	b := NewBuilder("example.com/m")
	big := b.Symbol("big.go", "Big", 1, 2000, strings.Repeat("x", 40000))
	c := mustCompile(t, b.Build(), Request{URIs: []string{big}, BudgetTokens: budget(10)})
	if len(c.Selected) != 1 || !c.Selected[0].Required || len(c.Excluded) != 0 {
		t.Fatalf("selected %+v excluded %+v", c.Selected, c.Excluded)
	}
	bu := c.Budget
	if !bu.OverBudget || bu.UsedTokens != 10000 || bu.RequiredTokens != 10000 || bu.RemainingTokens != 0 {
		t.Fatalf("budget %+v", bu)
	}
	if ExitCode(c, nil) != ExitOverBudget {
		t.Fatal("over budget must exit 10")
	}
}

func TestA23_TokenEstimate(t *testing.T) {
	for bytes, want := range map[int]uint64{0: 1, 1: 1, 4: 1, 8: 2, 400: 100, 4001: 1001, 8000: 2000, 8192: 2048, 40000: 10000} {
		if got := TokensFor(bytes); got != want {
			t.Errorf("TokensFor(%d) = %d, want %d", bytes, got, want)
		}
	}
	if TokensFor(math.MaxInt) == 0 {
		t.Error("TokensFor never returns 0")
	}
}

func TestA25_ContainmentIsByPathSegment(t *testing.T) {
	for _, c := range []struct {
		scope, p string
		want     bool
	}{{"lib", "lib/context.sh", true}, {"lib", "lib", true}, {"lib", "library/x.sh", false}, {"lib/a", "lib", false}, {".", "x/y", true}} {
		if got := under(c.p, c.scope); got != c.want {
			t.Errorf("under(%q, %q) = %v", c.p, c.scope, got)
		}
	}
}

func TestA27_EdgeTableInvariants(t *testing.T) {
	refused := map[string]bool{}
	seen := map[string]bool{}
	for _, r := range edgeTable {
		if seen[r.kind] {
			t.Fatalf("%s twice", r.kind)
		}
		seen[r.kind] = true
		if r.means == "" {
			t.Fatalf("%s means nothing", r.kind)
		}
		if r.refused != "" {
			refused[r.kind] = true
			if r.forward != 0 || r.reverse != 0 {
				t.Fatalf("refused %s carries weights", r.kind)
			}
			continue
		}
		if r.forward <= 0 && r.reverse <= 0 || r.forward > 1 || r.reverse > 1 || r.forward < 0 || r.reverse < 0 {
			t.Fatalf("%s weights %v/%v", r.kind, r.forward, r.reverse)
		}
		if r.fwdWhy == "" || (r.reverse > 0 && r.revWhy == "") {
			t.Fatalf("%s reasons", r.kind)
		}
	}
	for _, k := range []string{EdgeInPackage, EdgeContains, EdgeReferences, EdgeMentions} {
		if !refused[k] {
			t.Fatalf("%s not refused", k)
		}
	}
	if len(refused) != 4 {
		t.Fatalf("refused %v", refused)
	}
	calls, sup := edgeByKind[EdgeCalls], edgeByKind[EdgeSupersede]
	if calls.forward <= calls.reverse || calls.fwdWhy == calls.revWhy || sup.forward != sup.reverse {
		t.Fatal("calls must be stronger forward; supersedes symmetric")
	}
}

func TestA29_CanonicalOrderOfExclusions(t *testing.T) {
	xs := []Excluded{
		{URI: "clew://doc/b", Tier: TierHistory, Reason: ReasonBudget, CostTokens: 900},
		{URI: "clew://adr/0001", Tier: TierDecision, Reason: ReasonSuperseded, CostTokens: 300},
		{URI: "clew://doc/a", Tier: TierHistory, Reason: ReasonBudget, CostTokens: 1200},
	}
	sortExcluded(xs)
	if xs[0].URI != "clew://adr/0001" || xs[1].URI != "clew://doc/a" || xs[2].URI != "clew://doc/b" {
		t.Fatalf("order %v %v %v", xs[0].URI, xs[1].URI, xs[2].URI)
	}
	if naturalCompare("INV-2", "INV-10") >= 0 || naturalCompare("item-002", "item-2") >= 0 || naturalCompare("a", "B") >= 0 {
		t.Fatal("natural compare")
	}
}

func TestA31_DerivedScalarsAndTheMaxRule(t *testing.T) {
	b := NewBuilder("m")
	adr := b.ADR("docs/adr/1.md", "adr-1", "accepted", strings.Repeat("y", 401))
	w := b.Build()
	ix := newIndex(&w)
	s := newSelection(ix, settings{limit: 1000, maxDepth: 3, floor: 0.25}, Request{})
	id := ix.byURI[adr]
	s.offer(id, TierDecision, 0.3, Discovery{Selector: SelIntentMatch, Reason: "words", Depth: 2, Confidence: 0.4, Weight: 0.3})
	if e := s.entry(s.cands[id]); e.Confidence != 0.4 {
		t.Fatalf("one inferred discovery: confidence %v", e.Confidence)
	}
	s.offer(id, TierDecision, 0.9, Discovery{Selector: SelRelation, Reason: "decides", Edge: EdgeDecides, Depth: 1, Confidence: 1, Weight: 0.9})
	e := s.entry(s.cands[id])
	if e.Confidence != 1 || e.Depth != 1 || e.DiscoveredBy[0].Selector != SelRelation || e.Relevance != 0.9 {
		t.Fatalf("entry %+v", e)
	}
	if e.CostTokens != TokensFor(e.CostBytes) || e.CostTokens != 101 {
		t.Fatalf("cost %d for %d bytes", e.CostTokens, e.CostBytes)
	}
	empty := s.entry(&candidate{id: id, node: ix.nodes[id], tier: TierDecision})
	if empty.Confidence != 0 {
		t.Fatalf("no discoveries: confidence %v", empty.Confidence)
	}
}

func TestA33_OmissionOnTheWire(t *testing.T) {
	tr := newTour()
	c := mustCompile(t, tr.world(), Request{Position: &Position{Path: "internal/lsp/server.go", Line: 50},
		URIs: []string{ADRURI("0002-init-v2"), tr.adr2}, Intent: "Initialize", BudgetTokens: budget(1_000_000)})
	m := keysOf(t, c)
	sel := m["selected"].([]any)
	first := sel[0].(map[string]any)["discovered_by"].([]any)[0].(map[string]any)
	if _, ok := first["via"]; ok {
		t.Fatal("a seed discovery carries via")
	}
	if _, ok := first["edge"]; ok {
		t.Fatal("a seed discovery carries edge")
	}
	for _, raw := range sel {
		e := raw.(map[string]any)
		if e["uri"] == tr.readme {
			p := e["provenance"].(map[string]any)
			if p["directory"] != "." {
				t.Fatalf("root README directory %v", p["directory"])
			}
			if _, ok := p["section"]; ok {
				t.Fatal("README provenance carries section")
			}
		}
	}
	seeds := c.Seeds
	if seeds[2].URI != ADRURI("0002-init-v2") || seeds[2].Resolved != tr.adr2 {
		t.Fatalf("alias seed %+v", seeds[2])
	}
	if seeds[3].Resolved != "" || strings.Contains(string(mustJSON(t, seeds[3])), "resolved") {
		t.Fatalf("identity seed %+v", seeds[3])
	}

	tr.b.Git(Git{Unavailable: "not a git repository"})
	g := keysOf(t, mustCompile(t, tr.world(), Request{}))["git"].(map[string]any)
	if _, ok := g["branch"]; ok {
		t.Fatal("branch present when git is unavailable")
	}
	if _, ok := g["head"]; ok {
		t.Fatal("head present when git is unavailable")
	}
	if !strings.HasPrefix(g["working_tree"].(string), "unavailable: ") {
		t.Fatalf("working_tree %v", g["working_tree"])
	}
	if _, ok := g["commits"]; ok {
		t.Fatal("empty commits must be omitted")
	}
	if s := string(mustJSON(t, CommitReference{Commit: "c", NamedBy: "n"})); strings.Contains(s, "covers") {
		t.Fatal(s)
	}
	for v, want := range map[any]string{StandingNotReached: `"not_reached"`, SelScopePath: `"scope_path"`, TierGovernance: `"governance"`} {
		if b, _ := json.Marshal(v); string(b) != want {
			t.Fatalf("%v encodes as %s", v, b)
		}
	}
}

func TestA35_EntryContract(t *testing.T) {
	tr := newTour()
	r := inInitialize()
	r.BudgetTokens = budget(1_000_000)
	c := mustCompile(t, tr.world(), r)
	for _, e := range c.Selected {
		if !strings.HasPrefix(e.URI, "clew://") && !strings.HasPrefix(e.URI, "local:") {
			t.Fatalf("uri %s", e.URI)
		}
		if e.Provenance.SourceClass == "" || (e.Provenance.Path == "" && e.Kind != KindCommit) || e.Provenance.Directory == "" {
			t.Fatalf("provenance %+v", e.Provenance)
		}
		if e.CostTokens == 0 || e.Tier == "" || e.Confidence < 0 || e.Confidence > 1 || e.Relevance < 0 || e.Relevance > 1 {
			t.Fatalf("entry %+v", e)
		}
		if len(e.DiscoveredBy) == 0 {
			t.Fatalf("%s has no discovery", e.URI)
		}
		for _, d := range e.DiscoveredBy {
			if d.Reason == "" {
				t.Fatalf("%s: discovery without reason", e.URI)
			}
		}
	}
	if c.Git.Head == "" || c.Fingerprint == "" {
		t.Fatal("head or fingerprint empty")
	}
}
