package query

import (
	"fmt"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// HoverInfo is a hover: Markdown over the span it describes.
type HoverInfo struct {
	Location
	Markdown string
	// Change is set on a stale anchor whose change can be shown; the
	// protocol layer adds its way to show it (a command link, a command
	// name) under the Markdown.
	Change *ChangeTarget
}

// Hover answers a hover at byte offset off of file rel. On an anchor: its
// state and reason in words, where it resolves, and a preview of the
// declaration's signature (or the range's first lines). On code that
// anchors bind: each passage with its first lines.
func Hover(r *workspace.Report, s *workspace.Snapshot, rel string, off int) (HoverInfo, bool) {
	if a, ok := AnchorAt(r, rel, off); ok {
		h := HoverInfo{Location: qCommentSpan(a), Markdown: anchorHover(r, s, a)}
		if CanShowChange(s, a) {
			h.Change = &ChangeTarget{Request: -1, Doc: a.Doc, Line: a.Line, Subject: workspace.AnchorSubject(a)}
		}
		return h, true
	}
	var bound []workspace.AnchorReport
	var loc Location
	if d, ok := declAt(s, rel, off); ok {
		bound = boundTo(r, rel, d)
		loc = Location{Path: rel, StartByte: d.NameStartByte, EndByte: d.NameEndByte}
	}
	if text, ok := s.Text(rel); ok {
		if lines := linesAt(r, rel, qLineAt(text, off)); len(lines) > 0 {
			bound = append(bound, lines...)
			if loc.Path == "" {
				loc = Location{Path: rel, StartByte: off, EndByte: off}
			}
		}
	}
	if len(bound) == 0 {
		return HoverInfo{}, false
	}
	refs := make([]AnchorRef, 0, len(bound))
	for _, a := range bound {
		refs = append(refs, qRefOf(a))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**clew** · %s\n", qLensTitle(refs))
	for _, a := range bound {
		fmt.Fprintf(&b, "\n- **%s:%d** · %s", a.Doc, a.Line, a.State)
		if a.Claim != "" {
			fmt.Fprintf(&b, " · claim %s", a.Claim)
		}
		heading, prose := passagePreview(s, a)
		if heading != "" {
			fmt.Fprintf(&b, " — %q", heading)
		}
		b.WriteString("\n")
		for _, p := range prose {
			fmt.Fprintf(&b, "  > %s\n", p)
		}
	}
	return HoverInfo{Location: loc, Markdown: b.String()}, true
}

// anchorHover says each thing once, in words: what the anchor binds and
// its state, why and what to do (which names where it resolves), then the
// declaration's signature or the range's first lines.
func anchorHover(r *workspace.Report, s *workspace.Snapshot, a workspace.AnchorReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** · %s", workspace.AnchorSubject(a), a.State)
	if a.Claim != "" {
		fmt.Fprintf(&b, " · leg of claim %s", a.Claim)
	}
	fmt.Fprintf(&b, "\n\n%s\n", workspace.EditorExplanation(a))
	f := a.Found
	if f == nil {
		return b.String()
	}
	switch f.Form {
	case anchors.FormSymbol:
		if f.Signature != "" {
			fmt.Fprintf(&b, "\n```%s\n%s\n```\n", qFenceLang(f.Path), f.Signature)
		}
	case anchors.FormLines:
		if text, ok := s.Text(f.Path); ok {
			if lines := qLinesOf(text, f.StartLine, min(f.EndLine, f.StartLine+5)); len(lines) > 0 {
				fmt.Fprintf(&b, "\n```%s\n%s\n```\n", qFenceLang(f.Path), strings.Join(lines, "\n"))
			}
		}
	}
	return b.String()
}

func qFenceLang(p string) string {
	if lang, ok := symbols.LanguageForPath(p); ok {
		return string(lang)
	}
	return ""
}

// qLinesOf returns 1-based lines start..end of text, without terminators.
func qLinesOf(text []byte, start, end int) []string {
	all := strings.Split(string(text), "\n")
	if start < 1 || start > len(all) {
		return nil
	}
	end = min(end, len(all))
	out := make([]string, 0, end-start+1)
	for _, l := range all[start-1 : end] {
		out = append(out, strings.TrimRight(l, "\r"))
	}
	return out
}

// passagePreview is a passage's heading and its first two lines of prose
// (not blank, not a comment, not in a fence), each cut to 160 bytes.
func passagePreview(s *workspace.Snapshot, a workspace.AnchorReport) (heading string, prose []string) {
	text, ok := s.Text(a.Doc)
	if !ok {
		return "", nil
	}
	p := a.Anchor.Passage
	inFence := false
	for i, l := range qLinesOf(text, p.StartLine, p.EndLine) {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			inFence = !inFence
			continue
		case inFence || t == "" || strings.HasPrefix(t, "<!--"):
			continue
		case i == 0 && p.Level > 0:
			continue // the heading itself
		}
		if len(t) > 160 {
			t = t[:160] + "…"
		}
		prose = append(prose, t)
		if len(prose) == 2 {
			break
		}
	}
	return p.Heading, prose
}

// SeverityHint is the severity of hints in code files: shown faintly, never
// listed as a problem.
const SeverityHint workspace.Severity = "hint"

// CodeHints returns, when the configuration asks for them (hints_in_code),
// one hint per declaration in a code file whose passage is stale: the code
// changed since the passage was reviewed, so whoever edits it sees which
// docs to re-read. Keyed by workspace-relative path like Findings.
func CodeHints(r *workspace.Report, s *workspace.Snapshot) map[string][]workspace.Finding {
	if !s.Config().HintsInCode {
		return nil
	}
	type group struct {
		loc  Location
		refs []workspace.AnchorReport
	}
	groups := map[Location]*group{}
	var order []Location
	memo := declMemo{}
	for _, a := range r.Anchors {
		f := a.Found
		if a.State != anchors.StateStale || f == nil || f.Form == anchors.FormDoc || s.IsDoc(f.Path) {
			continue
		}
		loc, ok := bindingLocation(s, memo, *f)
		if !ok {
			continue
		}
		if f.Form == anchors.FormLines {
			loc.EndByte = loc.StartByte
		}
		g := groups[loc]
		if g == nil {
			g = &group{loc: loc}
			groups[loc] = g
			order = append(order, loc)
		}
		g.refs = append(g.refs, a)
	}
	out := map[string][]workspace.Finding{}
	for _, loc := range order {
		g := groups[loc]
		var where []string
		for _, a := range g.refs {
			w := fmt.Sprintf("%s:%d", a.Doc, a.Line)
			if h := a.Anchor.Passage.Heading; h != "" {
				w += fmt.Sprintf(" (%q)", h)
			}
			where = append(where, w)
		}
		msg := fmt.Sprintf("this code changed since its passage was reviewed: re-read %s, then confirm it there", strings.Join(where, ", "))
		if len(where) > 1 {
			msg = fmt.Sprintf("this code changed since its passages were reviewed: re-read %s, then confirm them there", strings.Join(where, ", "))
		}
		out[loc.Path] = append(out[loc.Path], workspace.Finding{Path: loc.Path, StartByte: loc.StartByte, EndByte: loc.EndByte,
			Severity: SeverityHint, Code: anchors.CodeAnchorStale, Message: msg, AnchorID: g.refs[0].ID})
	}
	return out
}
