package devcontext

import (
	"errors"
	"math/rand"
	"strings"
	"testing"
)

// Part B of the public cases: clew scenarios over the tour fixture.

func TestB02_CursorOnThePackageClause(t *testing.T) {
	tr := newTour()
	c := mustCompile(t, tr.world(), at("internal/lsp/server.go", 1))
	want := []Seed{{URI: tr.serverFile, Kind: KindFile, From: FromPosition}, {URI: "internal/lsp/server.go", Kind: SeedKindPath, From: FromPosition}}
	if len(c.Seeds) != 2 || c.Seeds[0] != want[0] || c.Seeds[1] != want[1] {
		t.Fatalf("seeds %+v", c.Seeds)
	}
	e := entryOf(c, tr.serverFile)
	if e == nil || e.Tier != TierTask || !e.Required {
		t.Fatalf("file entry %+v", e)
	}
	for _, e := range c.Selected {
		for _, d := range e.DiscoveredBy {
			if d.Selector == SelSeed && e.Kind == KindSymbol {
				t.Fatalf("symbol seed %s", e.URI)
			}
		}
	}
}

func TestB04_AGatingClaimOverTheFileIsRequiredWithoutPinning(t *testing.T) {
	tr := newTour()
	c := mustCompile(t, tr.world(), at("internal/lsp/server.go", 85))
	if c.Seeds[0].URI != tr.shutdown {
		t.Fatalf("seed %+v", c.Seeds[0])
	}
	e := entryOf(c, tr.inv1)
	if e == nil || !e.Required {
		t.Fatalf("INV-1 %+v", e)
	}
	for _, d := range e.DiscoveredBy {
		if d.Selector != SelContract {
			t.Fatalf("INV-1 reached by %s (%s) from Shutdown", d.Selector, d.Edge)
		}
	}
}

func TestB05_APassageAnchoredToTheSymbol(t *testing.T) {
	tr := newTour()
	c := mustCompile(t, tr.world(), inInitialize())
	e := entryOf(c, tr.pInit)
	if e == nil || e.Tier != TierDecision || e.Relevance != 0.9 || e.Confidence != 1 {
		t.Fatalf("passage %+v", e)
	}
	d := e.DiscoveredBy[0]
	if d.Selector != SelRelation || d.Edge != EdgeAnchors || d.Via != tr.initialize || d.Weight != 0.9 {
		t.Fatalf("discovery %+v", d)
	}
	if entryOf(c, tr.pShutdown) != nil || excludedOfURI(c, tr.pShutdown) != nil {
		t.Fatal("Shutdown's passage is not reached from Initialize")
	}
}

func TestB06_AStalePassageIsExcludedStaleALostOneUnresolved(t *testing.T) {
	tr := newTour()
	c := mustCompile(t, tr.world(), at("internal/lsp/server.go", 85)) // in Shutdown
	x := excludedOfURI(c, tr.pShutdown)
	if entryOf(c, tr.pShutdown) != nil || x == nil || x.Reason != ReasonStale || !strings.Contains(x.Detail, "body_changed") {
		t.Fatalf("stale passage: %+v", x)
	}
	// A lost passage reached by its words (it mentions the cursor's name).
	tr.b.Get(tr.pLegacy).Text += "\nShutdown used to drain legacy clients.\n"
	c = mustCompile(t, tr.world(), at("internal/lsp/server.go", 85))
	x = excludedOfURI(c, tr.pLegacy)
	if entryOf(c, tr.pLegacy) != nil || x == nil || x.Reason != ReasonUnresolved || !strings.Contains(x.Detail, "lost") {
		t.Fatalf("lost passage: %+v", x)
	}
	// A moved-renamed anchor still resolves: kept, with a warning.
	c = mustCompile(t, tr.world(), at("internal/lsp/server.go", 100)) // in Run
	if entryOf(c, tr.pStart) == nil || !hasDiag(c, CodeMovedAnchor, "Server.Start") {
		t.Fatalf("moved passage not kept with a warning: %+v", c.Diagnostics)
	}
}

func TestB07_AStaleSeedIsKept(t *testing.T) {
	tr := newTour()
	c := mustCompile(t, tr.world(), Request{URIs: []string{tr.pShutdown}})
	if e := entryOf(c, tr.pShutdown); e == nil || !e.Required || e.Tier != TierTask {
		t.Fatalf("stale seed %+v", e)
	}
	if !hasDiag(c, CodeStaleSeed, tr.pShutdown) {
		t.Fatalf("diagnostics %+v", c.Diagnostics)
	}
}

func TestB07c_ALostSeedIsKeptAndItsTargetReported(t *testing.T) {
	tr := newTour()
	c := mustCompile(t, tr.world(), Request{URIs: []string{tr.pLegacy}, BudgetTokens: budget(1_000_000)})
	if entryOf(c, tr.pLegacy) == nil {
		t.Fatal("lost seed not kept")
	}
	if !hasDiag(c, CodeUnresolvedReference, "Server.Legacy") {
		t.Fatalf("diagnostics %+v", c.Diagnostics)
	}
	if entryOf(c, tr.legacy) != nil {
		t.Fatal("an entry for a declaration that does not exist")
	}
	if x := excludedOfURI(c, tr.legacy); x == nil || x.Reason != ReasonUnresolved || x.Kind != "" {
		t.Fatalf("dangling target %+v", x)
	}
}

func TestB09_ASupersededDecision(t *testing.T) {
	tr := newTour()
	c := mustCompile(t, tr.world(), inInitialize())
	want := Conflict{Current: tr.adr2, Against: tr.adr1, Kind: "supersedes", Detail: tr.adr2 + " supersedes " + tr.adr1}
	if len(c.Conflicts) != 1 || c.Conflicts[0] != want {
		t.Fatalf("conflicts %+v", c.Conflicts)
	}
	if x := excludedOfURI(c, tr.adr1); x == nil || x.Reason != ReasonSuperseded {
		t.Fatalf("adr-0001 %+v", x)
	}
	// Naming the old one keeps it: seeds are never superseded away.
	c = mustCompile(t, tr.world(), Request{URIs: []string{tr.adr1}})
	if entryOf(c, tr.adr1) == nil {
		t.Fatal("named adr-0001 not selected")
	}
	if !hasDiag(c, CodeStaleSeed, tr.adr1) {
		t.Fatalf("a superseded seed is flagged: %+v", c.Diagnostics)
	}
}

func TestB11_ATinyBudget(t *testing.T) {
	tr := newTour()
	r := inInitialize()
	r.BudgetTokens = budget(50)
	c := mustCompile(t, tr.world(), r)
	want := map[string]bool{tr.initialize: true, tr.inv1: true, tr.inv4: true, tr.rootAgents: true}
	for _, e := range c.Selected {
		if !e.Required || !want[e.URI] {
			t.Fatalf("selected %s (required %v)", e.URI, e.Required)
		}
		delete(want, e.URI)
	}
	if len(want) != 0 {
		t.Fatalf("required entries missing: %v", want)
	}
	if !c.Budget.OverBudget || c.Budget.RemainingTokens != 0 {
		t.Fatalf("budget %+v", c.Budget)
	}
	for _, u := range []string{tr.pInit, tr.ops, tr.mainFn} {
		x := excludedOfURI(c, u)
		if x == nil || x.Reason != ReasonBudget || x.CostTokens == 0 || !strings.Contains(x.Detail, "would not fit") {
			t.Fatalf("%s: %+v", u, x)
		}
	}
}

func TestB11b_FirstFitAdmitsASmallLaterEntry(t *testing.T) {
	tr := newTour()
	r := inInitialize()
	r.BudgetTokens = budget(1_000_000)
	full := mustCompile(t, tr.world(), r)
	// Leave room after the required entries for one small commit but not for
	// the bigger entries that come before it in spend order.
	small := entryOf(full, tr.commits[2])
	r.BudgetTokens = budget(full.Budget.RequiredTokens + small.CostTokens)
	c := mustCompile(t, tr.world(), r)
	if entryOf(c, tr.commits[2]) == nil {
		t.Fatal("the small history entry was not admitted")
	}
	if x := excludedOfURI(c, tr.serverFile); x == nil || x.Reason != ReasonBudget {
		t.Fatalf("the big file should not fit: %+v", x)
	}
	if c.Budget.OverBudget || c.Budget.UsedTokens+c.Budget.RemainingTokens != c.Budget.LimitTokens {
		t.Fatalf("budget %+v", c.Budget)
	}
	assertFirstFit(t, c)
}

func TestB13_AnUnsavedEditIsADifferentAnswer(t *testing.T) {
	tr := newTour()
	saved := mustCompile(t, tr.world(), inInitialize())
	tr.b.Overlay("internal/lsp/server.go", "package lsp\n\n// being edited\n")
	local := tr.b.Local("internal/lsp/server.go", Range{StartLine: 50, EndLine: 51})
	c := mustCompile(t, tr.world(), inInitialize())
	if c.Fingerprint == saved.Fingerprint {
		t.Fatal("fingerprint ignores the overlay")
	}
	if c.Git.WorkingTree != "dirty" {
		t.Fatalf("working tree %q", c.Git.WorkingTree)
	}
	e := entryOf(c, local)
	if e == nil || e.Tier != TierKnowledge || e.DiscoveredBy[0].Selector != SelSessionState || e.Relevance != 0.95 {
		t.Fatalf("local %+v", e)
	}
	// An edit elsewhere in the file is worth less.
	tr.b.Local("internal/lsp/server.go", Range{StartLine: 2, EndLine: 3})
	if e := entryOf(mustCompile(t, tr.world(), inInitialize()), local); e == nil || e.Relevance != 0.6 {
		t.Fatalf("local outside the symbol %+v", e)
	}
}

func TestB15_MaxDepthOne(t *testing.T) {
	tr := newTour()
	for _, depth := range []int{0, 1, 2} {
		r := inInitialize()
		r.MaxDepth = &depth
		r.BudgetTokens = budget(1_000_000)
		c := mustCompile(t, tr.world(), r)
		for _, e := range c.Selected {
			if e.Depth > depth && !e.Required {
				t.Fatalf("max_depth %d: %s at depth %d", depth, e.URI, e.Depth)
			}
		}
		if depth == 1 {
			if x := excludedOfURI(c, tr.b.Get(DocURI("docs/lsp.md")).URI); x == nil || x.Reason != ReasonDepth {
				t.Fatalf("the doc one hop past the passage should be a depth exclusion: %+v", x)
			}
		}
	}
}

func TestB17_ByteIdenticalAcrossProcessesAndInputOrder(t *testing.T) {
	r := inInitialize()
	r.Intent = "workspace index"
	r.BudgetTokens = budget(600)
	a := mustJSON(t, mustCompile(t, newTour().world(), r))
	b := mustJSON(t, mustCompile(t, newTour().world(), r))
	if string(a) != string(b) {
		t.Fatal("same request, same world: JSON differs")
	}
	rng := rand.New(rand.NewSource(17))
	for i := 0; i < 20; i++ {
		w := shuffled(newTour().world(), rng)
		c := mustCompile(t, w, r)
		if got := mustJSON(t, c); string(got) != string(a) {
			t.Fatalf("shuffled world %d: JSON differs", i)
		}
		assertSelectedOrder(t, c)
	}
}

func TestB19_ThePolicyInClewTerms(t *testing.T) {
	p := Policy()
	want := map[Tier][]string{
		TierTask: {}, TierGovernance: {"agents", "claim"}, TierSource: {"file", "symbol", "test"},
		TierDecision: {"adr", "passage"}, TierKnowledge: {"doc", "local", "readme"}, TierHistory: {"commit"}, TierOutline: {"outline"},
	}
	for _, tr := range p.Tiers {
		if strings.Join(tr.Kinds, ",") != strings.Join(want[tr.Tier], ",") {
			t.Fatalf("%s kinds %v", tr.Tier, tr.Kinds)
		}
	}
	byEdge := map[string]EdgeRule{}
	for _, e := range p.Edges {
		byEdge[e.Edge] = e
	}
	for _, k := range []string{"anchors", "pins", "covers", "calls", "uses_type", "method_of", "tested_by", "decides", "supersedes", "part_of", "links_to", "changed_in"} {
		e, ok := byEdge[k]
		if !ok || e.Refused || e.Forward == nil || e.Reverse == nil || e.Reason == "" {
			t.Fatalf("followed %s: %+v", k, e)
		}
	}
	if e := byEdge["imports"]; e.Refused || e.Forward == nil || *e.Forward != 0.5 || !e.OutlineOnly || !e.Leaf || !e.Measured {
		t.Fatalf("imports: %+v", e)
	}
	for _, k := range []string{"in_package", "contains", "references"} {
		e, ok := byEdge[k]
		if !ok || !e.Refused || e.Forward != nil || e.Reverse != nil || e.Reason == "" {
			t.Fatalf("refused %s: %+v", k, e)
		}
	}
	if len(p.Selectors) != 8 || p.DefaultBudgetTokens != 24000 || p.DefaultMaxDepth != 3 || p.DefaultFloor != 0.25 || p.BytesPerToken != 4 {
		t.Fatalf("policy %+v", p)
	}
}

func TestErrorsMapToExitCodes(t *testing.T) {
	w := newTour().world()
	zero, neg := uint64(0), -1
	for _, c := range []struct {
		name string
		r    Request
		want error
		exit int
	}{
		{"budget 0", Request{BudgetTokens: &zero}, ErrInvalidRequest, ExitInvalid},
		{"floor above 1", Request{Floor: ptr(1.5)}, ErrInvalidRequest, ExitInvalid},
		{"floor below 0", Request{Floor: ptr(-0.1)}, ErrInvalidRequest, ExitInvalid},
		{"negative depth", Request{MaxDepth: &neg}, ErrInvalidRequest, ExitInvalid},
		{"absolute path", Request{Paths: []string{"/etc"}}, ErrInvalidRequest, ExitInvalid},
		{"dot-dot path", Request{Paths: []string{"a/../../b"}}, ErrInvalidRequest, ExitInvalid},
		{"unknown uri", Request{URIs: []string{"clew://symbol/nope"}}, ErrUnknownTarget, ExitUnknownTarget},
		{"unknown file", at("nope.go", 3), ErrUnknownTarget, ExitUnknownTarget},
	} {
		got, err := Compile(w, c.r)
		if !errors.Is(err, c.want) || ExitCode(got, err) != c.exit {
			t.Errorf("%s: err %v exit %d", c.name, err, ExitCode(got, err))
		}
		if _, err := Explain(w, "clew://x", c.r); !errors.Is(err, c.want) {
			t.Errorf("explain %s: %v", c.name, err)
		}
	}
	if _, err := Explain(w, " ", Request{}); !errors.Is(err, ErrInvalidRequest) {
		t.Error("blank explain uri")
	}
	if ExitCode(mustCompile(t, w, Request{}), nil) != ExitOK {
		t.Error("a fitting answer exits 0")
	}
}

func TestExplainFiveStandings(t *testing.T) {
	tr := newTour()
	w := tr.world()
	r := inInitialize()
	r.BudgetTokens = budget(50)
	for _, c := range []struct {
		uri  string
		want Standing
		has  string
	}{
		{tr.initialize, StandingSelected, "reached by 1 path(s): seed"},
		{tr.pInit, StandingExcluded, "budget"},
		{tr.adr1, StandingExcluded, "superseded"},
		{tr.shutdown, StandingExcluded, "below the floor"},
		{tr.inv3, StandingNotReached, "no selector reached it"},
		{tr.pShutdown, StandingNotReached, "not reached within the floor"},
		{"clew://symbol/nowhere.X", StandingUnknown, "holds nothing"},
	} {
		ex, err := Explain(w, c.uri, r)
		if err != nil {
			t.Fatal(err)
		}
		if ex.Standing != c.want || !strings.Contains(ex.Detail, c.has) || ex.Budget.LimitTokens != 50 {
			t.Errorf("%s: %s %q", c.uri, ex.Standing, ex.Detail)
		}
		if (ex.Entry != nil) != (c.want == StandingSelected) || (ex.Excluded != nil) != (c.want == StandingExcluded) {
			t.Errorf("%s: attachments %+v", c.uri, ex)
		}
	}
	// deduplicated: a doc node for the ADR's own file folds into the ADR.
	tr.b.Doc("docs/adr/0002-init-v2.md", "Initialize returns before indexing finishes.")
	ex, err := Explain(tr.world(), DocURI("docs/adr/0002-init-v2.md"), inInitialize())
	if err != nil || ex.Standing != StandingDeduplicated || ex.Deduplicated == nil || ex.Deduplicated.Kept != tr.adr2 || ex.Deduplicated.Key != "path" {
		t.Fatalf("dedup standing %+v %v", ex, err)
	}
	// A far miss is not listed in the answer; explain still says how close.
	ex, _ = Explain(tr.world(), tr.pShutdown, Request{URIs: []string{tr.pInit}})
	if ex.Standing != StandingNotReached || !strings.Contains(ex.Detail, "below the floor") {
		t.Fatalf("far miss %+v", ex)
	}
}

func TestVersionFoldAndConflict(t *testing.T) {
	tr := newTour()
	v1 := tr.b.Claim("INV-1@1", "active", "old row", true)
	tr.b.Covers(v1, tr.serverFile, true)
	c := mustCompile(t, tr.world(), inInitialize())
	if entryOf(c, v1) != nil {
		t.Fatal("the older revision is selected")
	}
	if x := excludedOfURI(c, v1); x == nil || x.Reason != ReasonSuperseded {
		t.Fatalf("older revision %+v", x)
	}
	found := false
	for _, k := range c.Conflicts {
		found = found || (k.Kind == "version" && k.Against == v1)
	}
	if !found {
		t.Fatalf("no version conflict: %+v", c.Conflicts)
	}
}

func TestIntentMatchesWholeIdentifiers(t *testing.T) {
	if hasWord("Initialized twice", "Initialize", false) || !hasWord("call `Initialize`.", "Initialize", false) ||
		!hasWord("see Server.Initialize", "Initialize", false) || hasWord("xInitialize", "Initialize", false) {
		t.Fatal("symbol terms match whole identifiers")
	}
	if !hasWord("two budgets", "budget", true) || hasWord("overbudget", "budget", true) {
		t.Fatal("intent terms match word prefixes")
	}
	if got := strings.Join(intentTerms("The budget, and the decision-record for is_a X"), " "); got != "budget decision-record is_a" {
		t.Fatalf("terms %q", got)
	}
	// A receiver name alone does not select a doc.
	tr := newTour()
	only := tr.b.Doc("docs/server.md", "The Server type holds the connection.")
	c := mustCompile(t, tr.world(), inInitialize())
	if entryOf(c, only) != nil || excludedOfURI(c, only) != nil {
		t.Fatal("a doc naming only the receiver was selected")
	}
}

func TestChangedInKeepsTheNewestCommits(t *testing.T) {
	tr := newTour()
	var shas []string
	for i := 0; i < 8; i++ {
		sha := strings.Repeat(string(rune('a'+i)), 40)
		shas = append(shas, tr.b.Commit(sha, "2025-0"+string(rune('1'+i))+"-01", "old change"))
		tr.b.Edge(EdgeChangedIn, tr.helper, shas[i])
	}
	c := mustCompile(t, tr.world(), Request{URIs: []string{tr.helper}, BudgetTokens: budget(1_000_000)})
	for i, u := range shas {
		if got := entryOf(c, u) != nil; got != (i >= 3) {
			t.Fatalf("commit %d (%s) selected = %v", i, u, got)
		}
	}
}

func TestCitedCommitsBecomeGitContext(t *testing.T) {
	tr := newTour()
	tr.b.Get(tr.adr2).Cites = []Cite{{Commit: "1111111111111111111111111111111111111111", Covers: "lazy indexing"}, {Commit: "0000"}}
	c := mustCompile(t, tr.world(), inInitialize())
	if len(c.Git.Commits) != 2 || c.Git.Commits[0].Commit != "0000" || c.Git.Commits[1].Covers != "lazy indexing" || c.Git.Commits[1].NamedBy != tr.adr2 {
		t.Fatalf("commits %+v", c.Git.Commits)
	}
}

func TestInnermostDeclarationAtTheCursor(t *testing.T) {
	b := NewBuilder("m")
	b.File("a.go", "package a")
	outer := b.Symbol("a.go", "Outer", 1, 30, "type Outer struct{}")
	inner := b.Symbol("a.go", "Outer.f", 5, 10, "func (Outer) f() {}")
	b.Get(inner).Range = &Range{StartLine: 5, StartCol: 1, EndLine: 10, EndCol: 2}
	w := b.Build()
	for _, c := range []struct {
		line, col int
		want      string
	}{{3, 0, outer}, {5, 0, inner}, {7, 4, inner}, {10, 3, outer}, {31, 0, FileURI("a.go")}} {
		got := mustCompile(t, w, Request{Position: &Position{Path: "a.go", Line: c.line, Column: c.col}})
		if got.Seeds[0].URI != c.want {
			t.Errorf("%d:%d seeds %s, want %s", c.line, c.col, got.Seeds[0].URI, c.want)
		}
	}
}

func TestBrokenWorldsNeverPanic(t *testing.T) {
	b := NewBuilder("m")
	f := b.File("a.go", "x")
	b.Node(Node{URI: f, Kind: KindFile}) // replaced, same uri
	w := b.Build()
	w.Nodes = append(w.Nodes, Node{URI: f, Kind: KindDoc}, Node{}, Node{URI: "clew://symbol/m.x", Kind: KindSymbol, Range: &Range{StartLine: 9, EndLine: 1}})
	w.Edges = append(w.Edges, Edge{}, Edge{Kind: "calls", From: f, To: f}, Edge{Kind: "bogus", From: f, To: "clew://nowhere"},
		Edge{Kind: "supersedes", From: "clew://adr/a", To: "clew://adr/b"}, Edge{Kind: "calls", From: f, To: "clew://symbol/ghost"})
	c := mustCompile(t, w, Request{URIs: []string{f}, Paths: []string{"."}, Intent: "x"})
	if !hasDiag(c, CodeDuplicateNode, "declared twice") {
		t.Fatalf("diagnostics %+v", c.Diagnostics)
	}
	if x := excludedOfURI(c, "clew://symbol/ghost"); x == nil || x.Reason != ReasonUnresolved || x.Tier != TierSource {
		t.Fatalf("ghost %+v", x)
	}
}

func TestContractAgentsBothWays(t *testing.T) {
	tr := newTour()
	c := mustCompile(t, tr.world(), Request{Paths: []string{"."}})
	if e := entryOf(c, tr.internalAgents); e == nil || e.DiscoveredBy[0].Selector != SelContract {
		t.Fatalf("a declared root path holds internal/AGENTS.md: %+v", e)
	}
	c = mustCompile(t, tr.world(), Request{Paths: []string{"docs"}})
	if entryOf(c, tr.internalAgents) != nil {
		t.Fatal("internal/AGENTS.md does not govern docs/")
	}
}

// A Prepared world is read-only: concurrent compiles agree byte for byte.
func TestPreparedIsSafeForConcurrentUse(t *testing.T) {
	tr := newTour()
	p := Prepare(tr.world())
	want := mustJSON(t, mustCompile(t, tr.world(), inInitialize()))
	errs := make(chan string, 8)
	for i := 0; i < 8; i++ {
		go func() {
			c, err := p.Compile(inInitialize())
			if err != nil {
				errs <- err.Error()
				return
			}
			b, _ := Encode(c)
			if string(b) != string(want) {
				errs <- "differs"
				return
			}
			errs <- ""
		}()
	}
	for i := 0; i < 8; i++ {
		if e := <-errs; e != "" {
			t.Fatal(e)
		}
	}
}
