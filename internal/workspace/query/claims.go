package query

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/claims"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// Editor queries over the claims engine's result (docs/server.md claim rows): the
// lens on each row of `.multivac/invariants.md`, go-to-definition from a
// claim ID or an `@anchor` leg to what its legs matched, and the quick fixes
// of claim/moved and claim/parse.
//
// Matches are located in the brain's own checkout only: a match in a
// sibling repository (a `repos:` key other than the brain's) names a file
// read at its channel ref, which is neither a file of this workspace nor
// necessarily the bytes of its working tree, so it is left out.

// qLegOpenerRE finds an `@anchor` comment and its claim ID token.
var qLegOpenerRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<!--\s*@anchor\s+([^\s]+)`) })

// claimRow is one row of the law file as the editor sees it.
type claimRow struct {
	row    claims.Row
	idLoc  Location // the ID in its cell
	lineLo int      // the row's line span
	lineHi int
}

// claimRows reads the law table of the snapshot with the ID cell's span.
func claimRows(s *workspace.Snapshot) []claimRow {
	text, ok := s.Text(claims.LawFile)
	if !ok {
		return nil
	}
	rows, _ := claims.ParseRows(text)
	out := make([]claimRow, 0, len(rows))
	for _, row := range rows {
		lo, hi := s.LineSpan(claims.LawFile, row.Line)
		line := string(text[lo:hi])
		bar := strings.IndexByte(line, '|')
		if bar < 0 {
			continue
		}
		i := strings.Index(line[bar+1:], row.ID)
		if i < 0 {
			continue
		}
		start := lo + bar + 1 + i
		out = append(out, claimRow{row: row, lineLo: lo, lineHi: hi,
			idLoc: Location{Path: claims.LawFile, StartByte: start, EndByte: start + len(row.ID)}})
	}
	return out
}

// claimResult returns the evaluated claim with that ID.
func claimResult(r *workspace.Report, id string) (*claims.ClaimResult, bool) {
	if r.ClaimsResult() == nil {
		return nil, false
	}
	for i := range r.ClaimsResult().Claims {
		if r.ClaimsResult().Claims[i].ID == id {
			return &r.ClaimsResult().Claims[i], true
		}
	}
	return nil, false
}

// qWorstLeg is the leg a claim row's diagnostic names (the same rule as the
// engine's EditorDiagnostics): the worst state, a gating leg before a
// non-gating one, the first of equals. -1 when every leg is ok.
func qWorstLeg(c *claims.ClaimResult) int {
	worst := -1
	for i, l := range c.Legs {
		if l.State == claims.StateOK || l.State == claims.LegRetired {
			continue // a retired row's skipped leg is not a finding of the row
		}
		if worst < 0 || qLegRank(l.State) > qLegRank(c.Legs[worst].State) ||
			qLegRank(l.State) == qLegRank(c.Legs[worst].State) && l.Gating && !c.Legs[worst].Gating {
			worst = i
		}
	}
	return worst
}

func qLegRank(s claims.LegState) int {
	for i, o := range []claims.LegState{claims.StateOK, claims.StatePending, claims.StateUnevaluated,
		claims.StateMoved, claims.StateVacuous, claims.StateBroken} {
		if o == s {
			return i
		}
	}
	return 6
}

// legMatches locates what one leg matched: each matching line of the
// brain's files (sibling repositories are skipped, see above); for a `@code`
// leg, the declaration it binds.
func legMatches(r *workspace.Report, s *workspace.Snapshot, memo declMemo, l claims.LegResult) []Location {
	if l.Mode == claims.ModeCode {
		for _, a := range r.Anchors {
			if a.Doc == l.Doc && a.Line == l.Line && a.Claim != "" && a.Found != nil {
				if loc, ok := bindingLocation(s, memo, *a.Found); ok {
					return []Location{loc}
				}
			}
		}
		return nil
	}
	var out []Location
	for _, m := range l.Matches {
		if m.Repo != "brain" {
			continue
		}
		if _, ok := s.Text(m.Path); !ok {
			continue
		}
		start, end := s.LineSpan(m.Path, m.Line)
		out = append(out, Location{Path: m.Path, StartByte: start, EndByte: end})
	}
	return out
}

// legLocation is the leg's own line: where a click lands when the leg
// matched nothing.
func legLocation(s *workspace.Snapshot, l claims.LegResult) Location {
	start, end := s.LineSpan(l.Doc, l.Line)
	if c := qLegCommentStart(s, l.Doc, start, end); c >= 0 {
		start = c
	}
	return Location{Path: l.Doc, StartByte: start, EndByte: end}
}

// qLegCommentStart is the offset of the `<!--` of the leg on the line
// [start, end) of doc; -1 when there is none.
func qLegCommentStart(s *workspace.Snapshot, doc string, start, end int) int {
	text, ok := s.Text(doc)
	if !ok || end > len(text) || start > end {
		return -1
	}
	m := qLegOpenerRE().FindIndex(text[start:end])
	if m == nil {
		return -1
	}
	return start + m[0]
}

// claimMatches is every match of every leg of a claim, in leg order,
// without repeats.
func claimMatches(r *workspace.Report, s *workspace.Snapshot, c *claims.ClaimResult) []Location {
	memo := declMemo{}
	seen := map[Location]bool{}
	var out []Location
	for _, l := range c.Legs {
		for _, loc := range legMatches(r, s, memo, l) {
			if !seen[loc] {
				seen[loc] = true
				out = append(out, loc)
			}
		}
	}
	return out
}

// claimLensesOf puts a lens on each claim row of the law file: "ok · 4
// legs", or the worst leg's state and its 1-based index among the claim's
// legs ("broken · leg 2"). The lens's locations are the worst leg's matches
// (every leg's for an ok claim); a leg that matched nothing is its own
// location, so a click still lands somewhere useful.
func claimLensesOf(r *workspace.Report, s *workspace.Snapshot, rel string) []Lens {
	if rel != claims.LawFile || r.ClaimsResult() == nil {
		return nil
	}
	unanchored := map[string]bool{}
	for _, id := range r.ClaimsResult().Unanchored {
		unanchored[id] = true
	}
	var out []Lens
	for _, cr := range claimRows(s) {
		title, locs := rowLens(r, s, cr.row.ID, unanchored[cr.row.ID])
		refs := make([]AnchorRef, 0, len(locs))
		for _, loc := range locs {
			refs = append(refs, AnchorRef{Location: loc, Doc: loc.Path, Claim: cr.row.ID})
		}
		out = append(out, Lens{Location: cr.idLoc, Title: title, Anchors: refs})
	}
	return out
}

// rowLens is the title and locations of one row's lens.
func rowLens(r *workspace.Report, s *workspace.Snapshot, id string, unanchored bool) (string, []Location) {
	c, ok := claimResult(r, id)
	if !ok || len(c.Legs) == 0 {
		if unanchored {
			return "no legs", nil
		}
		return "no legs evaluated", nil
	}
	memo := declMemo{}
	if w := qWorstLeg(c); w >= 0 {
		l := c.Legs[w]
		locs := legMatches(r, s, memo, l)
		if len(locs) == 0 {
			locs = []Location{legLocation(s, l)}
		}
		return fmt.Sprintf("%s · leg %d", l.State, w+1), locs
	}
	locs := claimMatches(r, s, c)
	if len(locs) == 0 {
		for _, l := range c.Legs {
			locs = append(locs, legLocation(s, l))
		}
	}
	return fmt.Sprintf("ok · %d leg%s", len(c.Legs), qPlural(len(c.Legs))), locs
}

// claimDefinitionAt answers go-to-definition on a claim: on the ID of a law
// row or of an `@anchor` leg, every match of the claim's legs; anywhere
// else on an `@anchor` comment, that leg's matches. (A `@code` leg is an
// anchor: Definition answers it with its declaration before asking here.)
func claimDefinitionAt(r *workspace.Report, s *workspace.Snapshot, rel string, off int) []Location {
	if r.ClaimsResult() == nil {
		return nil
	}
	if rel == claims.LawFile {
		for _, cr := range claimRows(s) {
			if off >= cr.idLoc.StartByte && off <= cr.idLoc.EndByte {
				if c, ok := claimResult(r, cr.row.ID); ok {
					return claimMatches(r, s, c)
				}
				return nil
			}
		}
	}
	id, onID, leg, ok := legAt(r, s, rel, off)
	if !ok {
		return nil
	}
	if onID {
		if c, found := claimResult(r, id); found {
			return claimMatches(r, s, c)
		}
		return nil
	}
	if leg == nil {
		return nil
	}
	return legMatches(r, s, declMemo{}, *leg)
}

// legAt finds the `@anchor` comment of doc that holds off: its claim ID,
// whether off is on that ID, and its evaluated leg (nil when the leg was
// not evaluated: a parse error, a retired row's non-absent leg).
func legAt(r *workspace.Report, s *workspace.Snapshot, doc string, off int) (id string, onID bool, leg *claims.LegResult, ok bool) {
	text, found := s.Text(doc)
	if !found || off < 0 || off > len(text) {
		return "", false, nil, false
	}
	line := 1 + bytes.Count(text[:off], []byte{'\n'})
	start, end := s.LineSpan(doc, line)
	m := qLegOpenerRE().FindSubmatchIndex(text[start:end])
	if m == nil {
		return "", false, nil, false
	}
	commentEnd := end
	if i := strings.Index(string(text[start+m[0]:end]), "-->"); i >= 0 {
		commentEnd = start + m[0] + i + len("-->")
	}
	if off < start+m[0] || off > commentEnd {
		return "", false, nil, false
	}
	id = string(text[start+m[2] : start+m[3]])
	onID = off >= start+m[2] && off <= start+m[3]
	for ci := range r.ClaimsResult().Claims {
		c := &r.ClaimsResult().Claims[ci]
		for li := range c.Legs {
			if l := &c.Legs[li]; l.Doc == doc && l.Line == line && l.Mode != claims.ModeCode {
				return id, onID, l, true
			}
		}
	}
	return id, onID, nil, true
}

// claimShowAnchors answers clew.showAnchors on a law row (what its lens
// shows) or on an `@anchor` leg (its definition); ok is false elsewhere.
func claimShowAnchors(r *workspace.Report, s *workspace.Snapshot, rel string, off int) ([]Location, bool) {
	if r.ClaimsResult() == nil {
		return nil, false
	}
	if rel == claims.LawFile {
		for _, cr := range claimRows(s) {
			if off >= cr.lineLo && off <= cr.lineHi {
				if _, _, _, onLeg := legAt(r, s, rel, off); onLeg {
					break // a leg written in the row's cell: the leg wins
				}
				_, locs := rowLens(r, s, cr.row.ID, false)
				return locs, true
			}
		}
	}
	if _, _, _, ok := legAt(r, s, rel, off); ok {
		return claimDefinitionAt(r, s, rel, off), true
	}
	return nil, false
}

// claimFixesOf computes the quick fixes of one claim diagnostic the editor
// names: "Rewrite the moved glob" (the engine's in-place rewrite of a moved
// leg; on a row, for each of its moved legs) and "Fix the regex dialect"
// (a refused shorthand or bare class rewritten into POSIX ERE, only the
// regex token of the line). A request that matches no current finding gets
// nothing.
func claimFixesOf(r *workspace.Report, s *workspace.Snapshot, doc string, req int, fr FixRequest) []Fix {
	if r.ClaimsResult() == nil || !hasClaimFinding(r, doc, fr) {
		return nil
	}
	text, ok := s.Text(doc)
	if !ok || fr.StartByte < 0 || fr.StartByte > len(text) {
		return nil
	}
	line := 1 + bytes.Count(text[:fr.StartByte], []byte{'\n'})
	var out []Fix
	switch fr.Code {
	case claims.CodeMoved:
		add := func(l claims.LegResult, where string) {
			if l.State != claims.StateMoved || l.Edit == nil {
				return
			}
			out = append(out, Fix{Title: "Rewrite the moved glob to " + l.Edit.NewText + where, Kind: FixQuick,
				Request: req, Preferred: true, Edits: []workspace.DocEdit{{Doc: l.Edit.Doc,
					Edits: []anchors.Edit{{Start: l.Edit.Start, End: l.Edit.End, New: l.Edit.NewText}}}}})
		}
		for _, c := range r.ClaimsResult().Claims {
			for _, l := range c.Legs {
				if l.Doc == doc && l.Line == line {
					add(l, "")
				}
			}
			if c.Row != nil && c.Row.Doc == doc && c.Row.Line == line {
				for _, l := range c.Legs {
					if l.Doc != doc || l.Line != line {
						add(l, fmt.Sprintf(" (%s:%d)", l.Doc, l.Line))
					}
				}
			}
		}
	case claims.CodeParse:
		start, end := s.LineSpan(doc, line)
		fix, ok := claims.FixDialect(string(text[start:end]))
		if !ok {
			return nil
		}
		out = append(out, Fix{Title: "Fix the regex dialect: " + strings.Join(fix.Changes, ", "), Kind: FixQuick,
			Request: req, Preferred: true, Edits: []workspace.DocEdit{{Doc: doc,
				Edits: []anchors.Edit{{Start: start + fix.Start, End: start + fix.End, New: fix.Source}}}}})
	}
	return out
}

// hasClaimFinding reports whether the request names a claim diagnostic the
// report still has (same code and span).
func hasClaimFinding(r *workspace.Report, doc string, fr FixRequest) bool {
	for _, f := range r.ClaimFindings(doc) {
		if f.Code == fr.Code && f.StartByte == fr.StartByte && f.EndByte == fr.EndByte {
			return true
		}
	}
	for _, d := range r.Diagnostics {
		if d.Doc == doc && d.Code == fr.Code && d.StartByte == fr.StartByte && d.EndByte == fr.EndByte {
			return true
		}
	}
	return false
}
