package devcontext

import (
	"fmt"
	"path"
	"strings"
)

// Markdown renders an answer for a human or to paste into an agent: seeds,
// the entries grouped by tier with their text, what was excluded and why,
// then the budget. It is a projection of the value, never a second
// computation: everything but the texts comes from c, and texts (keyed by
// uri) are what the caller read for the selected entries.
func Markdown(c CompiledContext, texts map[string]string) string {
	var b strings.Builder
	title := "(nothing named)"
	if len(c.Seeds) > 0 {
		title = c.Seeds[0].URI
	}
	fmt.Fprintf(&b, "# Context for `%s`\n\n", title)
	fmt.Fprintf(&b, "%s\n", gitLine(c))

	b.WriteString("\n## Seeds\n\n")
	if len(c.Seeds) == 0 {
		b.WriteString("_none_\n")
	}
	for _, s := range c.Seeds {
		fmt.Fprintf(&b, "- `%s` — %s, from %s", s.URI, s.Kind, s.From)
		if s.Resolved != "" {
			fmt.Fprintf(&b, " (resolved to `%s`)", s.Resolved)
		}
		b.WriteString("\n")
	}

	for _, row := range c.Budget.Tiers {
		var es []Entry
		for _, e := range c.Selected {
			if e.Tier == row.Tier {
				es = append(es, e)
			}
		}
		if len(es) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n## %s — %s\n", row.Tier, row.Meaning)
		if row.Tier == TierOutline {
			writeOutline(&b, es)
			continue
		}
		for _, e := range es {
			writeEntry(&b, e, texts)
		}
	}

	if len(c.Excluded) > 0 {
		b.WriteString("\n## Excluded\n\n| uri | tier | reason | tokens | detail |\n| --- | --- | --- | ---: | --- |\n")
		for _, x := range repositoryFirst(c.Excluded) {
			fmt.Fprintf(&b, "| `%s` | %s | %s | %d | %s |\n", cell(x.URI), x.Tier, x.Reason, x.CostTokens, cell(x.Detail))
		}
	}
	if len(c.Deduplicated) > 0 {
		b.WriteString("\n## Deduplicated\n\n")
		for _, d := range c.Deduplicated {
			fmt.Fprintf(&b, "- `%s` (%s)", d.Kept, d.Key)
			if len(d.Dropped) > 0 {
				fmt.Fprintf(&b, " ← `%s`", strings.Join(d.Dropped, "`, `"))
			}
			fmt.Fprintf(&b, ": %s\n", d.Detail)
		}
	}
	if len(c.Conflicts) > 0 {
		b.WriteString("\n## Conflicts\n\n")
		for _, k := range c.Conflicts {
			fmt.Fprintf(&b, "- %s: `%s` over `%s` — %s\n", k.Kind, k.Current, k.Against, k.Detail)
		}
	}
	if len(c.Diagnostics) > 0 {
		b.WriteString("\n## Diagnostics\n\n")
		for _, d := range c.Diagnostics {
			fmt.Fprintf(&b, "- %s `%s`", d.Severity, d.Code)
			if d.Path != "" {
				fmt.Fprintf(&b, " %s", d.Path)
			}
			fmt.Fprintf(&b, ": %s\n", d.Message)
		}
	}

	bu := c.Budget
	b.WriteString("\n## Budget\n\n| tier | selected | excluded (budget) | tokens | required |\n| --- | ---: | ---: | ---: | ---: |\n")
	for _, t := range bu.Tiers {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d |\n", t.Tier, t.Selected, t.Excluded, t.Tokens, t.Required)
	}
	over := "no"
	if bu.OverBudget {
		over = "yes — required entries alone exceed the limit"
	}
	fmt.Fprintf(&b, "\nUsed %d of %d tokens (%d required), %d left; over budget: %s. %d bytes per token.\n",
		bu.UsedTokens, bu.LimitTokens, bu.RequiredTokens, bu.RemainingTokens, over, bu.BytesPerToken)
	return b.String()
}

func gitLine(c CompiledContext) string {
	parts := []string{"fingerprint `" + short(c.Fingerprint, 16) + "`"}
	if c.Git.Branch != "" {
		parts = append(parts, "branch `"+c.Git.Branch+"`")
	}
	if c.Git.Head != "" {
		parts = append(parts, "head `"+short(c.Git.Head, 12)+"`")
	}
	parts = append(parts, "working tree "+c.Git.WorkingTree)
	line := strings.Join(parts, " · ")
	for _, k := range c.Git.Commits {
		line += fmt.Sprintf("\n- commit `%s` named by `%s`", short(k.Commit, 12), k.NamedBy)
		if k.Covers != "" {
			line += " for " + k.Covers
		}
	}
	return line
}

func writeEntry(b *strings.Builder, e Entry, texts map[string]string) {
	name := e.Title
	if name == "" {
		name = e.URI
	}
	fmt.Fprintf(b, "\n### %s\n\n", oneLine(name))
	meta := []string{"`" + e.URI + "`", e.Kind}
	if e.Provenance.Path != "" {
		loc := e.Provenance.Path
		if e.Provenance.Section != "" {
			loc += " › " + e.Provenance.Section
		}
		meta = append(meta, loc)
	}
	meta = append(meta, fmt.Sprintf("relevance %v", e.Relevance), fmt.Sprintf("confidence %v", e.Confidence),
		fmt.Sprintf("depth %d", e.Depth), fmt.Sprintf("%d tokens", e.CostTokens))
	if e.Status != "" {
		meta = append(meta, "status "+e.Status)
	}
	if e.Required {
		meta = append(meta, "**required**")
	}
	b.WriteString(strings.Join(meta, " · ") + "\n\n")
	for _, d := range e.DiscoveredBy {
		way := string(d.Selector)
		if d.Edge != "" {
			way += " (" + d.Edge + ")"
		}
		if d.Via != "" {
			way += " via `" + d.Via + "`"
		}
		fmt.Fprintf(b, "- %s: %s\n", way, d.Reason)
	}
	text, ok := texts[e.URI]
	if e.Kind == KindSkeleton { // its text is the skeleton, not the declaration's
		text, ok = e.Facts[FactSkeleton], true
	}
	if !ok {
		b.WriteString("\n_(text not provided)_\n")
		return
	}
	note := ""
	if e.CostBytes > 0 && len(text) > e.CostBytes {
		cut := strings.LastIndexByte(text[:e.CostBytes], '\n')
		if cut <= 0 {
			cut = e.CostBytes
		}
		note = fmt.Sprintf("\n_(excerpt: first %d of %d bytes)_\n", cut, len(text))
		text = text[:cut]
	}
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	fmt.Fprintf(b, "\n%s%s\n%s\n%s\n%s", fence, lang(e), strings.TrimRight(text, "\n"), fence, note)
}

// writeOutline lists outline entries one line each, under their file's
// path (in first-seen order): the signature is the entry's text and cost.
func writeOutline(b *strings.Builder, es []Entry) {
	var paths []string
	byPath := map[string][]Entry{}
	for _, e := range es {
		p := e.Provenance.Path
		if _, ok := byPath[p]; !ok {
			paths = append(paths, p)
		}
		byPath[p] = append(byPath[p], e)
	}
	for _, p := range paths {
		fmt.Fprintf(b, "\n%s\n\n", p)
		for _, e := range byPath[p] {
			sig := e.Facts[FactSignature]
			fence := strings.Repeat("`", max(1, longestRun(sig, '`')+1))
			fmt.Fprintf(b, "- %s%s%s — `%s` · relevance %v · %s tokens in full\n", fence, pad(sig), fence, e.URI, e.Relevance, e.Facts[FactFullTokens])
		}
	}
}

// pad keeps an inline code span whose text starts or ends with a backtick
// readable (CommonMark strips one space each side).
func pad(s string) string {
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return " " + s + " "
	}
	return s
}

func lang(e Entry) string {
	switch path.Ext(e.Provenance.Path) {
	case ".go":
		return "go"
	case ".md", ".mdx", ".markdown":
		return "markdown"
	}
	return ""
}

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

func cell(s string) string { return strings.ReplaceAll(oneLine(s), "|", `\|`) }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func short(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// repositoryFirst puts the exclusions that are the repository's doing
// (a stale, superseded or unresolved passage) before those of the budget
// and the outline: a reader opening the table must see first which docs
// were left out because they no longer hold. Otherwise the answer's order.
func repositoryFirst(xs []Excluded) []Excluded {
	out := make([]Excluded, 0, len(xs))
	for pass := 0; pass < 2; pass++ {
		for _, x := range xs {
			if repo := x.Reason == ReasonStale || x.Reason == ReasonSuperseded || x.Reason == ReasonUnresolved; repo == (pass == 0) {
				out = append(out, x)
			}
		}
	}
	return out
}
