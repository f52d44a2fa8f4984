package devcontext

import (
	"fmt"
	"slices"
	"strings"
)

// Explain says where one URI stands under a request: selected, excluded,
// deduplicated, not_reached (the world holds it, nothing reached it) or
// unknown (the world holds nothing under it). It compiles the request
// exactly as Compile does; the budget is attached in every case so "excluded
// for budget" can be acted on without a second call.
func Explain(w World, uri string, req Request) (Explanation, error) {
	return Prepare(w).Explain(uri, req)
}

// Explain is Explain over the prepared world.
func (p *Prepared) Explain(uri string, req Request) (Explanation, error) {
	uri = strings.TrimSpace(uri)
	if uri == "" {
		return Explanation{}, invalid("uri is required")
	}
	c, err := p.compile(req, true)
	if err != nil {
		return Explanation{}, err
	}
	ex := Explanation{URI: uri, Budget: c.ctx.Budget}
	target := uri
	if id, viaAlias, ok := c.ix.lookup(uri); ok && viaAlias {
		target = c.ix.ids[id]
	}
	for i := range c.ctx.Selected {
		e := &c.ctx.Selected[i]
		if e.URI != target {
			continue
		}
		var ways []string
		for _, d := range e.DiscoveredBy {
			ways = append(ways, string(d.Selector)+": "+d.Reason)
		}
		ex.Standing, ex.Entry = StandingSelected, e
		ex.Detail = fmt.Sprintf("selected in the %s tier, relevance %v, confidence %v, %d token(s); reached by %d path(s): %s",
			e.Tier, e.Relevance, e.Confidence, e.CostTokens, len(ways), strings.Join(ways, "; "))
		if e.Kind == KindSkeleton {
			ex.Detail += "; " + skeletonWhy(*e)
		}
		return ex, nil
	}
	if x, ok := excludedOf(c, target); ok {
		ex.Standing, ex.Excluded = StandingExcluded, &x
		ex.Detail = "reached and not given: " + string(x.Reason) + " — " + x.Detail
		return ex, nil
	}
	if d, ok := c.dropped[target]; ok {
		ex.Standing, ex.Deduplicated = StandingDeduplicated, &d
		ex.Detail = "folded into " + d.Kept + " by " + d.Key + ": " + d.Detail
		return ex, nil
	}
	if _, _, ok := c.ix.lookup(target); ok {
		ex.Standing = StandingNotReached
		ex.Detail = notReached(p.w, target, c.set)
		if x, ok := c.faint[target]; ok {
			ex.Detail = "not reached within the floor: " + x.Detail
		}
		return ex, nil
	}
	ex.Standing = StandingUnknown
	ex.Detail = "the workspace holds nothing under " + uri
	return ex, nil
}

func excludedOf(c *compiled, uri string) (Excluded, bool) {
	for _, x := range c.ctx.Excluded {
		if x.URI == uri {
			return x, true
		}
	}
	x, ok := c.cuts[uri]
	return x, ok
}

// notReached spells out why no selector reached a known node, and names the
// refused edges that do touch it (following them is what would reach it).
func notReached(w *World, uri string, set settings) string {
	var refused []string
	for _, e := range w.Edges {
		if e.From != uri && e.To != uri {
			continue
		}
		if r, ok := edgeByKind[e.Kind]; !ok || r.refused != "" {
			refused = append(refused, e.Kind)
		}
	}
	slices.Sort(refused)
	refused = slices.Compact(refused)
	d := fmt.Sprintf("no selector reached it: no seed names it, no followed edge leads to it from the seeds within max_depth %d and the floor %v, no declared path holds it, it is not governance, and its words do not match the terms",
		set.maxDepth, set.floor)
	if len(refused) > 0 {
		d += "; only edges the compiler does not follow touch it (" + strings.Join(refused, ", ") + ")"
	}
	return d
}
