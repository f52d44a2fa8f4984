package devcontext

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// A doc selected whole must not carry, as fact, the words of a passage the
// answer excludes as stale or unresolved (docs/context.md). Its text, and so
// its cost, is the doc with each such passage's lines replaced by a
// one-line marker. The redaction depends on the world only (a passage's
// anchor state), so it is done once, in Prepare.

// redaction is one doc's redacted text and the passages it left out.
type redaction struct {
	text     string
	passages []string // passage URIs, in URI order
}

// passageStaleness is why a passage is never presented: its anchor is stale
// or lost. Empty when it may be.
func passageStaleness(n *Node) (ExclusionReason, string) {
	switch {
	case n.Kind != KindPassage:
	case n.Anchor == AnchorStale:
		return ReasonStale, "its @code anchor is stale" + why(n.AnchorDetail) + ": the code changed since the passage was reviewed"
	case n.Anchor == AnchorLost:
		return ReasonUnresolved, "its @code anchor is lost" + why(n.AnchorDetail) + ": it documents code that no longer resolves"
	}
	return "", ""
}

// redactions computes, for every doc-like node that has stale or lost
// passages (part_of edges), its redacted text. A passage is located by its
// DocLines when the workspace layer set them, else by its text inside the
// doc's; a passage found neither way is not redacted (its text is not there).
func redactions(ix *index, partOf map[string][]*Node) map[string]redaction {
	out := map[string]redaction{}
	for uri := range partOf { // only a node with passages can have any to leave out
		id, ok := ix.byURI[uri]
		if !ok {
			continue
		}
		d := ix.nodes[id]
		if d == nil || d.Text == "" {
			continue
		}
		if _, whole := wholeFileRank[d.Kind]; !whole || d.Kind == KindFile {
			continue
		}
		var bad []*Node
		for _, p := range partOf[d.URI] {
			if r, _ := passageStaleness(p); r != "" {
				bad = append(bad, p)
			}
		}
		if len(bad) == 0 {
			continue
		}
		slices.SortFunc(bad, func(a, b *Node) int { return cmp.Compare(a.URI, b.URI) })
		bad = slices.CompactFunc(bad, func(a, b *Node) bool { return a.URI == b.URI })
		text, left := redactText(d.Text, bad)
		if len(left) > 0 {
			out[d.URI] = redaction{text: text, passages: left}
		}
	}
	return out
}

// textSpan is a byte range of a doc's text that one passage covers.
type textSpan struct {
	start, end int
	p          *Node
}

func redactText(text string, bad []*Node) (string, []string) {
	var spans []textSpan
	for _, p := range bad {
		if s, e, ok := locate(text, p); ok {
			spans = append(spans, textSpan{s, e, p})
		}
	}
	slices.SortFunc(spans, func(a, b textSpan) int { return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.p.URI, b.p.URI)) })
	var b strings.Builder
	var left []string
	at := 0
	for _, s := range spans {
		if s.start < at { // overlaps one already left out: its words are gone
			left = append(left, s.p.URI)
			at = max(at, s.end)
			continue
		}
		b.WriteString(text[at:s.start])
		b.WriteString(marker(s.p))
		switch cut := text[s.start:s.end]; { // keep the doc's line structure
		case strings.HasSuffix(cut, "\n\n"):
			b.WriteString("\n\n")
		case strings.HasSuffix(cut, "\n"):
			b.WriteByte('\n')
		}
		left = append(left, s.p.URI)
		at = s.end
	}
	b.WriteString(text[at:])
	slices.Sort(left)
	return b.String(), left
}

// locate finds a passage's bytes in its doc's text.
func locate(text string, p *Node) (int, int, bool) {
	if r := p.DocLines; r != nil && r.StartLine >= 1 && r.EndLine >= r.StartLine {
		s, e, line := -1, -1, 1
		for i := 0; i <= len(text); i++ {
			if line == r.StartLine && s < 0 {
				s = i
			}
			if i == len(text) {
				break
			}
			if text[i] == '\n' {
				if line == r.EndLine {
					e = i + 1
					break
				}
				line++
			}
		}
		if s >= 0 && e < 0 {
			e = len(text)
		}
		if s >= 0 && e > s {
			return s, e, true
		}
	}
	if p.Text == "" {
		return 0, 0, false
	}
	if i := strings.Index(text, p.Text); i >= 0 {
		return i, i + len(p.Text), true
	}
	return 0, 0, false
}

// marker is the one line that stands in a doc for a passage left out.
func marker(p *Node) string {
	r, _ := passageStaleness(p)
	detail := p.AnchorDetail
	if detail == "" {
		detail = "its @code anchor is " + string(p.Anchor)
	}
	name := p.Section
	if name == "" {
		name = p.Title
		if i := strings.LastIndex(name, " › "); i >= 0 {
			name = name[i+len(" › "):]
		}
	}
	return fmt.Sprintf("[passage %q left out: %s — %s; see excluded]", name, r, detail)
}

// listRedacted makes sure every passage left out of a selected doc is in
// the excluded list under its staleness reason: the marker says "see
// excluded". A passage already excluded for another reason (a walk cut) is
// listed under its staleness instead; a passage selected itself (a seed is
// kept and warned about) is left alone.
func (p *Prepared) listRedacted(selected []Entry, excluded []Excluded) []Excluded {
	if len(p.redacted) == 0 {
		return excluded
	}
	chosen := map[string]bool{}
	for _, e := range selected {
		chosen[e.URI] = true
	}
	at := map[string]int{}
	for i, x := range excluded {
		at[x.URI] = i
	}
	for _, e := range selected {
		red, ok := p.redacted[e.URI]
		if !ok {
			continue
		}
		for _, pu := range red.passages {
			if chosen[pu] {
				continue
			}
			n := p.ix.nodes[p.ix.byURI[pu]]
			r, detail := passageStaleness(n)
			x := Excluded{URI: pu, Kind: n.Kind, Tier: TierForKind(n.Kind), Reason: r,
				Detail:     detail + "; its doc " + e.URI + " is selected whole and shows a marker in its place",
				CostTokens: TokensFor(n.CostBytes()), Relevance: e.Relevance}
			i, listed := at[pu]
			switch {
			case listed && (excluded[i].Reason == ReasonStale || excluded[i].Reason == ReasonUnresolved):
			case listed:
				x.Relevance = excluded[i].Relevance
				excluded[i] = x
			default:
				at[pu] = len(excluded)
				excluded = append(excluded, x)
			}
		}
	}
	return excluded
}

// partOfIndex lists each doc's passages (part_of edges, passage → doc).
func partOfIndex(ix *index, edges []Edge) map[string][]*Node {
	out := map[string][]*Node{}
	for _, e := range edges {
		if e.Kind != EdgePartOf {
			continue
		}
		id, ok := ix.byURI[e.From]
		if !ok || id >= len(ix.nodes) || ix.nodes[id] == nil {
			continue
		}
		out[e.To] = append(out[e.To], ix.nodes[id])
	}
	return out
}
