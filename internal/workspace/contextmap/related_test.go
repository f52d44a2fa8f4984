package contextmap_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

func discoveredBy(e *devcontext.Entry, edge string) *devcontext.Discovery {
	for i := range e.DiscoveredBy {
		if e.DiscoveredBy[i].Edge == edge {
			return &e.DiscoveredBy[i]
		}
	}
	return nil
}

// co_changed follows history: the files changed in the same commits as
// the seed's file, weighted by how often; a sweep commit counts for
// nothing; a file never changed with it is not reached that way.
// sibling offers the rest of the package, spent last (history tier),
// ordered by how much of the seed file's names each mentions.
func TestContextCoChangedAndSiblings(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{
		"a/a.go":     "package a\n\nfunc Parse() int { return 1 }\n",
		"a/b.go":     "package a\n\nfunc Other() int { return 2 }\n",
		"a/c.go":     "package a\n\n// uses Parse by value\nvar hook = Parse\n",
		"other/x.go": "package other\n\nfunc X() int { return 1 }\n",
		"other/y.go": "package other\n\nfunc Y() int { return 1 }\n",
	})
	r.Commit("start")
	r.Write(map[string]string{"a/a.go": "package a\n\nfunc Parse() int { return 11 }\n", "other/x.go": "package other\n\nfunc X() int { return 11 }\n"})
	r.Commit("parse and x, 1")
	r.Write(map[string]string{"a/a.go": "package a\n\nfunc Parse() int { return 12 }\n", "other/x.go": "package other\n\nfunc X() int { return 12 }\n"})
	r.Commit("parse and x, 2")
	r.Write(map[string]string{"other/y.go": "package other\n\nfunc Y() int { return 2 }\n"})
	r.Commit("y alone")
	sweep := map[string]string{"a/a.go": "package a\n\nfunc Parse() int { return 13 }\n"}
	for i := range 31 {
		sweep[fmt.Sprintf("z/f%02d.go", i)] = "package z\n"
	}
	r.Write(sweep)
	r.Commit("sweep")
	snap, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	c := compile(t, snap, at("a/a.go", 3))

	x := entry(c, devcontext.FileURI("other/x.go"))
	if x == nil {
		t.Fatalf("other/x.go not selected: %+v", c.Selected)
	}
	// Four commits changed a/a.go; the sweep is not read, so 3 of 3 share
	// other/x.go (the first created both): strength 3/(3+1), weight 0.9 ×
	// 0.75. other/y.go shares one (the first): 0.9 × 0.25, under the floor.
	d := discoveredBy(x, devcontext.EdgeCoChanged)
	if d == nil || d.Weight != 0.675 || x.Relevance != 0.675 || x.Tier != devcontext.TierSource {
		t.Fatalf("other/x.go: %+v", x)
	}
	for _, p := range []string{"other/y.go", "z/f00.go"} {
		if e := entry(c, devcontext.FileURI(p)); e != nil && discoveredBy(e, devcontext.EdgeCoChanged) != nil {
			t.Fatalf("%s reached by co_changed: %+v", p, e)
		}
	}

	// Declarations changed with the seed: Parse's tokens changed in 3
	// commits after it was added ("parse and x" 1 and 2, the sweep); X
	// changed in two of them: strength 2/(3+1). Y never did.
	edges, err := contextmap.WorldEdges(context.Background(), snap, at("a/a.go", 3))
	if err != nil {
		t.Fatal(err)
	}
	var toX, toY *devcontext.Edge
	for i, e := range edges {
		if e.Kind == devcontext.EdgeCoChanged && e.From == "clew://symbol/a.Parse" {
			switch e.To {
			case "clew://symbol/other.X":
				toX = &edges[i]
			case "clew://symbol/other.Y":
				toY = &edges[i]
			}
		}
	}
	if toX == nil || toX.Strength != 0.5 || toY != nil {
		t.Fatalf("co_changed declarations: to X %+v, to Y %+v", toX, toY)
	}

	// Siblings are outline-only: never whole, their declarations (parsed
	// for it) given by signature, c.go's first (it mentions Parse).
	for _, p := range []string{"a/b.go", "a/c.go"} {
		if e := entry(c, devcontext.FileURI(p)); e != nil {
			t.Fatalf("sibling %s selected whole: %+v", p, e)
		}
		if x := excluded(c, devcontext.FileURI(p)); x == nil || x.Reason != devcontext.ReasonOutlined {
			t.Fatalf("sibling %s: %+v", p, x)
		}
	}
	b, cc := entry(c, "clew://symbol/a.Other"), entry(c, "clew://symbol/a.hook")
	if b == nil || cc == nil || b.Kind != devcontext.KindOutline || cc.Kind != devcontext.KindOutline ||
		b.Facts[devcontext.FactSignature] != "func Other() int" || b.DiscoveredBy[0].Via != devcontext.FileURI("a/b.go") {
		t.Fatalf("sibling outlines: %+v %+v", b, cc)
	}
	if b.Tier != devcontext.TierOutline || !(cc.Relevance > b.Relevance) {
		t.Fatalf("sibling outlines: b %v %v, c %v", b.Tier, b.Relevance, cc.Relevance)
	}
	if e := entry(c, devcontext.FileURI("other/y.go")); e != nil {
		t.Fatalf("other/y.go is no sibling of a/a.go: %+v", e)
	}

	// explain says which relation and weight.
	ex, err := contextmap.Explain(context.Background(), snap, devcontext.FileURI("other/x.go"), at("a/a.go", 3))
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(ex)
	if !strings.Contains(string(js), `"co_changed"`) {
		t.Fatalf("explain does not name co_changed: %s", js)
	}

	// Both are in the published policy, measured, sibling spent last.
	seen := map[string]devcontext.EdgeRule{}
	for _, e := range devcontext.Policy().Edges {
		seen[e.Edge] = e
	}
	if e := seen[devcontext.EdgeCoChanged]; !e.Measured || e.Forward == nil || *e.Forward != 0.9 {
		t.Fatalf("policy co_changed: %+v", e)
	}
	if e := seen[devcontext.EdgeSibling]; !e.Measured || e.Tier != devcontext.TierHistory || *e.Forward != 0.3 || !e.OutlineOnly {
		t.Fatalf("policy sibling: %+v", e)
	}
}

// uses_value: a constant, a variable and a function passed as a value are
// reached from the function that uses them; a field of the same name
// after "." is not; the constant's other users are reached back.
func TestContextUsesValue(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{
		"p/limits.go": "package p\n\nconst Limit = 10\n\nvar table = map[string]int{}\n\nfunc handler() int { return 1 }\n\nfunc other() int { return 2 }\n",
		"p/run.go":    "package p\n\nfunc Run(s S) int {\n\tregister(handler)\n\ttable[\"a\"] = Limit\n\treturn s.other\n}\n\nfunc register(f func() int) {}\n\ntype S struct{ other int }\n",
		"p/use.go":    "package p\n\nfunc Check(n int) bool { return n < Limit }\n",
	})
	r.Commit("values")
	snap, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	req := at("p/run.go", 4)
	edges, err := contextmap.WorldEdges(context.Background(), snap, req)
	if err != nil {
		t.Fatal(err)
	}
	has := func(from, to string) bool {
		for _, e := range edges {
			if e.Kind == devcontext.EdgeUsesValue && e.From == from && e.To == to {
				return true
			}
		}
		return false
	}
	for _, to := range []string{"clew://symbol/p.Limit", "clew://symbol/p.table", "clew://symbol/p.handler"} {
		if !has("clew://symbol/p.Run", to) {
			t.Errorf("no uses_value Run → %s: %+v", to, edges)
		}
	}
	if has("clew://symbol/p.Run", "clew://symbol/p.other") {
		t.Error("s.other is a field, not the function other")
	}
	// From Run, Limit's other users are one hop too far (0.6 × 0.3 is under
	// the floor); at Limit itself they are its users.
	if edges, err = contextmap.WorldEdges(context.Background(), snap, at("p/limits.go", 3)); err != nil {
		t.Fatal(err)
	}
	if !has("clew://symbol/p.Check", "clew://symbol/p.Limit") || !has("clew://symbol/p.Run", "clew://symbol/p.Limit") {
		t.Errorf("Limit's users Check and Run are not reached: %+v", edges)
	}
	var rule *devcontext.EdgeRule
	for _, e := range devcontext.Policy().Edges {
		if e.Edge == devcontext.EdgeUsesValue {
			rule = &e
		}
	}
	if rule == nil || rule.Refused || *rule.Forward != 0.6 || *rule.Reverse != 0.3 {
		t.Fatalf("policy uses_value %+v", rule)
	}
}
