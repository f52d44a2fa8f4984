package claims

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Report renders a run in multivac's text layout (docs/claims.md): diagnostics,
// coverage, read lines, per-state claim counts, one line per non-ok leg,
// finished changes, then the summary with the exit code. Plain text; the
// caller may colour it (ok green, moved yellow, pending/unevaluated dim).
func Report(r *Result) string {
	var b strings.Builder
	line := func(label, text string) { fmt.Fprintf(&b, "  %-9s %s\n", label, text) }

	for _, d := range r.Diagnostics {
		line(diagLabel(d), fmt.Sprintf("%s:%d — %s", d.Doc, d.Line, d.Message))
	}
	if len(r.Diagnostics) > 0 {
		b.WriteString("\n")
	}

	if r.Consumer != "" {
		fmt.Fprintf(&b, "scoped to repo %q · brain at %s\n", r.Consumer, r.BrainDir)
		fmt.Fprintf(&b, "%d of %d brain claims anchor into %q\n", r.Coverage.Anchored, r.Coverage.Claims, r.Consumer)
	} else {
		fmt.Fprintf(&b, "%d claims · %d anchored", r.Coverage.Claims, r.Coverage.Anchored)
		if r.Coverage.Claims > 0 {
			fmt.Fprintf(&b, " (%d%%)", int(math.Round(100*float64(r.Coverage.Anchored)/float64(r.Coverage.Claims))))
		}
		b.WriteString("\n")
		if len(r.Unanchored) > 0 {
			fmt.Fprintf(&b, "  unanchored: %s\n", strings.Join(r.Unanchored, ", "))
		}
	}
	for _, rl := range r.Reads {
		line("read", rl)
	}
	b.WriteString("\n")

	counts := map[LegState]int{}
	for _, c := range r.Claims {
		counts[c.State]++
	}
	for _, s := range append(stateOrder, LegRetired) {
		if counts[s] > 0 {
			fmt.Fprintf(&b, "  %-9s %3d\n", s, counts[s])
		}
	}
	for _, c := range r.Claims {
		for _, l := range c.Legs {
			if l.State == StateOK {
				continue
			}
			line(string(l.State), fmt.Sprintf("%s [%s] %s:%d · %s%s", c.ID, legModeLabel(l), l.Doc, l.Line, l.Detail, l.Note))
		}
	}
	for _, f := range r.Finished {
		note := " · reported only — this run is not --strict"
		if f.Gating {
			note = " · blocking"
		}
		line("finished", fmt.Sprintf("%s — every declared claim resolves ok and every repo has landed; close it: multivac change close %s%s", f.Slug, f.Slug, note))
	}

	if !strings.HasSuffix(b.String(), "\n\n") {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%d blocking broken · exit %d", r.blocking(), r.Exit)
	if n := r.parseErrors(); n > 0 {
		fmt.Fprintf(&b, " · %d anchor parse errors", n)
	}
	if n := r.finishedGating(); n > 0 {
		fmt.Fprintf(&b, " · %d finished %s unclosed", n, plural(n, "change", "changes"))
	}
	switch {
	case r.Exit == 2 && r.ConfigMissing:
		b.WriteString(" · config missing")
	case r.Exit == 2:
		b.WriteString(" · config invalid")
	}
	b.WriteString("\n")

	if len(r.Pending) > 0 {
		slugs := map[string]bool{}
		for _, s := range r.Pending {
			slugs[s] = true
		}
		names := make([]string, 0, len(slugs))
		for s := range slugs {
			names = append(names, s)
		}
		sort.Strings(names)
		fmt.Fprintf(&b, "  %d %s held pending by open %s %s — not gating; close or delete the change to unmask them\n",
			len(r.Pending), plural(len(r.Pending), "claim", "claims"), plural(len(names), "change", "changes"), strings.Join(names, ", "))
	}
	if ids := r.driftIDs(); len(ids) > 0 {
		fmt.Fprintf(&b, "  drift: %s — recorded %s, tracked in the law table, not gating; fix the code, then retire or amend the row\n",
			strings.Join(ids, ", "), plural(len(ids), "finding", "findings"))
	}
	return b.String()
}

func legModeLabel(l LegResult) string {
	return string(l.Mode) // each! prints as [each], count=N as [count], like multivac
}

func diagLabel(d Diagnostic) string {
	switch {
	case d.Code == CodeConfig:
		return "config"
	case d.Severity == SeverityError:
		return "parse"
	}
	return "warning"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func (r *Result) parseErrors() int {
	n := 0
	for _, d := range r.Diagnostics {
		if d.Code == CodeParse && d.Severity == SeverityError {
			n++
		}
	}
	return n
}

func (r *Result) finishedGating() int {
	n := 0
	for _, f := range r.Finished {
		if f.Gating {
			n++
		}
	}
	return n
}

// driftIDs are drift rows with a non-ok leg.
func (r *Result) driftIDs() []string {
	var ids []string
	for _, c := range r.Claims {
		for _, l := range c.Legs {
			if l.RowState == StateDrift && l.State != StateOK {
				ids = append(ids, c.ID)
				break
			}
		}
	}
	return ids
}

// EditorDiagnostics are the per-leg and per-row findings an editor shows
// (docs/server.md): one on each non-ok leg's line, one on each failing claim's row
// with its worst leg's code. Gating → error; moved and non-gating
// broken/vacuous → warning; pending and unevaluated → information.
func (r *Result) EditorDiagnostics() []Diagnostic {
	var out []Diagnostic
	for _, c := range r.Claims {
		var worst *LegResult
		for i := range c.Legs {
			l := &c.Legs[i]
			if l.State == StateOK {
				continue
			}
			out = append(out, Diagnostic{Doc: l.Doc, Line: l.Line, Severity: legSeverity(*l), Code: legCode(l.State),
				Message: fmt.Sprintf("%s %s [%s]: %s", c.ID, l.State, l.ModeText, l.Detail)})
			if l.State == LegRetired {
				continue // the row itself says retired
			}
			if worst == nil || rank(l.State) > rank(worst.State) || rank(l.State) == rank(worst.State) && l.Gating && !worst.Gating {
				worst = l
			}
		}
		if worst != nil && c.Row != nil {
			out = append(out, Diagnostic{Doc: c.Row.Doc, Line: c.Row.Line, Severity: legSeverity(*worst), Code: legCode(worst.State),
				Message: fmt.Sprintf("%s is %s — %s:%d [%s]: %s", c.ID, c.State, worst.Doc, worst.Line, worst.ModeText, worst.Detail)})
		}
	}
	return out
}

func legSeverity(l LegResult) Severity {
	switch {
	case l.Gating:
		return SeverityError
	case l.State == StatePending || l.State == StateUnevaluated || l.State == LegRetired:
		return SeverityInformation
	}
	return SeverityWarning
}

func legCode(s LegState) string {
	switch s {
	case StateBroken:
		return CodeBroken
	case StateVacuous:
		return CodeVacuous
	case StateMoved:
		return CodeMoved
	case StatePending:
		return CodePending
	case LegRetired:
		return CodeRetired
	}
	return CodeUnevaluated
}
