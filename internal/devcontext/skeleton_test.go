package devcontext

import (
	"strconv"
	"strings"
	"testing"
)

// skeletonWorld: a class C (4,000 bytes, 1,000 tokens) with two methods,
// one of them holding a nested function, a caller of C elsewhere, and the
// seed's file, too big to give whole at small budgets.
func skeletonWorld() World {
	c := SymbolURI("p/m", "C")
	return World{
		Nodes: []Node{
			{URI: c, Kind: KindSymbol, Name: "C", Path: "p/m.py", Bytes: 4000, Range: &Range{StartLine: 10, EndLine: 90}, Outline: "class C(Base):"},
			{URI: SymbolURI("p/m", "C.b"), Kind: KindSymbol, Name: "C.b", Path: "p/m.py", Bytes: 2000, Range: &Range{StartLine: 50, EndLine: 90}, Outline: "def b(self):"},
			{URI: SymbolURI("p/m", "C.a"), Kind: KindSymbol, Name: "C.a", Path: "p/m.py", Bytes: 1200, Range: &Range{StartLine: 20, EndLine: 45}, Outline: "def a(self, x):"},
			{URI: SymbolURI("p/m", "C.a.inner"), Kind: KindSymbol, Name: "C.a.inner", Path: "p/m.py", Bytes: 200, Range: &Range{StartLine: 30, EndLine: 34}, Outline: "def inner():"},
			{URI: SymbolURI("p/m", "after"), Kind: KindSymbol, Name: "after", Path: "p/m.py", Bytes: 80, Range: &Range{StartLine: 92, EndLine: 94}, Outline: "def after():"},
			{URI: FileURI("p/m.py"), Kind: KindFile, Path: "p/m.py", Bytes: 9000},
			{URI: SymbolURI("p/n", "use"), Kind: KindSymbol, Name: "use", Path: "p/n.py", Bytes: 400, Range: &Range{StartLine: 1, EndLine: 9}, Outline: "def use(c):"},
		},
		Edges: []Edge{{Kind: EdgeCalls, From: SymbolURI("p/n", "use"), To: c}},
	}
}

// A seed declaration costing more than skeleton_share of the limit is
// given as its skeleton: its signature and, indented by nesting, those of
// the declarations inside it, in source order; required, task tier, its
// cost the skeleton's; the declarations inside are not outlined again, and
// the tokens it frees go to the rest. With room, it is given in full.
func TestLargeSeedIsGivenAsItsSkeleton(t *testing.T) {
	w := skeletonWorld()
	seed := SymbolURI("p/m", "C")
	req := Request{Position: &Position{Path: "p/m.py", Line: 12}, BudgetTokens: budget(1000)}
	c := mustCompile(t, w, req)
	e := entryOf(c, seed)
	want := "class C(Base):\n    def a(self, x):\n        def inner():\n    def b(self):"
	if e == nil || e.Kind != KindSkeleton || e.Tier != TierTask || !e.Required || e.Facts[FactSkeleton] != want ||
		e.Facts[FactMembers] != "3" || e.Facts[FactFullTokens] != "1000" || e.CostBytes != len(want) || e.CostTokens != TokensFor(len(want)) {
		t.Fatalf("seed entry %+v", e)
	}
	for _, m := range []string{"C.a", "C.b", "C.a.inner"} {
		if o := entryOf(c, SymbolURI("p/m", m)); o != nil {
			t.Fatalf("%s is in the skeleton, yet also %+v", m, o)
		}
	}
	// What the full seed would have taken goes to the caller (in full) and
	// the outline of the file's other declaration.
	if u := entryOf(c, SymbolURI("p/n", "use")); u == nil || u.Kind != KindSymbol {
		t.Fatalf("the caller: %+v", u)
	}
	if a := entryOf(c, SymbolURI("p/m", "after")); a == nil || a.Kind != KindOutline {
		t.Fatalf("after: %+v", a)
	}
	var sum uint64
	for _, s := range c.Selected {
		sum += s.CostTokens
	}
	if sum != c.Budget.UsedTokens || c.Budget.OverBudget {
		t.Fatalf("used %d, Σ %d, over %v", c.Budget.UsedTokens, sum, c.Budget.OverBudget)
	}
	ex, err := Explain(w, seed, req)
	if err != nil || ex.Standing != StandingSelected || !strings.Contains(ex.Detail, "skeleton_share 0.5") || !strings.Contains(ex.Detail, "1000 tokens") {
		t.Fatalf("explain: %+v %v", ex, err)
	}
	md := Markdown(c, Texts(w))
	if !strings.Contains(md, want) {
		t.Fatalf("markdown lacks the skeleton:\n%s", md)
	}
	if p := Policy(); p.Selectors[0].Selector != SelSeed || p.Selectors[0].SkeletonShare != skeletonShare || p.Selectors[0].Means == "" {
		t.Fatalf("policy seed rule %+v", p.Selectors[0])
	}

	// At the share exactly (1,000 tokens of 2,000) and above: in full.
	for _, b := range []uint64{2000, 24000} {
		c := mustCompile(t, w, Request{Position: req.Position, BudgetTokens: budget(b)})
		if e := entryOf(c, seed); e == nil || e.Kind != KindSymbol || e.CostTokens != 1000 {
			t.Fatalf("at %d: %+v", b, e)
		}
	}
	// Identical requests, identical answers.
	if a, b := string(mustJSON(t, c)), string(mustJSON(t, mustCompile(t, w, req))); a != b {
		t.Fatal("two compiles of one request differ")
	}
}

// A seed with nothing inside it, or whose skeleton would cost as much as
// it does, stays in full, over the budget if need be (it is required).
func TestSeedWithoutMembersStaysInFull(t *testing.T) {
	w := skeletonWorld()
	c := mustCompile(t, w, Request{URIs: []string{SymbolURI("p/n", "use")}, BudgetTokens: budget(50)})
	if e := entryOf(c, SymbolURI("p/n", "use")); e == nil || e.Kind != KindSymbol || !c.Budget.OverBudget {
		t.Fatalf("use: %+v, over %v", e, c.Budget.OverBudget)
	}
	// C whose members' lines are longer than its text: no skeleton.
	for i := range w.Nodes {
		if w.Nodes[i].Name == "C" {
			w.Nodes[i].Bytes = 60
		}
	}
	c = mustCompile(t, w, Request{URIs: []string{SymbolURI("p/m", "C")}, BudgetTokens: budget(20)})
	if e := entryOf(c, SymbolURI("p/m", "C")); e == nil || e.Kind != KindSymbol || e.CostTokens != 15 {
		t.Fatalf("C at 60 bytes: %+v", e)
	}
}

// A file reached only by co_changed below outline_below is given as its
// declarations' outlines; one with no declarations (a changelog, a
// non-Markdown doc) is then not given at all, and says so. At or above
// outline_below it is a whole-file candidate.
func TestWeakCoChangedFileWithoutDeclarationsIsNotGiven(t *testing.T) {
	seed := SymbolURI("m/g", "X")
	for _, tc := range []struct {
		strength float64
		whole    bool
	}{{0.5, false}, {0.74, false}, {0.75, true}, {1, true}} {
		w := World{
			Nodes: []Node{
				{URI: seed, Kind: KindSymbol, Name: "X", Path: "g/g.go", Bytes: 40, Range: &Range{StartLine: 1, EndLine: 3}, Outline: "func X()"},
				{URI: FileURI("CHANGES"), Kind: KindFile, Path: "CHANGES", Bytes: 800},
			},
			Edges: []Edge{{Kind: EdgeCoChanged, From: seed, To: FileURI("CHANGES"), Strength: tc.strength}},
		}
		c := mustCompile(t, w, Request{URIs: []string{seed}, BudgetTokens: budget(24000)})
		e, x := entryOf(c, FileURI("CHANGES")), excludedOfURI(c, FileURI("CHANGES"))
		if tc.whole {
			if e == nil || e.Kind != KindFile || x != nil {
				t.Fatalf("strength %v: entry %+v, excluded %+v", tc.strength, e, x)
			}
			continue
		}
		if e != nil || x == nil || x.Reason != ReasonOutlined || !strings.Contains(x.Detail, "no declarations to outline") {
			t.Fatalf("strength %v: entry %+v, excluded %+v", tc.strength, e, x)
		}
		if c.Budget.UsedTokens != 10 {
			t.Fatalf("strength %v: used %s", tc.strength, strconv.FormatUint(c.Budget.UsedTokens, 10))
		}
	}
}

// A file seed (the cursor outside any declaration) costing more than
// file_skeleton_share (2×) of the limit is given as its skeleton: its path,
// then every declaration's signature line, nested ones indented deeper;
// none of them is outlined again. At 2× or below it is whole, over the
// budget if need be.
func TestLargeFileSeedIsGivenAsItsSkeleton(t *testing.T) {
	w := skeletonWorld()
	file := FileURI("p/m.py")
	pos := &Position{Path: "p/m.py", Line: 5} // before C: no declaration holds it
	// C reached from the file by an outline-only edge: its signature is
	// already in the skeleton, so it is contained, not outlined again.
	w.Edges = append(w.Edges, Edge{Kind: EdgeImports, From: file, To: SymbolURI("p/m", "C"), Strength: 1})
	c := mustCompile(t, w, Request{Position: pos, BudgetTokens: budget(1000)}) // m.py: 2,250 tokens > 2,000
	e := entryOf(c, file)
	want := "p/m.py\n    class C(Base):\n        def a(self, x):\n            def inner():\n        def b(self):\n    def after():"
	if e == nil || e.Kind != KindSkeleton || !e.Required || e.Tier != TierTask || e.Facts[FactSkeleton] != want ||
		e.Facts[FactMembers] != "5" || e.Facts[FactFullTokens] != "2250" || e.CostTokens != TokensFor(len(want)) {
		t.Fatalf("file seed %+v", e)
	}
	for _, s := range c.Selected {
		if s.Kind == KindOutline && s.Provenance.Path == "p/m.py" {
			t.Fatalf("%s is in the file's skeleton, yet outlined", s.URI)
		}
	}
	contained := false
	for _, d := range c.Deduplicated {
		contained = contained || d.Key == "contained" && d.Kept == file && strings.Contains(d.Detail, "as its skeleton") &&
			len(d.Dropped) == 1 && d.Dropped[0] == SymbolURI("p/m", "C")
	}
	if !contained || excludedOfURI(c, SymbolURI("p/m", "C")) != nil {
		t.Fatalf("C not contained in the skeleton: %+v, excluded %+v", c.Deduplicated, excludedOfURI(c, SymbolURI("p/m", "C")))
	}
	ex, err := Explain(w, file, Request{Position: pos, BudgetTokens: budget(1000)})
	if err != nil || !strings.Contains(ex.Detail, "file_skeleton_share 2") {
		t.Fatalf("explain: %+v %v", ex, err)
	}
	c = mustCompile(t, w, Request{Position: pos, BudgetTokens: budget(1125)}) // 2,250 = 2 × 1,125: whole
	if e := entryOf(c, file); e == nil || e.Kind != KindFile || !c.Budget.OverBudget {
		t.Fatalf("at 2×: %+v, over %v", e, c.Budget.OverBudget)
	}
}
