package contextmap_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/span"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// Part B of the public devcontext cases, over a real repository: the
// workspace mapping (which declaration is the seed, which passages bind to
// it and in which anchor state, which claims cover the file, which commits
// touched it) is what these test; devcontext's own tests cover the compiler.

func TestContextB02_CursorOnThePackageClause(t *testing.T) {
	f := newBFixture(t)
	c := compile(t, f.snap, at("internal/lsp/server.go", 1))
	want := []devcontext.Seed{{URI: bServerFile, Kind: devcontext.KindFile, From: devcontext.FromPosition},
		{URI: "internal/lsp/server.go", Kind: devcontext.SeedKindPath, From: devcontext.FromPosition}}
	if len(c.Seeds) != 2 || c.Seeds[0] != want[0] || c.Seeds[1] != want[1] {
		t.Fatalf("seeds %+v", c.Seeds)
	}
	if e := entry(c, bServerFile); e == nil || e.Tier != devcontext.TierTask || !e.Required {
		t.Fatalf("file entry %+v", e)
	}
	// A file seed's history is the commits that changed the file.
	if e := entry(c, devcontext.CommitURI(f.commits[2])); e == nil || e.DiscoveredBy[0].Via != bServerFile {
		t.Fatalf("file history %+v", e)
	}
}

func TestContextB04_AGatingClaimOverTheFileIsRequiredWithoutPinning(t *testing.T) {
	f := newBFixture(t)
	c := compile(t, f.snap, f.in(t, ") Shutdown("))
	if c.Seeds[0].URI != bShutdown {
		t.Fatalf("seed %+v", c.Seeds[0])
	}
	e := entry(c, bClaim("INV-1"))
	if e == nil || !e.Required {
		t.Fatalf("INV-1 %+v", e)
	}
	for _, d := range e.DiscoveredBy {
		if d.Selector != devcontext.SelContract && d.Edge != devcontext.EdgeCovers {
			t.Fatalf("INV-1 reached by %s (%s) from Shutdown: its pin is inside Initialize", d.Selector, d.Edge)
		}
	}
	// INV-1 pins Initialize: from there it is reached by its pin too.
	c = compile(t, f.snap, f.in(t, ") Initialize("))
	pinned := false
	for _, d := range entry(c, bClaim("INV-1")).DiscoveredBy {
		pinned = pinned || d.Edge == devcontext.EdgePins
	}
	if !pinned {
		t.Fatal("INV-1's pin inside Initialize is not an edge")
	}
}

func TestContextB05_APassageAnchoredToTheSymbol(t *testing.T) {
	f := newBFixture(t)
	c := compile(t, f.snap, f.in(t, ") Initialize("))
	if c.Seeds[0].URI != bInitialize {
		t.Fatalf("seed %+v", c.Seeds)
	}
	e := entry(c, bPInit)
	if e == nil || e.Tier != devcontext.TierDecision || e.Relevance != 0.9 || e.Confidence != 1 || e.Facts["anchor"] != "fresh" {
		t.Fatalf("passage %+v", e)
	}
	d := e.DiscoveredBy[0]
	if d.Selector != devcontext.SelRelation || d.Edge != devcontext.EdgeAnchors || d.Via != bInitialize || d.Weight != 0.9 {
		t.Fatalf("discovery %+v", d)
	}
	// Shutdown's stale passage is not reached from Initialize; it is listed
	// only because its doc is selected whole and leaves it out.
	if entry(c, bPShutdown) != nil {
		t.Fatal("Shutdown's stale passage is selected from Initialize")
	}
	if x := excluded(c, bPShutdown); entry(c, devcontext.DocURI("docs/lsp.md")) == nil && x != nil {
		t.Fatalf("Shutdown's passage is reached from Initialize: %+v", x)
	} else if x != nil && (x.Reason != devcontext.ReasonStale || !strings.Contains(x.Detail, "selected whole")) {
		t.Fatalf("Shutdown's passage, left out of its doc: %+v", x)
	}
}

func TestContextB06_StaleExcludedLostUnresolvedMovedKept(t *testing.T) {
	f := newBFixture(t)
	c := compile(t, f.snap, f.in(t, ") Shutdown("))
	x := excluded(c, bPShutdown)
	if entry(c, bPShutdown) != nil || x == nil || x.Reason != devcontext.ReasonStale || !strings.Contains(x.Detail, "body_changed") {
		t.Fatalf("stale passage: %+v", x)
	}
	// The Legacy passage mentions Shutdown; its anchor is lost.
	x = excluded(c, bPLegacy)
	if entry(c, bPLegacy) != nil || x == nil || x.Reason != devcontext.ReasonUnresolved || !strings.Contains(x.Detail, "lost") {
		t.Fatalf("lost passage: %+v", x)
	}
	c = compile(t, f.snap, f.in(t, ") Run("))
	if entry(c, bPStart) == nil || !hasDiagnostic(c, devcontext.CodeMovedAnchor, "Server.Start") {
		t.Fatalf("moved passage not kept with a warning: %+v", c.Diagnostics)
	}
	if !hasDiagnostic(c, devcontext.CodeMovedAnchor, "renamed to Server.Run") {
		t.Fatalf("the warning does not say where it went: %+v", c.Diagnostics)
	}
}

func TestContextB07_AStaleSeedIsKept(t *testing.T) {
	f := newBFixture(t)
	c := compile(t, f.snap, devcontext.Request{URIs: []string{bPShutdown}})
	if e := entry(c, bPShutdown); e == nil || !e.Required || e.Tier != devcontext.TierTask {
		t.Fatalf("stale seed %+v", e)
	}
	if !hasDiagnostic(c, devcontext.CodeStaleSeed, bPShutdown) {
		t.Fatalf("diagnostics %+v", c.Diagnostics)
	}
}

func TestContextB07c_ALostSeedIsKeptAndItsTargetReported(t *testing.T) {
	f := newBFixture(t)
	c := compile(t, f.snap, devcontext.Request{URIs: []string{bPLegacy}, BudgetTokens: budgetOf(1_000_000)})
	if entry(c, bPLegacy) == nil {
		t.Fatal("lost seed not kept")
	}
	if !hasDiagnostic(c, devcontext.CodeUnresolvedReference, "Server.Legacy") {
		t.Fatalf("diagnostics %+v", c.Diagnostics)
	}
	if entry(c, bLegacy) != nil {
		t.Fatal("an entry for a declaration that does not exist")
	}
	if x := excluded(c, bLegacy); x == nil || x.Reason != devcontext.ReasonUnresolved {
		t.Fatalf("dangling target %+v", x)
	}
}

func TestContextB09_ASupersededDecision(t *testing.T) {
	f := newBFixture(t)
	c := compile(t, f.snap, f.in(t, ") Initialize("))
	want := devcontext.Conflict{Current: bADR2, Against: bADR1, Kind: "supersedes", Detail: bADR2 + " supersedes " + bADR1}
	if len(c.Conflicts) != 1 || c.Conflicts[0] != want {
		t.Fatalf("conflicts %+v", c.Conflicts)
	}
	if x := excluded(c, bADR1); x == nil || x.Reason != devcontext.ReasonSuperseded {
		t.Fatalf("adr-0001 %+v", x)
	}
	if e := entry(c, bADR2); e == nil || e.Status != "accepted" {
		t.Fatalf("adr-0002 %+v", e)
	}
	c = compile(t, f.snap, devcontext.Request{URIs: []string{bADR1}})
	if entry(c, bADR1) == nil || !hasDiagnostic(c, devcontext.CodeStaleSeed, bADR1) {
		t.Fatalf("named adr-0001: %+v", c.Diagnostics)
	}
	// The file stem names the ADR too.
	c = compile(t, f.snap, devcontext.Request{URIs: []string{devcontext.ADRURI("0001-init")}})
	if c.Seeds[0].Resolved != bADR1 {
		t.Fatalf("alias seed %+v", c.Seeds[0])
	}
}

func TestContextB11_ATinyBudget(t *testing.T) {
	f := newBFixture(t)
	r := f.in(t, ") Initialize(")
	r.BudgetTokens = budgetOf(50)
	c := compile(t, f.snap, r)
	want := map[string]bool{bInitialize: true, bClaim("INV-1"): true, bClaim("INV-4"): true, bRootAgents: true}
	for _, e := range c.Selected {
		if !e.Required || !want[e.URI] {
			t.Fatalf("selected %s (required %v)", e.URI, e.Required)
		}
		delete(want, e.URI)
	}
	if len(want) != 0 {
		t.Fatalf("required entries missing: %v", want)
	}
	if !c.Budget.OverBudget || c.Budget.RemainingTokens != 0 || devcontext.ExitCode(c, nil) != devcontext.ExitOverBudget {
		t.Fatalf("budget %+v", c.Budget)
	}
	for _, u := range []string{bPInit, bOps, bMain} {
		if x := excluded(c, u); x == nil || x.Reason != devcontext.ReasonBudget || x.CostTokens == 0 {
			t.Fatalf("%s: %+v", u, x)
		}
	}
}

func TestContextB13_AnUnsavedEditIsADifferentAnswer(t *testing.T) {
	f := newBFixture(t)
	r := f.in(t, ") Initialize(")
	saved := compile(t, f.snap, r)
	if saved.Git.WorkingTree != "clean" {
		t.Fatalf("working tree %q", saved.Git.WorkingTree)
	}
	src, _ := f.snap.ReadFile("internal/lsp/server.go")
	edited := strings.Replace(string(src), "\ts.loaded++\n", "\ts.loaded += 2\n", 1)
	over := f.snap.WithOverlays(map[string][]byte{"internal/lsp/server.go": []byte(edited)})
	c := compile(t, over, r)
	if c.Fingerprint == saved.Fingerprint {
		t.Fatal("fingerprint ignores the overlay")
	}
	if c.Git.WorkingTree != "dirty" {
		t.Fatalf("working tree %q", c.Git.WorkingTree)
	}
	local := devcontext.LocalDiffURI("internal/lsp/server.go")
	e := entry(c, local)
	if e == nil || e.Tier != devcontext.TierKnowledge || e.DiscoveredBy[0].Selector != devcontext.SelSessionState || e.Relevance != 0.95 {
		t.Fatalf("local %+v", e)
	}
	// An edit outside Initialize is worth less.
	elsewhere := strings.Replace(string(src), "// Server is the clew", "// Server is the whole clew", 1)
	c = compile(t, f.snap.WithOverlays(map[string][]byte{"internal/lsp/server.go": []byte(elsewhere)}), r)
	if e := entry(c, local); e == nil || e.Relevance != 0.6 {
		t.Fatalf("local outside the symbol %+v", e)
	}
	// The same edit saved to disk (not committed) is dirty too.
	f.r.Write(map[string]string{"internal/lsp/server.go": edited})
	c = compile(t, f.load(t), r)
	if c.Git.WorkingTree != "dirty" || entry(c, local) == nil {
		t.Fatalf("an uncommitted change on disk: %q", c.Git.WorkingTree)
	}
}

func TestContextB15_MaxDepth(t *testing.T) {
	f := newBFixture(t)
	for _, depth := range []int{0, 1, 2} {
		r := f.in(t, ") Initialize(")
		r.MaxDepth = &depth
		r.BudgetTokens = budgetOf(1_000_000)
		c := compile(t, f.snap, r)
		for _, e := range c.Selected {
			if e.Depth > depth && !e.Required {
				t.Fatalf("max_depth %d: %s at depth %d", depth, e.URI, e.Depth)
			}
		}
	}
}

func TestContextB17_ByteIdenticalAcrossSnapshotsAndProcesses(t *testing.T) {
	f := newBFixture(t)
	r := f.in(t, ") Initialize(")
	r.Intent = "workspace root"
	r.BudgetTokens = budgetOf(700)
	a := encode(t, compile(t, f.snap, r))
	if b := encode(t, compile(t, f.snap, r)); !bytes.Equal(a, b) {
		t.Fatal("same request, same snapshot: JSON differs")
	}
	// A fresh snapshot of the same tree (a new process would load one).
	if b := encode(t, compile(t, f.load(t), r)); !bytes.Equal(a, b) {
		t.Fatalf("same request, fresh snapshot: JSON differs\n%s\n---\n%s", a, b)
	}
	// A cursor elsewhere in the same declaration is the same answer.
	r2 := r
	r2.Position = &devcontext.Position{Path: "internal/lsp/server.go", Line: lineOf(t, f.snap, "internal/lsp/server.go", "helper()")}
	if b := encode(t, compile(t, f.snap, r2)); !bytes.Equal(a, b) {
		t.Fatal("another line of Initialize: JSON differs")
	}
}

func TestContextB19_PolicyPassthrough(t *testing.T) {
	if got, want := encode(t, contextmap.Policy()), encode(t, devcontext.Policy()); !bytes.Equal(got, want) {
		t.Fatal("Policy is not devcontext.Policy")
	}
}

// TestContextTheWorkspaceGraph checks the edges the workspace layer draws:
// callers and callees through the declaration index, tests by name,
// commits that touched the declaration, AGENTS.md from the root down, the
// docs that mention it.
func TestContextTheWorkspaceGraph(t *testing.T) {
	f := newBFixture(t)
	r := f.in(t, ") Initialize(")
	r.BudgetTokens = budgetOf(1_000_000)
	c := compile(t, f.snap, r)
	type want struct {
		uri      string
		tier     devcontext.Tier
		selector devcontext.Selector
		edge     string
		required bool
	}
	for _, w := range []want{
		{bHelper, devcontext.TierSource, devcontext.SelRelation, devcontext.EdgeCalls, false},
		{bMain, devcontext.TierSource, devcontext.SelRelation, devcontext.EdgeCalls, false},
		{bTestInit, devcontext.TierSource, devcontext.SelRelation, devcontext.EdgeTestedBy, false},
		{bServer, devcontext.TierSource, devcontext.SelRelation, devcontext.EdgeMethodOf, false},
		{bRootAgents, devcontext.TierGovernance, devcontext.SelGovernance, "", true},
		{bIntAgents, devcontext.TierGovernance, devcontext.SelContract, "", false},
		{bOps, devcontext.TierKnowledge, devcontext.SelIntentMatch, "", false},
		{bReadme, devcontext.TierKnowledge, devcontext.SelIntentMatch, "", false},
		{bLspDoc, devcontext.TierKnowledge, devcontext.SelRelation, devcontext.EdgePartOf, false},
		{devcontext.FileURI("internal/lsp/server_test.go"), devcontext.TierSource, devcontext.SelScopePath, "", false},
	} {
		e := entry(c, w.uri)
		if e == nil && w.selector == devcontext.SelRelation && containedIn(c, w.uri) != "" {
			// Inside a file selected whole: not repeated, but the world
			// holds the relation that reached it.
			if !worldHasEdge(t, f.snap, r, w.edge, w.uri) {
				t.Errorf("%s: no %s edge in the world", w.uri, w.edge)
			}
			continue
		}
		if e == nil {
			t.Errorf("%s not selected", w.uri)
			continue
		}
		ok := false
		for _, d := range e.DiscoveredBy {
			ok = ok || (d.Selector == w.selector && d.Edge == w.edge)
		}
		if e.Tier != w.tier || !ok || e.Required != w.required {
			t.Errorf("%s: tier %s required %v discovered %+v", w.uri, e.Tier, e.Required, e.DiscoveredBy)
		}
	}
	// History: the three commits that changed Initialize's tokens, newest
	// first by date; the later commits that did not touch it are not there.
	var commits []string
	for _, e := range c.Selected {
		if e.Kind == devcontext.KindCommit {
			commits = append(commits, e.URI)
			if e.Tier != devcontext.TierHistory || e.DiscoveredBy[0].Edge != devcontext.EdgeChangedIn || e.Version == "" {
				t.Errorf("commit %+v", e)
			}
		}
	}
	if len(commits) != 3 {
		t.Fatalf("commits %v, want the three that touched Initialize", commits)
	}
	for _, sha := range f.commits {
		if entry(c, devcontext.CommitURI(sha)) == nil {
			t.Errorf("commit %s is missing", sha)
		}
	}
	// Governance: required claims are the gating ones over the file.
	for id, req := range map[string]bool{"INV-1": true, "INV-4": true, "INV-2": false, "INV-6": false} {
		if e := entry(c, bClaim(id)); e == nil || e.Required != req || e.Facts["state"] == "" {
			t.Errorf("%s: %+v", id, e)
		}
	}
	if x := excluded(c, bClaim("INV-5")); x == nil || x.Reason != devcontext.ReasonStale {
		t.Errorf("INV-5 (retired, not gating) %+v", x)
	}
}

// TestContextTourStalePassage compiles inside Cache.Lookup in
// examples/tour: the seed is the innermost declaration and the passage
// whose anchor went stale is excluded as stale, never selected.
func TestContextTourStalePassage(t *testing.T) {
	r := tourRepo(t)
	snap, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	lookup := devcontext.SymbolURI("resolver", "Cache.Lookup")
	stale := devcontext.PassageURI("docs/architecture.md", "Cache.Lookup", 1)
	line := lineOf(t, snap, "resolver/resolve.go", "c.hits += 2")
	for _, budget := range []uint64{50, 24000, 1_000_000} {
		c := compile(t, snap, devcontext.Request{Position: &devcontext.Position{Path: "resolver/resolve.go", Line: line}, BudgetTokens: &budget})
		if c.Seeds[0].URI != lookup || c.Seeds[0].Kind != devcontext.KindSymbol {
			t.Fatalf("seed %+v", c.Seeds[0])
		}
		x := excluded(c, stale)
		if entry(c, stale) != nil || x == nil || x.Reason != devcontext.ReasonStale || !strings.Contains(x.Detail, "body_changed") {
			t.Fatalf("budget %d: stale passage %+v", budget, x)
		}
	}
	// Innermost: a field line seeds the field, inside its struct.
	c := compile(t, snap, at("resolver/resolve.go", lineOf(t, snap, "resolver/resolve.go", "hits    int")))
	if c.Seeds[0].URI != devcontext.SymbolURI("resolver", "Cache.hits") {
		t.Fatalf("field seed %+v", c.Seeds[0])
	}
	// The doc comment belongs to its declaration.
	c = compile(t, snap, at("resolver/resolve.go", lineOf(t, snap, "resolver/resolve.go", "// Lookup returns")))
	if c.Seeds[0].URI != lookup {
		t.Fatalf("doc comment seed %+v", c.Seeds[0])
	}
	// Other languages: a Python function, a TypeScript method.
	c = compile(t, snap, at("tools/report.py", lineOf(t, snap, "tools/report.py", "counts = {}")))
	if c.Seeds[0].URI != devcontext.SymbolURI("tools/report", "summarize") {
		t.Fatalf("python seed %+v", c.Seeds[0])
	}
	c = compile(t, snap, at("web/src/badge.ts", lineOf(t, snap, "web/src/badge.ts", "return")))
	if c.Seeds[0].URI != devcontext.SymbolURI("web/src/badge", "Badge.render") {
		t.Fatalf("typescript seed %+v", c.Seeds[0])
	}
}

func TestContextMarkdownIsAProjectionOfTheJSON(t *testing.T) {
	f := newBFixture(t)
	r := f.in(t, ") Initialize(")
	md, c, err := contextmap.Markdown(context.Background(), f.snap, r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encode(t, c), encode(t, compile(t, f.snap, r))) {
		t.Fatal("Markdown compiled another answer")
	}
	// Decoding the JSON and rendering again gives the same document: the
	// Markdown carries nothing the JSON does not (besides entry texts).
	var back devcontext.CompiledContext
	if err := json.Unmarshal(encode(t, c), &back); err != nil {
		t.Fatal(err)
	}
	texts, err := contextmap.Texts(context.Background(), f.snap, r, back)
	if err != nil {
		t.Fatal(err)
	}
	if devcontext.Markdown(back, texts) != md {
		t.Fatal("the Markdown of the decoded JSON differs")
	}
	for _, e := range c.Selected {
		if !strings.Contains(md, "`"+e.URI+"`") {
			t.Errorf("entry %s is not in the Markdown", e.URI)
		}
	}
	for _, x := range c.Excluded {
		if !strings.Contains(md, x.URI) {
			t.Errorf("exclusion %s is not in the Markdown", x.URI)
		}
	}
	if !strings.Contains(md, "func (s *Server) Initialize(") || !strings.Contains(md, "Initialize loads the workspace once") {
		t.Error("the Markdown lacks the texts of the seed and its passage")
	}
}

func TestContextExplain(t *testing.T) {
	f := newBFixture(t)
	r := f.in(t, ") Initialize(")
	r.BudgetTokens = budgetOf(50)
	for _, c := range []struct {
		uri  string
		want devcontext.Standing
	}{
		{bInitialize, devcontext.StandingSelected},
		{bPInit, devcontext.StandingExcluded},
		{bADR1, devcontext.StandingExcluded},
		{bPShutdown, devcontext.StandingNotReached},
		{devcontext.SymbolURI(bModule+"/internal/lsp", "Nowhere"), devcontext.StandingUnknown},
	} {
		ex, err := contextmap.Explain(context.Background(), f.snap, c.uri, r)
		if err != nil {
			t.Fatal(err)
		}
		if ex.Standing != c.want || ex.Budget.LimitTokens != 50 {
			t.Errorf("%s: %s %q", c.uri, ex.Standing, ex.Detail)
		}
	}
	// A declaration no request parsed is still found to explain it.
	ex, err := contextmap.Explain(context.Background(), f.snap, bMain, at("docs/../internal/lsp/server.go", 1))
	if err == nil {
		t.Fatalf("an invalid path was accepted: %+v", ex)
	}
	ex, err = contextmap.Explain(context.Background(), f.snap, bMain, devcontext.Request{URIs: []string{bRootAgents}})
	if err != nil || ex.Standing != devcontext.StandingNotReached {
		t.Fatalf("main under a request that does not reach it: %+v %v", ex, err)
	}
}

func TestContextErrors(t *testing.T) {
	f := newBFixture(t)
	zero := uint64(0)
	for _, c := range []struct {
		name string
		r    devcontext.Request
		want error
	}{
		{"a file outside the workspace", at("nope/missing.go", 3), devcontext.ErrUnknownTarget},
		{"an unknown uri", devcontext.Request{URIs: []string{devcontext.SymbolURI(bModule, "Nope")}}, devcontext.ErrUnknownTarget},
		{"budget 0", devcontext.Request{BudgetTokens: &zero}, devcontext.ErrInvalidRequest},
		{"line 0", at("internal/lsp/server.go", 0), devcontext.ErrInvalidRequest},
	} {
		_, err := contextmap.Compile(context.Background(), f.snap, c.r)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := contextmap.Compile(ctx, f.load(t), at("internal/lsp/server.go", 3)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	// A symbol named by uri in a file no cursor parsed is found.
	c := compile(t, f.snap, devcontext.Request{URIs: []string{bMain}})
	if entry(c, bMain) == nil || c.Seeds[0].URI != bMain {
		t.Fatalf("uri seed %+v", c.Seeds)
	}
}

func TestContextPositionFromTheEditor(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{"a.go": "package a\n\n// 😀 smile\nfunc F() int { return 1 }\nfunc G() int { return 2 }\n"})
	r.Commit("a")
	snap, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	// 0-based line 2, UTF-16 column 6 is after "// ", the emoji (2 units,
	// 4 bytes) and a space: byte 8, 1-based column 9.
	p, err := contextmap.Position(snap, "a.go", span.Position{Line: 2, Col: 6}, span.UTF16)
	if err != nil || p.Line != 3 || p.Column != 9 {
		t.Fatalf("position %+v %v", p, err)
	}
	c := compile(t, snap, devcontext.Request{Position: &p})
	if c.Seeds[0].URI != "clew://symbol/F" {
		t.Fatalf("seed %+v", c.Seeds[0])
	}
	// No git: the working tree is unavailable, and nothing fails.
	plain := t.TempDir()
	if err := os.WriteFile(filepath.Join(plain, "b.py"), []byte("def f():\n    return 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ps, err := disk.Load(plain)
	if err != nil {
		t.Fatal(err)
	}
	c = compile(t, ps, at("b.py", 2))
	if c.Git.WorkingTree != "unavailable: not a git repository" || c.Seeds[0].URI != "clew://symbol/b.f" {
		t.Fatalf("plain directory: %+v %+v", c.Git, c.Seeds)
	}
}

// One snapshot serves concurrent requests (the server does): the answers
// are the ones a lone request gets, byte for byte.
func TestContextConcurrentRequests(t *testing.T) {
	f := newBFixture(t)
	reqs := []devcontext.Request{f.in(t, ") Initialize("), f.in(t, ") Shutdown("), f.in(t, ") Run("), at("internal/lsp/server.go", 1),
		{URIs: []string{bMain}}, at("internal/cmd/main.go", 11)}
	fresh := f.load(t)
	want := make([][]byte, len(reqs))
	for i, r := range reqs {
		want[i] = encode(t, compile(t, f.snap, r))
	}
	errs := make(chan string, 4*len(reqs))
	for round := 0; round < 4; round++ {
		for i, r := range reqs {
			go func() {
				c, err := contextmap.Compile(context.Background(), fresh, r)
				var got []byte
				if err == nil {
					got, err = devcontext.Encode(c)
				}
				switch {
				case err != nil:
					errs <- err.Error()
				case !bytes.Equal(got, want[i]):
					errs <- "request " + strings.Repeat("I", i+1) + " differs"
				default:
					errs <- ""
				}
			}()
		}
	}
	for range 4 * len(reqs) {
		if e := <-errs; e != "" {
			t.Fatal(e)
		}
	}
}

// Explain judges the answer Context gives: for every entry and exclusion of
// a compile, explaining its uri reports the same standing.
func TestContextExplainAgreesWithContext(t *testing.T) {
	f := newBFixture(t)
	for _, r := range []devcontext.Request{f.in(t, ") Initialize("), f.in(t, ") Shutdown(")} {
		r.BudgetTokens = budgetOf(300)
		c := compile(t, f.snap, r)
		check := func(uri string, want devcontext.Standing) {
			ex, err := contextmap.Explain(context.Background(), f.snap, uri, r)
			if err != nil || ex.Standing != want {
				t.Errorf("%s: %s (%v), want %s", uri, ex.Standing, err, want)
			}
		}
		for _, e := range c.Selected {
			check(e.URI, devcontext.StandingSelected)
		}
		for _, x := range c.Excluded {
			check(x.URI, devcontext.StandingExcluded)
		}
		// A uri that names nothing is unknown.
		check(bMain+"x", devcontext.StandingUnknown)
	}
}

// containedIn is the whole file a declaration was left out in favour of.
func containedIn(c devcontext.CompiledContext, uri string) string {
	for _, d := range c.Deduplicated {
		if d.Key == "contained" && slices.Contains(d.Dropped, uri) {
			return d.Kept
		}
	}
	return ""
}

func worldHasEdge(t *testing.T, snap *workspace.Snapshot, r devcontext.Request, kind, uri string) bool {
	t.Helper()
	edges, err := contextmap.WorldEdges(context.Background(), snap, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edges {
		if e.Kind == kind && (e.From == uri || e.To == uri) {
			return true
		}
	}
	return false
}
