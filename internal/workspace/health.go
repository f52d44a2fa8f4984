package workspace

import (
	"fmt"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/claims"
)

// Health is a report's anchor and claim health for a reader who cannot
// take the whole report (an agent): counts by state, and every finding
// that is not fresh / ok with what to do about it. It is a projection of
// the Report; nothing in it is computed anew.
type Health struct {
	// Exit is what `clew-lsp verify` would exit with.
	Exit int `json:"exit"`
	// CheckComplete is false when the check's budget stopped the search
	// (the unchecked anchors are then listed as findings).
	CheckComplete bool           `json:"check_complete"`
	Anchors       map[string]int `json:"anchors"`
	Claims        map[string]int `json:"claims"`
	Findings      []HealthItem   `json:"findings"`
}

// HealthItem is one non-fresh anchor, failing claim leg, or diagnostic.
type HealthItem struct {
	Doc  string `json:"doc"`
	Line int    `json:"line"`
	// What is "anchor", "claim_leg" or "diagnostic".
	What string `json:"what"`
	// State is the anchor or leg state, or the diagnostic's severity.
	State string `json:"state"`
	// Gating is true when this finding alone makes verify fail.
	Gating bool `json:"gating"`
	// Target names what the anchor binds (`method Cache.Lookup
	// (resolver/resolve.go)`), the leg's claim, or the diagnostic's code.
	Target string `json:"target"`
	// Todo is the reason in words and what to do, as `verify` prints it.
	Todo string `json:"todo"`
}

// Health projects the report. Anchors first (doc, line order), then claim
// legs, then diagnostics.
func (r *Report) Health() Health {
	h := Health{Exit: r.Exit, CheckComplete: r.Complete, Anchors: map[string]int{}, Claims: map[string]int{},
		Findings: []HealthItem{}}
	for _, a := range r.Anchors {
		h.Anchors[string(a.State)]++
		if a.State == anchors.StateFresh {
			continue
		}
		h.Findings = append(h.Findings, HealthItem{Doc: a.Doc, Line: a.Line, What: "anchor", State: string(a.State),
			Gating: a.Gating, Target: anchorTarget(a), Todo: explain(a, TextOptions{})})
	}
	for _, c := range r.Claims {
		h.Claims[string(c.State)]++
		for _, l := range c.Legs {
			if l.State == claims.StateOK {
				continue
			}
			h.Findings = append(h.Findings, HealthItem{Doc: l.Doc, Line: l.Line, What: "claim_leg", State: string(l.State),
				Gating: l.Gating, Target: fmt.Sprintf("claim %s (%s leg)", c.ID, l.Mode), Todo: legTodo(l)})
		}
	}
	for _, d := range r.Diagnostics {
		h.Findings = append(h.Findings, HealthItem{Doc: d.Doc, Line: d.Line, What: "diagnostic", State: string(d.Severity),
			Gating: d.Severity == SeverityError, Target: d.Code, Todo: d.Message})
	}
	return h
}

// legTodo is a failing leg's detail (the claims engine already says what
// to do there), or else the usual remedy for its state.
func legTodo(l LegReport) string {
	if d := strings.TrimSpace(l.Detail); d != "" {
		return d
	}
	switch l.State {
	case claims.StateBroken:
		return "the code no longer satisfies the claim: fix the code, or amend the claim row after review"
	case claims.StateMoved:
		return "the files moved: run `clew-lsp verify` without --check to rewrite the leg's glob"
	case claims.StateVacuous:
		return "the leg matches nothing, so it proves nothing: fix its glob or pattern"
	case claims.StateUnevaluated:
		return "its repository could not be read (not cloned, or not fetched): fetch it, then verify again"
	case claims.StatePending:
		return "an open change holds the claim; it is checked when the change lands"
	}
	return string(l.State)
}

// AnchorTarget names what an anchor binds, as verify prints it
// (`method Cache.Lookup (resolver/resolve.go)`, `lines a.go#L1-L9`).
func AnchorTarget(a AnchorReport) string { return anchorTarget(a) }

// AnchorTodo is an anchor's state in words and what to do, as verify
// prints it (with the CLI command to run).
func AnchorTodo(a AnchorReport) string { return explain(a, TextOptions{}) }
