package contextmap

import (
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/claims"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// claimsFromReport is the default claims source of the context compiler
// (brain scope): every row of the law file and every claim with legs, the
// legs parsed from the law docs, their states from the claims engine's run
// in the snapshot's Check. A leg covers the workspace files its glob
// matches and pins the declarations its regex hit — only legs over this
// workspace count (repo key "brain", the brain's own checkout, or "*"); a
// consumer-scoped or sibling setting sets contextClaims instead.
//
// A leg gates (docs/context.md) when its row gates — active or like active;
// a retired row only through its absent legs (tombstones); proposed and
// drift rows never — and its mode is in the config's `blocking:` list.
// That is whether it would block verify when broken, not whether it does
// now, which is what makes a claim required context.
func claimsFromReport(s *workspace.Snapshot, rep *workspace.Report) []Claim {
	if rep == nil || !s.IsBrain() {
		return nil
	}
	cfg, _, _ := s.ClaimsConfig()
	var rows []claims.Row
	if law, st := s.ReadFile(claims.LawFile); st == anchors.FileOK {
		rows, _ = claims.ParseRows(law)
	}
	files := s.Files()

	type legKey struct {
		doc  string
		line int
	}
	lines := map[string][]string{}
	lineText := func(doc string, line int) string {
		ls, ok := lines[doc]
		if !ok {
			if b, st := s.ReadFile(doc); st == anchors.FileOK {
				ls = strings.Split(string(b), "\n")
			}
			lines[doc] = ls
		}
		if line < 1 || line > len(ls) {
			return ""
		}
		return strings.TrimRight(ls[line-1], "\r")
	}
	results := map[legKey]claims.LegResult{}
	worst := map[string]string{}
	var codeLegs []claims.LegResult
	if rep.ClaimsResult() != nil {
		for _, cr := range rep.ClaimsResult().Claims {
			worst[cr.ID] = string(cr.State)
			for _, lr := range cr.Legs {
				results[legKey{lr.Doc, lr.Line}] = lr
				if lr.Mode == claims.ModeCode {
					codeLegs = append(codeLegs, lr)
				}
			}
		}
	}
	type leg struct {
		doc   string
		line  int
		mode  claims.Mode
		files []string
	}
	legs := map[string][]leg{}
	var order []string
	note := func(id string) {
		if _, ok := legs[id]; !ok {
			legs[id] = nil
			order = append(order, id)
		}
	}
	for _, r := range rows {
		if !r.Short {
			note(r.ID)
		}
	}
	for _, p := range files {
		if !claims.LawDoc(p) {
			continue
		}
		b, st := s.ReadFile(p)
		if st != anchors.FileOK {
			continue
		}
		ls, _ := claims.ParseDoc(p, b)
		for _, l := range ls {
			note(l.Claim)
			lg := leg{doc: l.Doc, line: l.Line, mode: l.Mode}
			if l.Repo == "brain" || l.Repo == "*" {
				lg.files = coveredFiles(l, files)
			}
			legs[l.Claim] = append(legs[l.Claim], lg)
		}
	}
	anchorAt := map[legKey]workspace.AnchorReport{}
	for _, a := range rep.Anchors {
		anchorAt[legKey{a.Doc, a.Line}] = a
	}
	for _, lr := range codeLegs {
		note(lr.Claim)
		lg := leg{doc: lr.Doc, line: lr.Line, mode: claims.ModeCode}
		legs[lr.Claim] = append(legs[lr.Claim], lg)
	}

	rowOf := map[string]claims.Row{}
	for _, r := range rows {
		if _, dup := rowOf[r.ID]; !dup && !r.Short {
			rowOf[r.ID] = r
		}
	}
	var out []Claim
	for _, id := range order {
		c := Claim{ID: id, State: claims.StateActive, Worst: worst[id]}
		var text []string
		if r, ok := rowOf[id]; ok {
			c.Statement, c.Authority, c.Date = r.Statement, r.Authority, r.Date
			c.State = r.Effective()
			c.Doc, c.Line = claims.LawFile, r.Line
			text = append(text, lineText(claims.LawFile, r.Line))
		}
		for _, l := range legs[id] {
			if c.Doc == "" {
				c.Doc, c.Line = l.doc, l.line
			}
			text = append(text, lineText(l.doc, l.line))
			gates := cfg.Blocks(l.mode)
			switch c.State {
			case claims.StateProposed, claims.StateDrift:
				gates = false
			case claims.StateRetired:
				gates = gates && l.mode == claims.ModeAbsent
			}
			cl := Leg{Mode: string(l.mode), Gating: gates, Files: l.files, State: "unevaluated"}
			if lr, ok := results[legKey{l.doc, l.line}]; ok {
				cl.State = string(lr.State)
				for _, m := range lr.Matches {
					if m.Repo == "brain" || m.Repo == "*" {
						cl.Matches = append(cl.Matches, Match{Path: m.Path, Line: m.Line})
					}
				}
			}
			if l.mode == claims.ModeCode {
				// A @code leg pins the declaration its anchor resolves to.
				if a, ok := anchorAt[legKey{l.doc, l.line}]; ok && a.Found != nil && a.Found.StartLine > 0 {
					cl.Matches = append(cl.Matches, Match{Path: a.Found.Path, Line: a.Found.StartLine})
				}
			}
			c.Legs = append(c.Legs, cl)
		}
		c.Text = strings.Join(text, "\n")
		out = append(out, c)
	}
	return out
}

// coveredFiles are the workspace files a leg's glob matches, its
// exclusions (for every repo, or for this one) honoured.
func coveredFiles(l claims.Leg, files []string) []string {
	g, _ := claims.CompileGlob(l.Include)
	if g == nil {
		return nil
	}
	var ex []*claims.Glob
	for _, x := range l.Exclusions {
		if x.Repo == "" || x.Repo == "brain" || x.Repo == "*" {
			if xg, _ := claims.CompileGlob(x.Glob); xg != nil {
				ex = append(ex, xg)
			}
		}
	}
	var out []string
	for _, f := range files {
		if !g.Match(f) {
			continue
		}
		excluded := false
		for _, xg := range ex {
			excluded = excluded || xg.Match(f)
		}
		if !excluded {
			out = append(out, f)
		}
	}
	return out
}
