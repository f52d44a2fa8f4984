package workspace

import (
	"fmt"
	"sort"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/claims"
)

// TextOptions shape the human report.
type TextOptions struct {
	// Rebound is true when verify rewrote moved anchors in place.
	Rebound bool
	// editor phrases what to do as editor actions (quick fixes) instead of
	// commands.
	editor bool
}

// Text renders the report for a person: diagnostics first, then one line
// per anchor grouped by doc, with the reason in words and what to do, then
// the counts and the exit code. It is a projection of the Report and never
// computes anything the JSON does not carry.
func (r *Report) Text(opt TextOptions) string {
	var b strings.Builder
	for _, d := range r.Diagnostics {
		fmt.Fprintf(&b, "%s:%d: %s %s: %s\n", d.Doc, d.Line, d.Severity, d.Code, d.Message)
	}
	if len(r.Diagnostics) > 0 {
		b.WriteString("\n")
	}
	byDoc := map[string][]AnchorReport{}
	var docs []string
	for _, a := range r.Anchors {
		if _, ok := byDoc[a.Doc]; !ok {
			docs = append(docs, a.Doc)
		}
		byDoc[a.Doc] = append(byDoc[a.Doc], a)
	}
	sort.Strings(docs)
	for _, doc := range docs {
		fmt.Fprintf(&b, "%s\n", doc)
		for _, a := range byDoc[doc] {
			fmt.Fprintf(&b, "  %4d  %-13s %s — %s\n", a.Line, a.State, anchorTarget(a), explain(a, opt))
		}
		b.WriteString("\n")
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(&b, "skipped %s (%s)\n", s.Path, s.Reason)
	}
	if len(r.Anchors) == 0 {
		b.WriteString("no @code anchors found\n")
	}
	counts := map[anchors.State]int{}
	for _, a := range r.Anchors {
		counts[a.State]++
	}
	order := []anchors.State{anchors.StateFresh, anchors.StateStale, anchors.StateMovedRenamed,
		anchors.StateLost, anchors.StateUnpinned, anchors.StateUnchecked}
	parts := []string{fmt.Sprintf("anchors: %d", len(r.Anchors))}
	for _, s := range order {
		if counts[s] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", s, counts[s]))
		}
	}
	fmt.Fprintf(&b, "%s · fallback share %.2f (%d of %d are line ranges or docs)\n",
		strings.Join(parts, " · "), r.FallbackShare.Share, r.FallbackShare.Fallback, r.FallbackShare.Total)
	if mc := r.MentionCoverage; mc != nil {
		m := mc.Mentions
		fmt.Fprintf(&b, "mention coverage: %d of %d passages (%d mentions: %d unique, %d ambiguous, %d unresolved; %d anchored)\n",
			mc.Anchored, mc.Passages, m.Found, m.Unique, m.Ambiguous, m.Unresolved, m.Anchored)
	}
	bud := r.Budget
	fmt.Fprintf(&b, "read %d code files, %d bytes in %d ms", bud.FilesRead, bud.BytesRead, bud.ElapsedMS)
	if !r.Complete && bud.Limit != nil {
		fmt.Fprintf(&b, " — INCOMPLETE: the %s limit stopped the check; %d anchors unchecked (raise budget in %s)",
			*bud.Limit, len(r.UncheckedAnchorIDs), ConfigFile)
	}
	b.WriteString("\n")
	b.WriteString(r.claimsText())
	fmt.Fprintf(&b, "exit %d — %s\n", r.Exit, exitWords(r))
	return b.String()
}

func anchorTarget(a AnchorReport) string {
	switch a.Anchor.Form {
	case anchors.FormLines:
		return "lines " + anchors.LinesRef(a.Path, a.Anchor.StartLine, a.Anchor.EndLine)
	case anchors.FormDoc:
		return "doc " + anchors.DocRef(a.Path, a.Anchor.Section)
	}
	return a.Kind + " " + a.QualifiedName + " (" + a.Path + ")"
}

// explain says, in words, why the anchor is in its state and what to do.
func explain(a AnchorReport, opt TextOptions) string {
	d := a.Detail
	at := func() string {
		if d.LineStart > 0 {
			return fmt.Sprintf("%s:%d", d.Path, d.LineStart)
		}
		return d.Path
	}
	confirm := "clew-lsp confirm " + a.ID
	heal := "run `clew-lsp verify` without --check to rebind it"
	if opt.Rebound {
		heal = "rebound in place; review the diff"
	}
	if opt.editor {
		heal = "the quick fix rebinds it"
	}
	if opt.editor {
		confirm = "Confirm reviewed"
	}
	if a.State == anchors.StateUnpinned {
		if opt.editor {
			return "never reviewed; the quick fix \"Pin\" records its hashes"
		}
		return "never reviewed; pin it with `" + confirm + "`"
	}
	switch d.Reason {
	case anchors.ReasonIdentityMatched:
		return "matches the reviewed code at " + at()
	case anchors.ReasonBodyChanged:
		return fmt.Sprintf("code changed since it was reviewed (%s); re-read the passage, then `%s`", at(), confirm)
	case anchors.ReasonKindChanged:
		return fmt.Sprintf("the %s is now a %s (%s); re-read the passage, then `%s`", d.OldKind, d.NewKind, at(), confirm)
	case anchors.ReasonContentChanged:
		if a.Anchor.Section != "" {
			return fmt.Sprintf("section #%s of %s changed since it was reviewed (%s); re-read both, then `%s`", a.Anchor.Section, d.Path, at(), confirm)
		}
		return fmt.Sprintf("%s changed since it was reviewed; re-read both docs, then `%s`", d.Path, confirm)
	case anchors.ReasonRangeChanged:
		return fmt.Sprintf("lines %d-%d changed since they were reviewed; re-read the passage, then `%s`", d.LineStart, d.LineEnd, confirm)
	case anchors.ReasonMoved:
		s := "moved to " + at()
		if d.BodyChanged != nil && *d.BodyChanged {
			s += " and its code changed (confirm after review)"
		}
		return s + "; " + heal
	case anchors.ReasonRenamed:
		s := "renamed to " + d.RenamedTo
		if d.MovedTo != "" {
			s += " in " + d.MovedTo
		}
		return s + " (" + at() + "); " + heal
	case anchors.ReasonMovedAndRenamed:
		s := "renamed to " + d.RenamedTo
		if d.RenamedTo == "" {
			s = "moved"
		}
		return s + " and moved to " + at() + "; " + heal
	case anchors.ReasonRangeMoved:
		return fmt.Sprintf("the block moved to lines %d-%d; %s", d.LineStart, d.LineEnd, heal)
	case anchors.ReasonAmbiguous:
		return "several declarations match equally: " + listCandidates(d.Candidates) + "; edit the anchor to name one"
	case anchors.ReasonFileMissing:
		return d.Path + " no longer exists" + suggestions(d)
	case anchors.ReasonDeclarationMissing:
		return fmt.Sprintf("no %s %s in %s or elsewhere", a.Kind, a.QualifiedName, d.Path) + suggestions(d)
	case anchors.ReasonSectionMissing:
		return fmt.Sprintf("%s has no heading #%s", d.Path, a.Anchor.Section) + suggestions(d)
	case anchors.ReasonRangeMissing:
		return fmt.Sprintf("%s no longer has lines %d-%d; fix or remove the anchor", d.Path, d.LineStart, d.LineEnd)
	case anchors.ReasonUnsupported:
		return d.Path + " has no grammar; anchor it by `lines` or `doc` instead"
	case anchors.ReasonUnpinned:
		return "never reviewed; pin it with `" + confirm + "`"
	case anchors.ReasonBinary:
		return d.Path + " is binary and was skipped; anchor a text file"
	case anchors.ReasonFileTooLarge:
		return d.Path + " is over the size limit and was skipped (budget.max_file_bytes)"
	case anchors.ReasonHashScheme:
		return d.Note
	case anchors.ReasonBudget:
		return "not checked: the budget ran out first (raise budget in " + ConfigFile + ")"
	}
	return d.Reason
}

func suggestions(d anchors.Detail) string {
	if len(d.Suggestions) == 0 {
		return "; fix or remove the anchor"
	}
	return "; did you mean " + listCandidates(d.Suggestions) + "? If so, edit the anchor; otherwise remove it"
}

func exitWords(r *Report) string {
	switch r.Exit {
	case 0:
		return "nothing gates"
	case 2:
		return "configuration error (see above)"
	}
	var why []string
	gates := map[string]int{}
	for _, a := range r.Anchors {
		if a.Gating {
			gates[string(a.State)]++
		}
	}
	for _, s := range []string{"stale", "lost", "moved-renamed", "unpinned", "unchecked"} {
		if gates[s] > 0 {
			why = append(why, fmt.Sprintf("%d %s", gates[s], s))
		}
	}
	for _, d := range r.Diagnostics {
		if d.Severity == SeverityError {
			why = append(why, "parse errors")
			break
		}
	}
	if g := r.gatingLegs(); g > 0 {
		why = append(why, fmt.Sprintf("%d gating claim legs", g))
	}
	return "gating: " + strings.Join(why, ", ")
}

func (r *Report) gatingLegs() int {
	n := 0
	for _, c := range r.Claims {
		for _, l := range c.Legs {
			if l.Gating && l.State != claims.StateOK {
				n++
			}
		}
	}
	return n
}

// claimsText is the claims section; filled in by the claims engine when
// the workspace has a brain.
func (r *Report) claimsText() string {
	if r.claimsReport == "" {
		return ""
	}
	return r.claimsReport
}
