package main

import (
	"fmt"
	"io"
)

// totals are the means over the sample; declaration recall is averaged
// over the commits that have co-changed declarations.
type totals struct {
	commits, withDecls, declCount int
	sum                           [][]score
}

func newTotals() *totals {
	t := &totals{sum: make([][]score, len(systems))}
	for i := range t.sum {
		t.sum[i] = make([]score, len(budgets))
	}
	return t
}

func (t *totals) add(r result) {
	t.commits++
	if r.decls > 0 {
		t.withDecls++
		t.declCount += r.decls
	}
	for s := range systems {
		for b := range budgets {
			x := r.scores[s][b]
			y := &t.sum[s][b]
			if r.decls > 0 {
				y.declRecall += x.declRecall
				y.declBySymbol += x.declBySymbol
				y.declByOutline += x.declByOutline
			}
			y.fileRecall += x.fileRecall
			y.share += x.share
			y.used += x.used
		}
	}
}

func (t *totals) print(w io.Writer) {
	fmt.Fprintln(w, "| budget | system | decl recall | (as own entry) | (as outline) | file recall | tokens in touched files | mean used |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- | --- |")
	n, d := float64(max(t.commits, 1)), float64(max(t.withDecls, 1))
	for b, budget := range budgets {
		for s, name := range systems {
			x := t.sum[s][b]
			own := fmt.Sprintf("%.0f%%", 100*x.declBySymbol/d)
			outline := fmt.Sprintf("%.0f%%", 100*x.declByOutline/d)
			if name == "grep" {
				own, outline = "—", "—"
			}
			fmt.Fprintf(w, "| %s | %s | %.0f%% | %s | %s | %.0f%% | %.0f%% | %.0f |\n", kilo(budget), name,
				100*x.declRecall/d, own, outline, 100*x.fileRecall/n, 100*x.share/n, x.used/n)
		}
	}
}

func kilo(b uint64) string {
	if b%1000 == 0 {
		return fmt.Sprintf("%dk", b/1000)
	}
	return fmt.Sprint(b)
}
