package devcontext

import (
	"cmp"
	"fmt"
	"slices"
)

// spent is the outcome of the spend: admitted candidates in spend order and
// the budget exclusions.
type spent struct {
	selected []*candidate
	excluded []Excluded
	used     uint64
	required uint64
	// contained: optional declarations left out because a file selected
	// whole holds them (deduplicated records).
	contained []Deduplicated
}

// spend walks the candidates in spend order (tier, relevance descending,
// URI) and admits each one that fits — first fit, not truncation: a big
// item never hides smaller later ones. Required candidates are always
// admitted, and their cost is reserved before the walk: a required claim
// spent late must not be pushed past the limit by optional entries
// admitted before it. So the only way over the ceiling is required entries
// alone exceeding it.
//
// A declaration inside a file that is selected whole would be paid twice.
// So when the first walk admits whole files, a second walk reserves them
// too, leaves out the optional declarations they contain (recorded as
// deduplicated, not excluded) and spends what that frees on the next
// candidates. The second walk admits a subset of the first one's reserved
// entries plus first-fit others, so it stays within the same ceiling.
func (s *selection) spend(cands []*candidate, limit uint64) spent {
	slices.SortFunc(cands, func(x, y *candidate) int {
		if c := cmp.Or(cmp.Compare(tierPos(x.tier), tierPos(y.tier)), cmp.Compare(round3(y.rel), round3(x.rel))); c != 0 {
			return c
		}
		return naturalCompare(s.ix.ids[x.id], s.ix.ids[y.id]) // only on a tie: cmp.Or computes all its arguments
	})
	first := s.spendOnce(cands, limit, nil)
	whole := map[string]*candidate{}
	for _, c := range first.selected {
		if c.node.Kind == KindFile && c.node.Path != "" {
			whole[c.node.Path] = c
		}
	}
	inside := func(c *candidate) *candidate {
		if c.required || (c.node.Kind != KindSymbol && c.node.Kind != KindTest) {
			return nil
		}
		return whole[c.node.Path]
	}
	any := false
	for _, c := range first.selected {
		any = any || inside(c) != nil
	}
	if !any {
		return first
	}
	out := s.spendOnce(cands, limit, func(c *candidate) (reserve, skip bool) {
		if inside(c) != nil {
			return false, true
		}
		return whole[c.node.Path] == c, false
	})
	dropped := map[string][]string{}
	for _, c := range cands {
		if f := inside(c); f != nil {
			dropped[s.ix.ids[f.id]] = append(dropped[s.ix.ids[f.id]], s.ix.ids[c.id])
		}
	}
	for _, kept := range sortedKeys(dropped) {
		ds := dropped[kept]
		slices.SortFunc(ds, naturalCompare)
		out.contained = append(out.contained, Deduplicated{Kept: kept, Dropped: ds, Key: "contained",
			Detail: fmt.Sprintf("%d declaration(s) inside %s, which is selected whole: not repeated", len(ds), whole[s.ix.nodes[s.ix.byURI[kept]].Path].node.Path),
			Paths:  1})
	}
	return out
}

// spendOnce is one first-fit walk over sorted candidates. hold, when set,
// says which candidates are reserved like required ones and which are left
// out altogether.
func (s *selection) spendOnce(cands []*candidate, limit uint64, hold func(*candidate) (reserve, skip bool)) spent {
	var out spent
	reserved := map[int]bool{}
	for _, c := range cands {
		r, skip := false, false
		if hold != nil {
			r, skip = hold(c)
		}
		if skip {
			continue
		}
		if c.required {
			out.required += TokensFor(c.node.CostBytes())
		}
		if c.required || r {
			reserved[c.id] = true
			out.used += TokensFor(c.node.CostBytes())
		}
	}
	for _, c := range cands {
		if hold != nil {
			if _, skip := hold(c); skip {
				continue
			}
		}
		cost := TokensFor(c.node.CostBytes())
		if reserved[c.id] {
			out.selected = append(out.selected, c)
			continue
		}
		if out.used+cost > limit {
			out.excluded = append(out.excluded, s.exclusion(c, ReasonBudget,
				fmt.Sprintf("%d token(s) would not fit: %d of %d already spent or reserved for required entries, %d left",
					cost, out.used, limit, limit-min(limit, out.used))))
			continue
		}
		out.used += cost
		out.selected = append(out.selected, c)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// budgetOf reports the spend per tier. Budget exclusions are counted per
// tier; the other reasons are not the budget's doing.
func budgetOf(limit uint64, sel []Entry, excl []Excluded) Budget {
	b := Budget{LimitTokens: limit, BytesPerToken: BytesPerToken, Tiers: make([]TierSpend, len(Tiers))}
	for i, t := range Tiers {
		b.Tiers[i] = TierSpend{Tier: t, Meaning: tierMeaning[t]}
	}
	for _, e := range sel {
		row := &b.Tiers[tierPos(e.Tier)-1]
		row.Selected++
		row.Tokens += e.CostTokens
		b.UsedTokens += e.CostTokens
		if e.Required {
			row.Required++
			b.RequiredTokens += e.CostTokens
		}
	}
	for _, x := range excl {
		if x.Reason == ReasonBudget {
			b.Tiers[tierPos(x.Tier)-1].Excluded++
		}
	}
	b.OverBudget = b.UsedTokens > limit
	b.RemainingTokens = limit - min(limit, b.UsedTokens)
	return b
}
