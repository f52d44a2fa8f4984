package query

import (
	"fmt"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// Lens is one code lens in a code file: above a declaration (or a line
// range, or a doc) that anchors bind, the count of passages and claims and
// of the ones that need attention.
type Lens struct {
	Location // the declaration's name, the range's lines, or the doc's top
	Title    string
	Anchors  []AnchorRef
}

// Lenses returns the lenses of file rel, in source order. Claim rows in
// `.multivac/invariants.md` get theirs from claimLenses.
func Lenses(r *workspace.Report, s *workspace.Snapshot, rel string) []Lens {
	type group struct {
		loc  Location
		refs []AnchorRef
	}
	var order []string
	groups := map[string]*group{}
	memo := declMemo{}
	for _, a := range r.Anchors {
		f := a.Found
		if f == nil || f.Path != rel {
			continue
		}
		key := fmt.Sprintf("%s\x00%s\x00%s\x00%d\x00%d", f.Form, f.Kind, f.QualifiedName, f.StartLine, f.EndLine)
		if f.Form == anchors.FormSymbol {
			key = fmt.Sprintf("%s\x00%s\x00%s", f.Form, f.Kind, f.QualifiedName)
		}
		g := groups[key]
		if g == nil {
			loc, ok := bindingLocation(s, memo, *f)
			if !ok {
				continue
			}
			if f.Form == anchors.FormLines {
				loc.EndByte = loc.StartByte
			}
			g = &group{loc: loc}
			groups[key] = g
			order = append(order, key)
		}
		g.refs = append(g.refs, qRefOf(a))
	}
	out := make([]Lens, 0, len(order))
	for _, k := range order {
		g := groups[k]
		qSortRefs(g.refs)
		out = append(out, Lens{Location: g.loc, Title: qLensTitle(g.refs), Anchors: g.refs})
	}
	out = append(out, claimLenses(r, s, rel)...)
	qSortLenses(out)
	return out
}

func qSortLenses(ls []Lens) {
	for i := 1; i < len(ls); i++ {
		for j := i; j > 0 && ls[j].StartByte < ls[j-1].StartByte; j-- {
			ls[j], ls[j-1] = ls[j-1], ls[j]
		}
	}
}

// qLensTitle reads "2 docs · 1 claim · 1 stale": distinct docs whose
// passages bind here (claim legs aside), distinct claims, then every state
// other than fresh with its count.
func qLensTitle(refs []AnchorRef) string {
	docs, claims := map[string]bool{}, map[string]bool{}
	states := map[anchors.State]int{}
	for _, r := range refs {
		if r.Claim != "" {
			claims[r.Claim] = true
		} else {
			docs[r.Doc] = true
		}
		states[r.State]++
	}
	var parts []string
	if n := len(docs); n > 0 {
		parts = append(parts, fmt.Sprintf("%d doc%s", n, qPlural(n)))
	}
	if n := len(claims); n > 0 {
		parts = append(parts, fmt.Sprintf("%d claim%s", n, qPlural(n)))
	}
	for _, st := range []anchors.State{anchors.StateStale, anchors.StateMovedRenamed, anchors.StateUnpinned, anchors.StateUnchecked} {
		if n := states[st]; n > 0 {
			word := string(st)
			if st == anchors.StateMovedRenamed {
				word = "moved"
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, word))
		}
	}
	return strings.Join(parts, " · ")
}

// claimLenses puts the lenses on claim rows of `.multivac/invariants.md`
// ("ok · 4 legs" / "broken · leg 2", jumping to the leg's matches); see
// claims.go.
func claimLenses(r *workspace.Report, s *workspace.Snapshot, rel string) []Lens {
	return claimLensesOf(r, s, rel)
}

// Definition answers go-to-definition at byte offset off of file rel: on a
// `@code` anchor, where it binds now (the declaration's name, the line
// range, the doc); for an ambiguous anchor, every candidate. Claim IDs get
// theirs from claimDefinition.
func Definition(r *workspace.Report, s *workspace.Snapshot, rel string, off int) []Location {
	a, ok := AnchorAt(r, rel, off)
	if !ok {
		return claimDefinition(r, s, rel, off)
	}
	if a.Found != nil {
		if loc, ok := bindingLocation(s, nil, *a.Found); ok {
			return []Location{loc}
		}
		return nil
	}
	var out []Location
	for _, c := range a.Detail.Candidates {
		if loc, ok := candidateLocation(s, c); ok {
			out = append(out, loc)
		}
	}
	return out
}

// claimDefinition answers definition on a claim ID (row or leg): every
// match of its legs; on an `@anchor` leg: its matches (claims.go).
func claimDefinition(r *workspace.Report, s *workspace.Snapshot, rel string, off int) []Location {
	return claimDefinitionAt(r, s, rel, off)
}

// References answers find-references at byte offset off of a code file:
// every anchor that binds the declaration there (or, for a line, every line
// range that holds it; in a doc, every doc anchor that binds the doc). decl
// is the declaration's name, for includeDeclaration.
func References(r *workspace.Report, s *workspace.Snapshot, rel string, off int) (refs []AnchorRef, decl Location, ok bool) {
	var bound []workspace.AnchorReport
	if d, found := declAt(s, rel, off); found {
		bound = boundTo(r, rel, d)
		decl, ok = Location{Path: rel, StartByte: d.NameStartByte, EndByte: d.NameEndByte}, true
	}
	if text, found := s.Text(rel); found {
		bound = append(bound, linesAt(r, rel, qLineAt(text, off))...)
		if s.IsDoc(rel) {
			if _, onAnchor := AnchorAt(r, rel, off); !onAnchor {
				bound = append(bound, docsOn(r, rel)...)
			}
		}
	}
	for _, a := range bound {
		refs = append(refs, qRefOf(a))
	}
	qSortRefs(refs)
	return refs, decl, ok || len(refs) > 0
}

// ShowAnchors answers the clew.showAnchors command at byte offset off of
// file rel: in a doc on an anchor, where it binds; anywhere else, the
// anchors that bind the code there.
func ShowAnchors(r *workspace.Report, s *workspace.Snapshot, rel string, off int) []Location {
	if locs, ok := claimShowAnchors(r, s, rel, off); ok {
		return locs
	}
	if _, onAnchor := AnchorAt(r, rel, off); onAnchor {
		return Definition(r, s, rel, off)
	}
	refs, _, _ := References(r, s, rel, off)
	out := make([]Location, 0, len(refs))
	for _, ref := range refs {
		out = append(out, ref.Location)
	}
	return out
}

// Link is a document link: the path of an anchor, to the file it names
// (Line > 0: the first line of a line range).
type Link struct {
	Location // the path token in the doc
	Target   string
	Line     int
}

// DocumentLinks lists the path of every anchor of doc that names a file of
// the workspace. It parses the doc only; no check is needed.
func DocumentLinks(s *workspace.Snapshot, doc string) []Link {
	text, ok := s.Text(doc)
	if !ok {
		return nil
	}
	as, _ := anchors.ParseDoc(doc, text)
	var out []Link
	for _, a := range as {
		if !s.Exists(a.Path) {
			continue
		}
		l := Link{Location: Location{Path: doc, StartByte: a.PathSpan.Start, EndByte: a.PathSpan.End}, Target: a.Path}
		if a.Form == anchors.FormLines {
			l.Line = a.StartLine
		}
		out = append(out, l)
	}
	return out
}
