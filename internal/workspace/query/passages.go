package query

import (
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// BoundPassage is a doc passage bound to code by an anchor, with the
// anchor's verdict: what the docs say about that code, and whether it can
// be trusted (only fresh passages were reviewed against the code as it is).
type BoundPassage struct {
	Doc        string `json:"doc"`
	AnchorLine int    `json:"anchor_line"`
	Heading    string `json:"heading"`
	StartLine  int    `json:"start_line"`
	EndLine    int    `json:"end_line"`
	Claim      string `json:"claim,omitempty"`
	State      string `json:"state"`
	// Target is what the anchor names, as written.
	Target string `json:"target"`
	// Todo is the reason for the state in words and what to do.
	Todo string `json:"todo"`
	// Text is the passage (its section of the doc) as the snapshot reads it.
	Text string `json:"text"`
}

// CodeDecl is a declaration as the passages queries found it.
type CodeDecl struct {
	Kind          string `json:"kind"`
	QualifiedName string `json:"qualified_name"`
	Path          string `json:"path"`
	StartLine     int    `json:"start_line"`
	EndLine       int    `json:"end_line"`
}

// PassagesAt lists the passages bound to the code at a 1-based line of
// file rel: those anchored to the innermost declaration holding the line,
// line-range anchors holding it, and (when rel is itself a doc or any file
// anchored whole) doc anchors on the file. decl is nil outside every
// declaration.
func PassagesAt(s *workspace.Snapshot, r *workspace.Report, rel string, line int) (decl *CodeDecl, out []BoundPassage) {
	var bound []workspace.AnchorReport
	if d, ok := declOnLine(s, rel, line); ok {
		decl = &CodeDecl{Kind: d.Kind, QualifiedName: d.QualifiedName, Path: rel, StartLine: d.StartLine, EndLine: d.EndLine}
		bound = boundTo(r, rel, d)
	}
	bound = append(bound, linesAt(r, rel, line)...)
	bound = append(bound, docsOn(r, rel)...)
	for _, a := range bound {
		out = append(out, boundPassage(s, a))
	}
	return decl, out
}

// PassagesNamed lists the passages whose anchors name the qualified name
// (as written, or as found after a rename), optionally only those whose
// code is in file rel ("" for any file). Lost anchors that name it are
// included: their passage describes code that is gone.
func PassagesNamed(s *workspace.Snapshot, r *workspace.Report, name, rel string) []BoundPassage {
	var out []BoundPassage
	for _, a := range r.Anchors {
		if a.Anchor.Form != anchors.FormSymbol {
			continue
		}
		named := a.QualifiedName == name
		path := a.Path
		if f := a.Found; f != nil {
			named = named || f.QualifiedName == name
			path = f.Path
		}
		if named && (rel == "" || path == rel) {
			out = append(out, boundPassage(s, a))
		}
	}
	return out
}

func boundPassage(s *workspace.Snapshot, a workspace.AnchorReport) BoundPassage {
	p := a.Anchor.Passage
	bp := BoundPassage{Doc: a.Doc, AnchorLine: a.Line, Heading: p.Heading, StartLine: p.StartLine, EndLine: p.EndLine,
		Claim: a.Claim, State: string(a.State), Target: workspace.AnchorTarget(a), Todo: workspace.AnchorTodo(a)}
	if text, ok := s.Text(a.Doc); ok {
		bp.Text = strings.TrimRight(strings.Join(qLinesOf(text, p.StartLine, p.EndLine), "\n"), "\n \t")
	}
	return bp
}

// declOnLine is the innermost declaration of file rel whose lines hold the
// 1-based line.
func declOnLine(s *workspace.Snapshot, rel string, line int) (symbols.Decl, bool) {
	decls, _ := s.FileDecls(rel)
	var best symbols.Decl
	found := false
	for _, d := range decls {
		if line >= d.StartLine && line <= d.EndLine && (!found || d.EndByte-d.StartByte < best.EndByte-best.StartByte) {
			best, found = d, true
		}
	}
	return best, found
}
