package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
)

// The -spend breakdown: where the context's tokens go, per budget, by the
// way an entry was reached and by its relevance — how many of those tokens
// fall in touched files, and how many co-changed declarations only entries
// of that row recall (what the row is worth: dropping it loses those).

// spendRow sums one row over the sample.
type spendRow struct {
	tokens, touched uint64
	entries         int
	recalled, sole  int // co-changed declarations recalled by the row's entries / by them alone
}

// spendTable is one budget's rows, keyed by label.
type spendTable map[string]*spendRow

// spendTotals: per budget, by way and by relevance.
type spendTotals struct {
	byWay, byRel []spendTable
	decls        int
}

func newSpendTotals() *spendTotals {
	t := &spendTotals{}
	for range budgets {
		t.byWay = append(t.byWay, spendTable{})
		t.byRel = append(t.byRel, spendTable{})
	}
	return t
}

// wayOf labels how an entry was reached: its best discovery's selector
// and edge; an outline entry by what it outlines (a declaration that did
// not fit, or a declaration of a file that did not fit whole).
func wayOf(e devcontext.Entry) string {
	if len(e.DiscoveredBy) == 0 {
		return e.Kind
	}
	d := e.DiscoveredBy[0]
	if e.Kind == devcontext.KindOutline {
		if strings.HasPrefix(d.Via, "clew://file/") {
			return "outline (declaration of a file)"
		}
		return "outline (declaration)"
	}
	w := e.Kind + " " + string(d.Selector)
	if d.Edge != "" {
		w += " " + d.Edge
	}
	return w
}

// relBucket is the relevance band an entry falls in.
func relBucket(r float64) string {
	for _, b := range []float64{0.9, 0.7, 0.5, 0.4, 0.3, 0.25, 0.2} {
		if r >= b-1e-9 {
			return fmt.Sprintf("≥ %.2f", b)
		}
	}
	return "< 0.20"
}

// add counts one answer at budget index bi.
func (t *spendTotals) add(bi int, cc devcontext.CompiledContext, sp *spans, want []decl, touched map[string]bool) {
	if bi == 0 {
		t.decls += len(want)
	}
	hits := make([][]string, len(cc.Selected)) // per entry: the wanted declarations it recalls
	count := map[declKey]int{}
	for i, e := range cc.Selected {
		for _, d := range want {
			if ok, _ := sp.covers(e, d); ok {
				hits[i] = append(hits[i], d.qname)
				count[d.key()]++
			}
		}
	}
	for i, e := range cc.Selected {
		for vi, tab := range []spendTable{t.byWay[bi], t.byRel[bi]} {
			label := wayOf(e)
			if vi == 1 {
				label = relBucket(e.Relevance)
			}
			r := tab[label]
			if r == nil {
				r = &spendRow{}
				tab[label] = r
			}
			r.entries++
			r.tokens += e.CostTokens
			if touched[e.Provenance.Path] {
				r.touched += e.CostTokens
			}
			r.recalled += len(hits[i])
			for _, q := range hits[i] {
				if count[declKey{e.Provenance.Path, q}] == 1 {
					r.sole++
				}
			}
		}
	}
}

// print writes one table per budget and view.
func (t *spendTotals) print(w io.Writer, commits int) {
	n := float64(max(commits, 1))
	for bi, b := range budgets {
		for vi, tab := range []spendTable{t.byWay[bi], t.byRel[bi]} {
			view := "way reached"
			if vi == 1 {
				view = "relevance"
			}
			fmt.Fprintf(w, "\n%s, by %s (%d co-changed declarations in the sample):\n\n", kilo(b), view, t.decls)
			fmt.Fprintln(w, "| row | entries/commit | tokens/commit | in touched files | recalls | only this row recalls |")
			fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- |")
			labels := make([]string, 0, len(tab))
			for l := range tab {
				labels = append(labels, l)
			}
			slices.SortFunc(labels, func(a, c string) int {
				if vi == 1 {
					return strings.Compare(c, a)
				}
				return int(tab[c].tokens) - int(tab[a].tokens)
			})
			for _, l := range labels {
				r := tab[l]
				fmt.Fprintf(w, "| %s | %.1f | %.0f | %.0f%% | %d | %d |\n", l, float64(r.entries)/n, float64(r.tokens)/n,
					100*ratio(r.touched, r.tokens), r.recalled, r.sole)
			}
		}
	}
}
