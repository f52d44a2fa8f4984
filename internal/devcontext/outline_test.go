package devcontext

import (
	"strings"
	"testing"
)

// What the spend leaves is filled with outline entries: the signature of a
// declaration candidate that did not fit in full, and of the declarations
// of a file candidate that did not fit whole — never of one shown in full
// or inside a file shown whole. Used = Σ selected costs stays.
func TestOutlinesFillWhatTheSpendLeaves(t *testing.T) {
	seed := SymbolURI("m/g", "X")
	big := SymbolURI("m/g", "Big")   // called by X, too big to fit
	a := SymbolURI("m/f", "A")       // in f.go, co-changed, too big whole
	b := SymbolURI("m/f", "B")       // in f.go, no outline
	inner := SymbolURI("m/g", "X.y") // inside the seed, shown in full
	sig := func(n string) string { return "func " + n + "(ctx context.Context) error" }
	w := World{
		Nodes: []Node{
			{URI: seed, Kind: KindSymbol, Name: "X", Path: "g/g.go", Bytes: 40, Range: &Range{StartLine: 1, EndLine: 9}, Outline: sig("X")},
			{URI: inner, Kind: KindSymbol, Name: "X.y", Path: "g/g.go", Bytes: 8, Range: &Range{StartLine: 3, EndLine: 4}, Outline: sig("y")},
			{URI: big, Kind: KindSymbol, Name: "Big", Path: "g/g.go", Bytes: 4000, Range: &Range{StartLine: 20, EndLine: 90}, Outline: sig("Big")},
			{URI: FileURI("g/g.go"), Kind: KindFile, Path: "g/g.go", Bytes: 6000},
			{URI: FileURI("f/f.go"), Kind: KindFile, Path: "f/f.go", Bytes: 8000},
			{URI: a, Kind: KindSymbol, Name: "A", Path: "f/f.go", Bytes: 900, Range: &Range{StartLine: 2, EndLine: 30}, Outline: sig("A")},
			{URI: b, Kind: KindSymbol, Name: "B", Path: "f/f.go", Bytes: 900, Range: &Range{StartLine: 32, EndLine: 60}},
		},
		Edges: []Edge{
			{Kind: EdgeCalls, From: seed, To: big},
			{Kind: EdgeCoChanged, From: seed, To: FileURI("f/f.go"), Strength: 1},
			{Kind: EdgeSibling, From: seed, To: FileURI("g/g.go"), Strength: 1}, // its decls: X, X.y, Big
		},
	}
	req := Request{URIs: []string{seed}, BudgetTokens: budget(200)}
	c := mustCompile(t, w, req)
	ob, oa := entryOf(c, big), entryOf(c, a)
	if ob == nil || ob.Kind != KindOutline || ob.Tier != TierOutline || ob.Facts[FactSignature] != sig("Big") ||
		ob.Facts[FactFullTokens] != "1000" || ob.CostBytes != len(sig("Big")) || ob.Relevance != 0.7 {
		t.Fatalf("Big's outline %+v", ob)
	}
	if oa == nil || oa.Kind != KindOutline || oa.Relevance != 0.81 || oa.DiscoveredBy[0].Selector != SelOutline ||
		oa.DiscoveredBy[0].Via != FileURI("f/f.go") || !strings.Contains(oa.DiscoveredBy[0].Reason, "did not fit whole") {
		t.Fatalf("A's outline %+v", oa)
	}
	if e := entryOf(c, b); e != nil {
		t.Fatalf("B has no outline, yet %+v", e)
	}
	if e := entryOf(c, inner); e != nil {
		t.Fatalf("X.y is inside the seed, shown in full, yet %+v", e) // offered by g.go, skipped
	}
	// Big is selected as an outline, so it is not also excluded; the file
	// that did not fit still is.
	if x := excludedOfURI(c, big); x != nil {
		t.Fatalf("Big both outlined and excluded: %+v", x)
	}
	if x := excludedOfURI(c, FileURI("f/f.go")); x == nil || x.Reason != ReasonBudget {
		t.Fatalf("f.go exclusion %+v", x)
	}
	// g.go is reached only by sibling, an outline-only edge: never whole,
	// even with room for it.
	if x := excludedOfURI(c, FileURI("g/g.go")); x == nil || x.Reason != ReasonOutlined {
		t.Fatalf("g.go exclusion %+v", x)
	}
	var sum uint64
	for _, e := range c.Selected {
		sum += e.CostTokens
	}
	row := c.Budget.Tiers[len(c.Budget.Tiers)-1]
	if sum != c.Budget.UsedTokens || row.Tier != TierOutline || row.Selected != 2 || row.Tokens != ob.CostTokens+oa.CostTokens {
		t.Fatalf("used %d, Σ %d, outline row %+v", c.Budget.UsedTokens, sum, row)
	}
	ex, err := Explain(w, big, req)
	if err != nil || ex.Standing != StandingSelected || ex.Entry.Kind != KindOutline || !strings.Contains(ex.Detail, "outline tier") {
		t.Fatalf("explain Big: %+v %v", ex, err)
	}
	md := Markdown(c, Texts(w))
	if !strings.Contains(md, "## outline") || !strings.Contains(md, "- `"+sig("Big")+"` — `"+big+"`") {
		t.Fatalf("markdown:\n%s", md)
	}

	// Room for everything: f.go whole, Big in full, no outline at all, and
	// still not g.go whole.
	c = mustCompile(t, w, Request{URIs: []string{seed}, BudgetTokens: budget(100000)})
	for _, e := range c.Selected {
		if e.Kind == KindOutline || e.URI == FileURI("g/g.go") {
			t.Fatalf("%s %s with room for everything", e.Kind, e.URI)
		}
	}
	// A budget that the seed alone fills: no outline either.
	c = mustCompile(t, w, Request{URIs: []string{seed}, BudgetTokens: budget(10)})
	if n := len(c.Selected); n != 1 {
		t.Fatalf("%d entries at the seed's own cost: %+v", n, c.Selected)
	}
}

// The outline reserve: full entries are spent within 3/4 of the limit,
// outlines from the rest, then what did not fit in full gets what the
// outlines left — a file that fits now replaces the outlines inside it,
// a declaration given as an outline is given in full when that fits.
func TestOutlineReserveThenTheRest(t *testing.T) {
	seed := SymbolURI("m/g", "X")
	a := SymbolURI("m/f", "A")
	big := SymbolURI("m/g", "Big")
	w := World{
		Nodes: []Node{
			{URI: seed, Kind: KindSymbol, Name: "X", Path: "g/g.go", Bytes: 40, Range: &Range{StartLine: 1, EndLine: 3}, Outline: "func X()"},
			{URI: FileURI("f/f.go"), Kind: KindFile, Path: "f/f.go", Bytes: 600},
			{URI: a, Kind: KindSymbol, Name: "A", Path: "f/f.go", Bytes: 300, Range: &Range{StartLine: 2, EndLine: 9}, Outline: "func A(x int) error"},
			{URI: big, Kind: KindSymbol, Name: "Big", Path: "g/g.go", Bytes: 640, Range: &Range{StartLine: 5, EndLine: 40}, Outline: "func Big()"},
		},
		Edges: []Edge{
			{Kind: EdgeCoChanged, From: seed, To: FileURI("f/f.go"), Strength: 1},
			{Kind: EdgeCalls, From: seed, To: big},
		},
	}
	// X 10 (required), f.go 150 (0.9), Big 160 (0.7). At 200, the first
	// spend has 150: f.go (10+150) does not fit, nor Big. Outlines: A (5),
	// Big (3). The rest: f.go fits once A's outline goes (10+3+150 = 163).
	c := mustCompile(t, w, Request{URIs: []string{seed}, BudgetTokens: budget(200)})
	if e := entryOf(c, FileURI("f/f.go")); e == nil || e.Kind != KindFile {
		t.Fatalf("f.go not whole: %+v", c.Selected)
	}
	if e := entryOf(c, a); e != nil {
		t.Fatalf("A repeated inside f.go: %+v", e)
	}
	if e := entryOf(c, big); e == nil || e.Kind != KindOutline {
		t.Fatalf("Big: %+v", e)
	}
	if c.Budget.UsedTokens != 163 || excludedOfURI(c, FileURI("f/f.go")) != nil || excludedOfURI(c, big) != nil {
		t.Fatalf("used %d, excluded %+v", c.Budget.UsedTokens, c.Excluded)
	}
	// At 340 the first spend has 255: f.go (160) fits, Big does not; its
	// outline (3) does; then Big in full fits (160+160 = 320): no outline.
	c = mustCompile(t, w, Request{URIs: []string{seed}, BudgetTokens: budget(340)})
	if e := entryOf(c, big); e == nil || e.Kind != KindSymbol {
		t.Fatalf("Big not given in full: %+v", e)
	}
	for _, e := range c.Selected {
		if e.Kind == KindOutline {
			t.Fatalf("outline %s left after its declaration got in full", e.URI)
		}
	}
	if c.Budget.UsedTokens != 320 {
		t.Fatalf("used %d", c.Budget.UsedTokens)
	}
}

// Outlines of equal relevance come in file order — in the seed's file
// nearest the seed first, elsewhere top to bottom — not in the order of
// their names: what is next to the change is read first.
func TestOutlinesNearestTheSeedFirst(t *testing.T) {
	seed := SymbolURI("m/g", "M")
	sig := "func N(x int) error" // every outline costs 5 tokens
	nodes := []Node{
		{URI: seed, Kind: KindSymbol, Name: "M", Path: "g/g.go", Bytes: 40, Range: &Range{StartLine: 50, EndLine: 60}, Outline: sig},
		{URI: FileURI("g/g.go"), Kind: KindFile, Path: "g/g.go", Bytes: 40000},
		{URI: FileURI("f/f.go"), Kind: KindFile, Path: "f/f.go", Bytes: 40000},
	}
	decl := func(path, name string, line int) string {
		u := SymbolURI("m/"+path[:1], name)
		nodes = append(nodes, Node{URI: u, Kind: KindSymbol, Name: name, Path: path, Bytes: 400,
			Range: &Range{StartLine: line, EndLine: line + 3}, Outline: sig})
		return u
	}
	far := decl("g/g.go", "A", 1)      // first by name, 49 lines away
	near := decl("g/g.go", "Z", 64)    // last by name, 4 lines past the seed's end
	before := decl("g/g.go", "Y", 40)  // 10 lines before it
	top := decl("f/f.go", "Zz", 2)     // f.go: top to bottom
	bottom := decl("f/f.go", "Aa", 90) //
	w := World{Nodes: nodes, Edges: []Edge{
		{Kind: EdgeCoChanged, From: seed, To: FileURI("f/f.go"), Strength: 0.5}, // its outlines at 0.405, below g.go's 0.72
	}}
	pos := func(c CompiledContext, u string) int {
		for i, e := range c.Selected {
			if e.URI == u {
				return i
			}
		}
		return -1
	}
	// Required seed 10; the rest are outlines, 5 tokens each.
	c := mustCompile(t, w, Request{Position: &Position{Path: "g/g.go", Line: 55}, BudgetTokens: budget(20)})
	if pos(c, near) < 0 || pos(c, before) < 0 || pos(c, far) >= 0 {
		t.Fatalf("room for two outlines of g.go: want Z and Y (nearest), got %+v", c.Selected)
	}
	c = mustCompile(t, w, Request{Position: &Position{Path: "g/g.go", Line: 55}, BudgetTokens: budget(30)})
	if pos(c, far) < 0 || pos(c, top) < 0 || pos(c, bottom) >= 0 {
		t.Fatalf("room for three of g.go and one of f.go: want A and Zz in, Aa out, got %+v", c.Selected)
	}
}

// A declaration below the outline selector's full_floor, or reached only
// by an outline-only edge, is given as its signature line only — even with
// room for it in full; when its line does not fit it is excluded as
// outlined, never both selected and excluded. Seeds stay in full.
func TestSignatureOnlyBelowTheFullFloor(t *testing.T) {
	seed := SymbolURI("m/g", "X")
	callee := SymbolURI("m/g", "Callee") // 0.7: in full
	deep := SymbolURI("m/g", "Deep")     // 0.7 × 0.7 = 0.49: below 0.5
	imp := SymbolURI("m/h", "Imported")  // reached only by imports (outline-only)
	w := World{
		Nodes: []Node{
			{URI: seed, Kind: KindSymbol, Name: "X", Path: "g/g.go", Bytes: 40, Range: &Range{StartLine: 1, EndLine: 3}, Outline: "func X()"},
			{URI: callee, Kind: KindSymbol, Name: "Callee", Path: "g/g.go", Bytes: 400, Range: &Range{StartLine: 5, EndLine: 20}, Outline: "func Callee()"},
			{URI: deep, Kind: KindSymbol, Name: "Deep", Path: "g/g.go", Bytes: 400, Range: &Range{StartLine: 22, EndLine: 40}, Outline: "func Deep(n int)"},
			{URI: imp, Kind: KindSymbol, Name: "Imported", Path: "h/h.ts", Bytes: 400, Range: &Range{StartLine: 1, EndLine: 9}, Outline: "function Imported()"},
		},
		Edges: []Edge{
			{Kind: EdgeCalls, From: seed, To: callee},
			{Kind: EdgeCalls, From: callee, To: deep},
			{Kind: EdgeImports, From: seed, To: imp, Strength: 1},
		},
	}
	c := mustCompile(t, w, Request{URIs: []string{seed}, BudgetTokens: budget(100000)})
	if e := entryOf(c, seed); e == nil || e.Kind != KindSymbol {
		t.Fatalf("seed: %+v", e)
	}
	if e := entryOf(c, callee); e == nil || e.Kind != KindSymbol {
		t.Fatalf("Callee at 0.7 not in full: %+v", e)
	}
	for _, u := range []string{deep, imp} {
		e := entryOf(c, u)
		if e == nil || e.Kind != KindOutline || e.DiscoveredBy[0].Selector != SelOutline {
			t.Fatalf("%s not given as its signature: %+v", u, e)
		}
		if x := excludedOfURI(c, u); x != nil {
			t.Fatalf("%s both selected and excluded: %+v", u, x)
		}
	}
	if r := entryOf(c, deep).DiscoveredBy[0].Reason; !strings.Contains(r, "full_floor") {
		t.Fatalf("Deep's reason %q does not name the full floor", r)
	}
	if r := entryOf(c, imp).DiscoveredBy[0].Reason; !strings.Contains(r, "outline-only") {
		t.Fatalf("Imported's reason %q does not name the outline-only edge", r)
	}
	// Room for the seed only: Deep and Imported are excluded as outlined
	// (their lines did not fit), not dropped silently.
	c = mustCompile(t, w, Request{URIs: []string{seed}, BudgetTokens: budget(12)})
	for _, u := range []string{deep, imp} {
		if e := entryOf(c, u); e != nil {
			t.Fatalf("%s selected with no room: %+v", u, e)
		}
		if x := excludedOfURI(c, u); x == nil || x.Reason != ReasonOutlined {
			t.Fatalf("%s: %+v, want excluded as outlined", u, x)
		}
	}
	var sum uint64
	for _, e := range c.Selected {
		sum += e.CostTokens
	}
	if sum != c.Budget.UsedTokens || sum > 12 {
		t.Fatalf("used %d, Σ %d", c.Budget.UsedTokens, sum)
	}
	if p := Policy(); p.Selectors[len(p.Selectors)-1].FullFloor != fullFloor {
		t.Fatalf("policy does not publish the full floor: %+v", p.Selectors[len(p.Selectors)-1])
	}
}
