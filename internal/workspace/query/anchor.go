package query

import (
	"sort"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/span"
)

// Location is a byte span in one workspace file, by path relative to the
// snapshot's root, over the snapshot's content of that file.
type Location struct {
	Path      string
	StartByte int
	EndByte   int
}

// AnchorRef is one anchor seen from elsewhere (a lens, a reference, a
// hover): where its comment is and what state it is in.
type AnchorRef struct {
	Location // the anchor comment in its doc, "<!--" to "-->"
	ID       string
	Doc      string
	Line     int
	Claim    string
	State    anchors.State
	Reason   string
}

func qRefOf(a workspace.AnchorReport) AnchorRef {
	return AnchorRef{
		Location: qCommentSpan(a),
		ID:       a.ID, Doc: a.Doc, Line: a.Line, Claim: a.Claim, State: a.State, Reason: a.Detail.Reason,
	}
}

// qCommentSpan is the anchor's whole comment, which is also where its
// diagnostic sits.
func qCommentSpan(a workspace.AnchorReport) Location {
	return Location{Path: a.Doc, StartByte: a.Anchor.CommentStart, EndByte: a.Anchor.CommentEnd + len("-->")}
}

// AnchorAt returns the anchor of doc whose comment holds the byte offset
// off (the closing "-->" included).
func AnchorAt(r *workspace.Report, doc string, off int) (workspace.AnchorReport, bool) {
	for _, a := range r.Anchors {
		if a.Doc == doc && off >= a.Anchor.CommentStart && off <= a.Anchor.CommentEnd+len("-->") {
			return a, true
		}
	}
	return workspace.AnchorReport{}, false
}

// declMemo keeps the declaration tables one query has looked up, so a
// query over many anchors hashes each file once. A nil memo keeps nothing.
type declMemo map[string][]symbols.Decl

func declsIn(s *workspace.Snapshot, m declMemo, rel string) []symbols.Decl {
	if d, ok := m[rel]; ok {
		return d
	}
	d, _ := s.FileDecls(rel)
	if m != nil {
		m[rel] = d
	}
	return d
}

// declOf finds a symbol binding's declaration in its file: same kind and
// qualified name, the one nearest the binding's line when overloads share
// both.
func declOf(s *workspace.Snapshot, m declMemo, b anchors.Binding) (symbols.Decl, bool) {
	decls := declsIn(s, m, b.Path)
	best, found := symbols.Decl{}, false
	for _, d := range decls {
		if d.Kind != b.Kind || d.QualifiedName != b.QualifiedName {
			continue
		}
		if !found || qAbs(d.StartLine-b.StartLine) < qAbs(best.StartLine-b.StartLine) {
			best, found = d, true
		}
	}
	return best, found
}

func qAbs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// bindingLocation is where an anchor binds now: a declaration's name, the
// first line of a line range (through its last line), or the top of a doc.
func bindingLocation(s *workspace.Snapshot, m declMemo, b anchors.Binding) (Location, bool) {
	switch b.Form {
	case anchors.FormSymbol:
		d, ok := declOf(s, m, b)
		if !ok {
			return Location{}, false
		}
		return Location{Path: b.Path, StartByte: d.NameStartByte, EndByte: d.NameEndByte}, true
	case anchors.FormLines:
		return linesLocation(s, b.Path, b.StartLine, b.EndLine)
	case anchors.FormDoc:
		if b.Section != "" && b.StartLine > 0 {
			return linesLocation(s, b.Path, b.StartLine, b.StartLine)
		}
		if _, ok := s.Text(b.Path); !ok {
			return Location{}, false
		}
		return Location{Path: b.Path}, true
	}
	return Location{}, false
}

// linesLocation spans 1-based lines start..end of a file.
func linesLocation(s *workspace.Snapshot, rel string, start, end int) (Location, bool) {
	text, ok := s.Text(rel)
	if !ok {
		return Location{}, false
	}
	x := span.NewIndex(text)
	a, _, err := x.Line(start - 1)
	if err != nil {
		return Location{}, false
	}
	_, b, err := x.Line(min(end, x.LineCount()) - 1)
	if err != nil {
		b = a
	}
	return Location{Path: rel, StartByte: a, EndByte: b}, true
}

// candidateLocation locates an ambiguous candidate or a suggestion.
func candidateLocation(s *workspace.Snapshot, c anchors.Candidate) (Location, bool) {
	return bindingLocation(s, nil, anchors.Binding{Form: anchors.FormSymbol, Kind: c.Kind,
		QualifiedName: c.QualifiedName, Path: c.Path, StartLine: c.LineStart})
}

// declAt returns the innermost declaration of a code file at byte offset
// off: one whose name holds off wins, else the smallest whose span holds it.
func declAt(s *workspace.Snapshot, rel string, off int) (symbols.Decl, bool) {
	decls, _ := s.FileDecls(rel)
	var best symbols.Decl
	found := false
	for _, d := range decls {
		if off >= d.NameStartByte && off <= d.NameEndByte {
			return d, true
		}
		if off >= d.StartByte && off <= d.EndByte && (!found || d.EndByte-d.StartByte < best.EndByte-best.StartByte) {
			best, found = d, true
		}
	}
	return best, found
}

// boundTo lists the anchors that resolve to the declaration d of file rel,
// in doc and line order.
func boundTo(r *workspace.Report, rel string, d symbols.Decl) []workspace.AnchorReport {
	var out []workspace.AnchorReport
	for _, a := range r.Anchors {
		f := a.Found
		if f != nil && f.Form == anchors.FormSymbol && f.Path == rel && f.Kind == d.Kind && f.QualifiedName == d.QualifiedName {
			out = append(out, a)
		}
	}
	return out
}

// linesAt lists the line-range anchors whose current range in file rel
// holds the 1-based line.
func linesAt(r *workspace.Report, rel string, line int) []workspace.AnchorReport {
	var out []workspace.AnchorReport
	for _, a := range r.Anchors {
		f := a.Found
		if f != nil && f.Form == anchors.FormLines && f.Path == rel && line >= f.StartLine && line <= f.EndLine {
			out = append(out, a)
		}
	}
	return out
}

// docsOn lists the doc anchors that bind the doc rel.
func docsOn(r *workspace.Report, rel string) []workspace.AnchorReport {
	var out []workspace.AnchorReport
	for _, a := range r.Anchors {
		if f := a.Found; f != nil && f.Form == anchors.FormDoc && f.Path == rel {
			out = append(out, a)
		}
	}
	return out
}

// qLineAt is the 1-based line holding off.
func qLineAt(text []byte, off int) int {
	n := 1
	for i := 0; i < off && i < len(text); i++ {
		if text[i] == '\n' {
			n++
		}
	}
	return n
}

func qSortRefs(refs []AnchorRef) {
	sort.SliceStable(refs, func(i, j int) bool {
		if refs[i].Doc != refs[j].Doc {
			return refs[i].Doc < refs[j].Doc
		}
		return refs[i].Line < refs[j].Line
	})
}
