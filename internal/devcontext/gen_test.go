package devcontext

import (
	"fmt"
	"math/rand"
	"strings"
)

// genWorld builds a random but plausible workspace of about nFiles Go files:
// ~4 declarations per file, tests, calls, docs with anchored passages in
// every anchor state, ADR chains, claims with gating and advisory legs,
// AGENTS.md files, commits, uncommitted changes, refused and dangling edges.
// The same rng state gives the same world.
func genWorld(rng *rand.Rand, nFiles int) World {
	b := NewBuilder("example.com/gen")
	b.Git(Git{Branch: "main", Head: fmt.Sprintf("%040x", rng.Int63()), WorkingTree: pick(rng, "clean", "clean", "dirty")})
	nPkg := max(1, nFiles/10)
	var files, syms, types, tests []string
	word := func() string { return words[rng.Intn(len(words))] }
	for i := 0; i < nFiles; i++ {
		dir := fmt.Sprintf("pkg/p%d", i%nPkg)
		if i%7 == 3 {
			dir += "/sub"
		}
		p := fmt.Sprintf("%s/f%d.go", dir, i)
		f := b.File(p, strings.Repeat("x", 200+rng.Intn(4800)))
		files = append(files, f)
		line := 3
		typ := ""
		for j, n := 0, rng.Intn(8); j < n; j++ {
			span := 3 + rng.Intn(40)
			name := fmt.Sprintf("%s%d", title(word()), i*10+j)
			if typ != "" && rng.Intn(2) == 0 {
				name = typ + "." + name
			}
			u := b.Symbol(p, name, line, line+span, strings.Repeat("y", 40+rng.Intn(2000)))
			if j%3 != 2 { // most declarations have an outline, some none
				b.Get(u).Outline = "func " + name + "(x int) error"
			}
			if typ != "" && strings.HasPrefix(name, typ+".") {
				b.Edge(EdgeMethodOf, u, types[len(types)-1])
			}
			if typ == "" && rng.Intn(3) == 0 {
				typ = name
				types = append(types, u)
			}
			syms = append(syms, u)
			line += span + 2
		}
		if i%2 == 0 && len(syms) > 0 {
			tp := strings.TrimSuffix(p, ".go") + "_test.go"
			b.File(tp, strings.Repeat("t", 100+rng.Intn(1000)))
			for j, n := 0, 1+rng.Intn(2); j < n; j++ {
				tu := b.Test(tp, fmt.Sprintf("Test%d_%d", i, j), 3+j*20, 20+j*20, strings.Repeat("t", 50+rng.Intn(600)), syms[rng.Intn(len(syms))])
				tests = append(tests, tu)
				b.Get(tu).Outline = fmt.Sprintf("func Test%d_%d(t *testing.T)", i, j)
				b.Calls(tu, syms[rng.Intn(len(syms))])
			}
		}
	}
	one := func(xs []string) string { return xs[rng.Intn(len(xs))] }
	if len(syms) == 0 {
		syms = append(syms, b.Symbol("pkg/p0/f0.go", "Only", 1, 2, "func Only() {}"))
	}
	for _, s := range syms {
		for k := rng.Intn(4); k > 0; k-- {
			b.Calls(s, one(syms))
		}
		if len(types) > 0 && rng.Intn(4) == 0 {
			b.Edge(EdgeUsesType, s, one(types))
		}
		if rng.Intn(40) == 0 {
			b.Calls(s, SymbolURI("example.com/gone", fmt.Sprintf("Gone%d", rng.Intn(5))))
		}
		if rng.Intn(10) == 0 {
			b.Edge(pick(rng, EdgeInPackage, EdgeReferences, EdgeMentions), s, one(syms))
		}
	}
	states := []AnchorState{AnchorFresh, AnchorFresh, AnchorFresh, AnchorStale, AnchorStale, AnchorMoved, AnchorLost, AnchorUnpinned}
	var docs []string
	for d := 0; d < max(1, nFiles/6); d++ {
		p := fmt.Sprintf("docs/d%d.md", d)
		var text strings.Builder
		for k := rng.Intn(12); k > 0; k-- {
			text.WriteString(word() + " ")
			if rng.Intn(3) == 0 {
				s := one(syms)
				text.WriteString(s[strings.LastIndexAny(s, "./")+1:] + " ")
			}
		}
		docs = append(docs, b.Doc(p, text.String()))
		for k := rng.Intn(5); k > 0; k-- {
			target := one(syms)
			qn := target[strings.LastIndexByte(target, '/')+1:]
			qn = qn[strings.IndexByte(qn, '.')+1:]
			st := states[rng.Intn(len(states))]
			if st == AnchorLost {
				target = SymbolURI("example.com/gen/lost", qn+"Old")
			}
			b.Passage(p, qn, k, target, st, "## "+qn+"\n\n"+word()+" "+qn+" "+word()+"\n")
		}
		if d > 0 && rng.Intn(3) == 0 {
			b.Edge(EdgeLinksTo, docs[d], one(docs))
		}
	}
	b.Readme("README.md", "# gen\n\n"+word()+" "+word())
	b.Agents(".", "root rules")
	for k := 0; k < nPkg; k++ {
		if rng.Intn(3) == 0 {
			b.Agents(fmt.Sprintf("pkg/p%d", k), "package rules")
		}
	}
	var adrs []string
	for a := 0; a < max(2, nFiles/8); a++ {
		id := fmt.Sprintf("adr-%04d", a)
		var sup []string
		if a > 0 && rng.Intn(2) == 0 {
			sup = append(sup, fmt.Sprintf("adr-%04d", rng.Intn(a)))
		}
		u := b.ADR(fmt.Sprintf("docs/adr/%04d.md", a), id, pick(rng, "accepted", "accepted", "proposed", "deprecated", "superseded", "rejected"),
			word()+" "+word(), sup...)
		adrs = append(adrs, u)
		for k := 1 + rng.Intn(3); k > 0; k-- {
			b.Edge(EdgeDecides, u, pick(rng, one(syms), one(files)))
		}
		if rng.Intn(3) == 0 { // the same file as a plain doc: folds into the ADR by path
			dup := b.Doc(fmt.Sprintf("docs/adr/%04d.md", a), "decision "+word())
			b.Edge(EdgeDecides, u, one(syms)) // reached together
			b.Edge(EdgeLinksTo, docs[rng.Intn(len(docs))], dup)
		}
	}
	for c := 0; c < max(2, nFiles/15); c++ {
		id := fmt.Sprintf("INV-%d", c)
		if c > 0 && rng.Intn(4) == 0 { // an older revision of the previous claim
			id = fmt.Sprintf("INV-%d@%d", c-1, 1+rng.Intn(3))
		}
		gating := rng.Intn(2) == 0
		u := b.Claim(id, pick(rng, "active", "active", "proposed", "drift", "retired", ""), "| "+id+" | "+word()+" |", gating)
		for k := rng.Intn(5); k > 0; k-- {
			b.Covers(u, one(files), gating && rng.Intn(3) > 0)
		}
		if rng.Intn(3) == 0 {
			b.Pins(u, one(syms), gating)
		}
	}
	var commits []string
	for c := 0; c < max(1, nFiles/3); c++ {
		commits = append(commits, b.Commit(fmt.Sprintf("%040x", rng.Int63()), fmt.Sprintf("2026-%02d-%02dT00:00:00Z", 1+rng.Intn(12), 1+rng.Intn(28)), word()))
	}
	for _, s := range syms {
		for k := rng.Intn(3); k > 0; k-- {
			b.Edge(EdgeChangedIn, s, one(commits))
		}
	}
	for k := rng.Intn(3); k > 0; k-- {
		f := b.Get(one(files))
		b.Local(f.Path, Range{StartLine: 1 + rng.Intn(40), EndLine: 45 + rng.Intn(40)})
		if rng.Intn(2) == 0 {
			b.Overlay(f.Path, fmt.Sprint(rng.Int63()))
		}
	}
	return b.Build()
}

var words = strings.Fields("load index budget cache server client anchor claim passage workspace render parse token graph walk tier seed stale moved lost")

func pick[T any](rng *rand.Rand, xs ...T) T { return xs[rng.Intn(len(xs))] }

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// genRequest asks something of a generated world: usually a position (in a
// declaration or in a file), sometimes named uris, paths, an intent, and
// random knobs.
func genRequest(rng *rand.Rand, w World) Request {
	var r Request
	var decls, files []Node
	for _, n := range w.Nodes {
		switch n.Kind {
		case KindSymbol, KindTest:
			decls = append(decls, n)
		case KindFile:
			files = append(files, n)
		}
	}
	switch rng.Intn(6) {
	case 0, 1, 2:
		d := decls[rng.Intn(len(decls))]
		r.Position = &Position{Path: d.Path, Line: d.Range.StartLine + rng.Intn(d.Range.EndLine-d.Range.StartLine+1)}
	case 3:
		f := files[rng.Intn(len(files))]
		r.Position = &Position{Path: f.Path, Line: 1}
	case 4:
		for k := 1 + rng.Intn(2); k > 0; k-- {
			r.URIs = append(r.URIs, w.Nodes[rng.Intn(len(w.Nodes))].URI)
		}
	}
	if rng.Intn(4) == 0 {
		r.Paths = append(r.Paths, pick(rng, "pkg/p0", "docs", "pkg"))
	}
	if rng.Intn(4) == 0 {
		r.Intent = words[rng.Intn(len(words))] + " " + words[rng.Intn(len(words))]
	}
	if rng.Intn(5) > 0 {
		r.BudgetTokens = budget(uint64(1 + rng.Intn(pick(rng, 50, 500, 5000, 50000))))
	}
	if rng.Intn(2) == 0 {
		r.MaxDepth = ptr(rng.Intn(5))
	}
	if rng.Intn(2) == 0 {
		r.Floor = ptr(pick(rng, 0, 0.1, 0.25, 0.4, 0.9, 1))
	}
	r.AllBlockingClaims = rng.Intn(5) == 0
	return r
}
