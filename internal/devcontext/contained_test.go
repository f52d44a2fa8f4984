package devcontext

import (
	"slices"
	"testing"
)

// A declaration inside a file selected whole is not paid for twice: it is
// left out (deduplicated, key "contained"), and the tokens that frees go
// to the next candidate, which did not fit before. Used = Σ selected costs
// stays, and so does the ceiling.
func TestSpendLeavesOutDeclarationsInsideAWholeFile(t *testing.T) {
	seed := SymbolURI("m/g", "X")
	s := SymbolURI("m/f", "S")
	w := World{
		Nodes: []Node{
			{URI: seed, Kind: KindSymbol, Name: "X", Path: "g/g.go", Bytes: 40, Range: &Range{StartLine: 1, EndLine: 3}},
			{URI: FileURI("f/f.go"), Kind: KindFile, Path: "f/f.go", Bytes: 400},
			{URI: s, Kind: KindSymbol, Name: "S", Path: "f/f.go", Bytes: 120, Range: &Range{StartLine: 2, EndLine: 9}},
			{URI: FileURI("g/h.go"), Kind: KindFile, Path: "g/h.go", Bytes: 120},
		},
		Edges: []Edge{
			{Kind: EdgeCalls, From: seed, To: s},
			{Kind: EdgeCoChanged, From: seed, To: FileURI("f/f.go"), Strength: 1},
			{Kind: EdgeCoChanged, From: seed, To: FileURI("g/h.go"), Strength: 0.75}, // at outline_below: whole (it has no declarations)
		},
	}
	// X 10 (required), f.go 100 (0.9), S 30 (0.7), h.go 30 (0.675).
	// One walk: 10+100+30 = 140, h.go would make 170 > 145. Without S: 140.
	c := mustCompile(t, w, Request{URIs: []string{seed}, BudgetTokens: budget(145)})
	if entryOf(c, s) != nil {
		t.Fatalf("S is repeated inside f.go: %+v", c.Selected)
	}
	if entryOf(c, FileURI("f/f.go")) == nil || entryOf(c, FileURI("g/h.go")) == nil {
		t.Fatalf("f.go and h.go should both be selected: %+v", c.Selected)
	}
	var rec *Deduplicated
	for i, d := range c.Deduplicated {
		if d.Key == "contained" {
			rec = &c.Deduplicated[i]
		}
	}
	if rec == nil || rec.Kept != FileURI("f/f.go") || !slices.Equal(rec.Dropped, []string{s}) {
		t.Fatalf("contained record %+v", c.Deduplicated)
	}
	var sum uint64
	for _, e := range c.Selected {
		sum += e.CostTokens
	}
	if sum != c.Budget.UsedTokens || sum != 140 || c.Budget.OverBudget {
		t.Fatalf("used %d, Σ %d", c.Budget.UsedTokens, sum)
	}
	ex, err := Explain(w, s, Request{URIs: []string{seed}, BudgetTokens: budget(145)})
	if err != nil || ex.Standing != StandingDeduplicated || ex.Deduplicated == nil || ex.Deduplicated.Key != "contained" {
		t.Fatalf("explain S: %+v %v", ex, err)
	}
	// A seed inside a whole file stays: required entries are never left out.
	c = mustCompile(t, w, Request{URIs: []string{seed, s}, BudgetTokens: budget(1000)})
	if entryOf(c, s) == nil || !entryOf(c, s).Required {
		t.Fatalf("a seed is kept even inside a whole file: %+v", c.Selected)
	}
}
