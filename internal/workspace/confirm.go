package workspace

import (
	"fmt"
	"sort"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
)

// DocEdit is a set of edits to one doc, computed against the snapshot's
// content of that doc.
type DocEdit struct {
	Doc   string
	Edits []anchors.Edit
}

// Apply returns the doc's new bytes.
func (d DocEdit) Apply(text []byte) []byte { return anchors.ApplyEdits(text, d.Edits) }

// Rebinds returns the self-heal of `verify` without --check: every
// moved-renamed anchor gets its kind, name and path (or range) rewritten to
// where it now resolves. Hashes are kept, so a moved anchor whose body also
// changed stays stale until someone confirms it.
func (r *Report) Rebinds() []DocEdit {
	byDoc := map[string][]anchors.Edit{}
	for _, a := range r.Anchors {
		if a.State != anchors.StateMovedRenamed || a.Found == nil {
			continue
		}
		if e := anchors.RebindEdits(a.Anchor, *a.Found); len(e) > 0 {
			byDoc[a.Doc] = append(byDoc[a.Doc], e...)
		}
	}
	return groupEdits(byDoc)
}

func groupEdits(byDoc map[string][]anchors.Edit) []DocEdit {
	out := make([]DocEdit, 0, len(byDoc))
	for doc, e := range byDoc {
		out = append(out, DocEdit{Doc: doc, Edits: e})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Doc < out[j].Doc })
	return out
}

// Target selects anchors to confirm: every anchor of Doc, or the one on
// Line when Line > 0.
type Target struct {
	Doc  string
	Line int
}

// Refusal is an anchor that could not be confirmed, with what to do.
type Refusal struct {
	Anchor  AnchorReport
	Message string
}

// ConfirmResult is what a confirm would write and what it refused.
type ConfirmResult struct {
	Edits     []DocEdit
	Confirmed []AnchorReport
	Refused   []Refusal
	// Unmatched lists targets that named no anchor.
	Unmatched []Target
	// Unparsed are the parse errors of the anchors the targets cover: a
	// malformed anchor is never confirmed, and never silently skipped.
	Unparsed []Diagnostic
}

// Confirm pins unpinned anchors and confirms stale or moved ones, writing
// the current binding and hashes: the explicit act that clears a flag. An
// anchor that does not resolve is refused with the declarations of that
// name that do exist, so a typo is caught when it is written.
func (r *Report) Confirm(targets []Target, all bool) ConfirmResult {
	var res ConfirmResult
	byDoc := map[string][]anchors.Edit{}
	matched := make([]bool, len(targets))
	for _, a := range r.Anchors {
		hit := all
		for i, t := range targets {
			if t.Doc == a.Doc && (t.Line == 0 || t.Line == a.Line) {
				hit, matched[i] = true, true
			}
		}
		if !hit {
			continue
		}
		if a.Found == nil {
			res.Refused = append(res.Refused, Refusal{a, r.refusal(a)})
			continue
		}
		if e := anchors.ConfirmEdits(a.Anchor, *a.Found); len(e) > 0 {
			byDoc[a.Doc] = append(byDoc[a.Doc], e...)
		}
		res.Confirmed = append(res.Confirmed, a)
	}
	for _, d := range r.Diagnostics {
		if d.Code != anchors.CodeAnchorParse || d.Severity != SeverityError {
			continue
		}
		hit := all
		for i, t := range targets {
			if t.Doc == d.Doc && (t.Line == 0 || t.Line == d.Line) {
				hit, matched[i] = true, true
			}
		}
		if hit {
			res.Unparsed = append(res.Unparsed, d)
		}
	}
	for i, t := range targets {
		if !matched[i] {
			res.Unmatched = append(res.Unmatched, t)
		}
	}
	res.Edits = groupEdits(byDoc)
	return res
}

func (r *Report) refusal(a AnchorReport) string {
	switch {
	case a.State == anchors.StateUnchecked:
		return fmt.Sprintf("%s could not be checked (%s) — raise the budget in %s and run again", a.ID, a.Detail.Reason, ConfigFile)
	case a.Detail.Reason == anchors.ReasonAmbiguous:
		return fmt.Sprintf("%s is ambiguous: %s — edit the anchor to name one of them", a.ID, listCandidates(a.Detail.Candidates))
	}
	target := a.QualifiedName
	if a.Anchor.Form != anchors.FormSymbol {
		target = a.Path
	}
	msg := fmt.Sprintf("%s does not resolve: no %s %s in %s", a.ID, a.Kind, target, a.Path)
	if a.Detail.Note != "" {
		msg += " (" + a.Detail.Note + ")"
	}
	if a.Anchor.Form == anchors.FormSymbol && r.index != nil {
		if named := r.index.Named(a.QualifiedName); len(named) > 0 {
			msg += "; declarations of that name: " + listCandidates(named)
		} else if len(a.Detail.Suggestions) > 0 {
			msg += "; did you mean " + listCandidates(a.Detail.Suggestions)
		}
	}
	return msg + " — fix the anchor, then confirm"
}

func listCandidates(c []anchors.Candidate) string {
	parts := make([]string, 0, len(c))
	for _, x := range c {
		parts = append(parts, fmt.Sprintf("%s %s (%s:%d)", x.Kind, x.QualifiedName, x.Path, x.LineStart))
	}
	return strings.Join(parts, ", ")
}
