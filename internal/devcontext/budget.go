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
}

// spend walks the candidates once in spend order (tier, relevance
// descending, URI) and admits each one that fits — first fit, not
// truncation: a big item never hides smaller later ones. Required
// candidates are always admitted, and their cost is reserved before the
// walk: a required claim spent late must not be pushed past the limit by
// optional entries admitted before it. So the only way over the ceiling is
// required entries alone exceeding it.
func (s *selection) spend(cands []*candidate, limit uint64) spent {
	slices.SortFunc(cands, func(x, y *candidate) int {
		return cmp.Or(cmp.Compare(tierPos(x.tier), tierPos(y.tier)),
			cmp.Compare(round3(y.rel), round3(x.rel)),
			naturalCompare(s.ix.ids[x.id], s.ix.ids[y.id]))
	})
	var out spent
	for _, c := range cands {
		if c.required {
			out.required += TokensFor(c.node.CostBytes())
		}
	}
	out.used = out.required
	for _, c := range cands {
		cost := TokensFor(c.node.CostBytes())
		if c.required {
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
