package devcontext

import (
	"math/rand"
	"testing"
)

// BenchmarkCompile3000Files compiles at a declaration of a generated
// workspace of 3,000 Go files (~20,000 nodes). Goal (issue 5): ≤ 300 ms.
func BenchmarkCompile3000Files(b *testing.B) {
	rng := rand.New(rand.NewSource(3000))
	w := genWorld(rng, 3000)
	var r Request
	for _, n := range w.Nodes { // a declaration with callers and tests
		if n.Kind == KindSymbol && n.Range != nil && n.Range.EndLine > n.Range.StartLine+10 {
			r = Request{Position: &Position{Path: n.Path, Line: n.Range.StartLine + 1}, Intent: "budget cache"}
			break
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Compile(w, r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(w.Nodes)), "nodes")
	b.ReportMetric(float64(len(w.Edges)), "edges")
}

// BenchmarkCompileTour is the small fixture of the public cases.
func BenchmarkCompileTour(b *testing.B) {
	w := newTour().world()
	for b.Loop() {
		if _, err := Compile(w, inInitialize()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPreparedCompile3000Files is the same compile over a world
// indexed once, as the workspace layer does per snapshot.
func BenchmarkPreparedCompile3000Files(b *testing.B) {
	rng := rand.New(rand.NewSource(3000))
	w := genWorld(rng, 3000)
	var r Request
	for _, n := range w.Nodes {
		if n.Kind == KindSymbol && n.Range != nil && n.Range.EndLine > n.Range.StartLine+10 {
			r = Request{Position: &Position{Path: n.Path, Line: n.Range.StartLine + 1}, Intent: "budget cache"}
			break
		}
	}
	p := Prepare(w)
	b.ResetTimer()
	for b.Loop() {
		if _, err := p.Compile(r); err != nil {
			b.Fatal(err)
		}
	}
}
