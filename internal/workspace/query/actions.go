package query

import (
	"fmt"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// FixKind is the editor's category for a fix.
type FixKind string

const (
	// FixQuick answers one diagnostic (LSP "quickfix").
	FixQuick FixKind = "quickfix"
	// FixConfirmAll is the whole-file "Confirm all in this file" action,
	// a source action (LSP "source.…").
	FixConfirmAll FixKind = "source.clew.confirmAll"
)

// FixRequest names one diagnostic the editor shows and wants fixes for: its
// code and byte span in the doc, as the editor has it.
type FixRequest struct {
	Code      string
	StartByte int
	EndByte   int
}

// Fix is one code action: a title and the doc edits it would make. Fixes
// are computed from one snapshot and carry no state; applying them is the
// editor's act (the server never writes a file).
type Fix struct {
	Title string
	Kind  FixKind
	// Request is the index of the FixRequest this fix answers, -1 for a
	// source action.
	Request   int
	Preferred bool
	AnchorID  string
	Edits     []workspace.DocEdit
}

// Fixes computes the quick fixes for the diagnostics the editor names in
// doc. A request is matched to the current findings by code and span; one
// that matches nothing (the doc changed since the editor got it, or the
// diagnostic is someone else's) gets no fix. Fixes are offered only where
// they can succeed: a pin or a confirm needs a target that resolves, so an
// anchor that does not resolve gets the candidates, the suggestions and
// removal, never a pin (docs/anchors.md).
func Fixes(r *workspace.Report, s *workspace.Snapshot, doc string, reqs []FixRequest) []Fix {
	var out []Fix
	findings := r.Findings()[doc]
	for i, req := range reqs {
		if strings.HasPrefix(req.Code, "claim/") {
			out = append(out, claimFixes(r, s, doc, i, req)...)
			continue
		}
		for _, f := range findings {
			if f.Code != req.Code || f.StartByte != req.StartByte || f.EndByte != req.EndByte || f.AnchorID == "" {
				continue
			}
			if a, ok := anchorByID(r, f.AnchorID); ok {
				out = append(out, anchorFixes(r, s, a, i)...)
			}
		}
	}
	return out
}

func anchorByID(r *workspace.Report, id string) (workspace.AnchorReport, bool) {
	for _, a := range r.Anchors {
		if a.ID == id {
			return a, true
		}
	}
	return workspace.AnchorReport{}, false
}

// anchorFixes are the fixes of one anchor's diagnostic, best first.
func anchorFixes(r *workspace.Report, s *workspace.Snapshot, a workspace.AnchorReport, req int) []Fix {
	var out []Fix
	add := func(title string, preferred bool, edits []anchors.Edit) {
		if len(edits) == 0 {
			return
		}
		out = append(out, Fix{Title: title, Kind: FixQuick, Request: req, Preferred: preferred,
			AnchorID: a.ID, Edits: []workspace.DocEdit{{Doc: a.Doc, Edits: edits}}})
	}
	switch a.State {
	case anchors.StateStale:
		if a.Found != nil {
			add("Confirm reviewed (record the current code's hashes)", true, anchors.ConfirmEdits(a.Anchor, *a.Found))
		}
	case anchors.StateMovedRenamed:
		if a.Found != nil {
			rebind := anchors.RebindEdits(a.Anchor, *a.Found)
			add("Rebind to "+qBindingWords(*a.Found), true, rebind)
			if oldBase, newBase := anchors.BaseName(a.QualifiedName), anchors.BaseName(a.Found.QualifiedName); a.Anchor.Form == anchors.FormSymbol && oldBase != newBase {
				if text, ok := s.Text(a.Doc); ok {
					if m := MentionEdits(text, a.Anchor, oldBase, newBase); len(m) > 0 {
						add(fmt.Sprintf("Rebind to %s and rename %d mention%s of %s in the passage",
							qBindingWords(*a.Found), len(m), qPlural(len(m)), oldBase), false, append(append([]anchors.Edit{}, rebind...), m...))
					}
				}
			}
			add("Confirm reviewed (rebind and record the current code's hashes)", false, anchors.ConfirmEdits(a.Anchor, *a.Found))
		}
	case anchors.StateUnpinned:
		if a.Found != nil {
			add("Pin (record the current code's hashes)", true, anchors.ConfirmEdits(a.Anchor, *a.Found))
		}
	case anchors.StateLost:
		cands := a.Detail.Candidates
		verb := "Bind to"
		if a.Detail.Reason != anchors.ReasonAmbiguous {
			cands, verb = a.Detail.Suggestions, "Did you mean"
		}
		for _, c := range cands {
			b := anchors.Binding{Form: anchors.FormSymbol, Kind: c.Kind, QualifiedName: c.QualifiedName, Path: c.Path}
			add(fmt.Sprintf("%s %s %s (%s:%d)", verb, c.Kind, c.QualifiedName, c.Path, c.LineStart), false, anchors.RebindEdits(a.Anchor, b))
		}
	case anchors.StateUnchecked:
		return nil // nothing is known yet; removing would be a guess too
	}
	if text, ok := s.Text(a.Doc); ok {
		add("Remove this anchor", false, []anchors.Edit{anchors.RemoveEdit(text, a.Anchor)})
	}
	return out
}

// qBindingWords names where a binding points, for a fix title.
func qBindingWords(b anchors.Binding) string {
	switch b.Form {
	case anchors.FormLines:
		return anchors.LinesRef(b.Path, b.StartLine, b.EndLine)
	case anchors.FormDoc:
		return b.Path
	}
	return b.QualifiedName + " in " + b.Path
}

func qPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// ConfirmAll is the "Confirm all in this file" source action: it pins and
// confirms every anchor of doc that resolves (anchors that do not resolve
// are left as they are). ok is false when there is nothing to write.
func ConfirmAll(r *workspace.Report, doc string) (Fix, bool) {
	res := r.Confirm([]workspace.Target{{Doc: doc}}, false)
	n := 0
	for _, a := range res.Confirmed {
		if len(anchors.ConfirmEdits(a.Anchor, *a.Found)) > 0 {
			n++
		}
	}
	if n == 0 || len(res.Edits) == 0 {
		return Fix{}, false
	}
	title := fmt.Sprintf("Confirm all anchors in this file as reviewed (%d)", n)
	if len(res.Refused) > 0 {
		title += fmt.Sprintf("; %d do not resolve and are left alone", len(res.Refused))
	}
	return Fix{Title: title, Kind: FixConfirmAll, Request: -1, Edits: res.Edits}, true
}

// MentionEdits rewrites whole-word mentions of oldName to newName in the
// prose of a's passage: outside code blocks (fenced, or indented four
// spaces as the anchor parser reads them) and outside HTML comments (so
// neither this anchor nor any other is touched). Inline code (`oldName`) is
// prose that names the code, so it is rewritten too.
func MentionEdits(text []byte, a anchors.Anchor, oldName, newName string) []anchors.Edit {
	if oldName == "" || oldName == newName {
		return nil
	}
	var out []anchors.Edit
	inFence, inComment := false, false
	fenceMark := ""
	lineNo, start := 1, 0
	for start <= len(text) {
		end := start
		for end < len(text) && text[end] != '\n' {
			end++
		}
		line := string(text[start:end])
		trimmed := strings.TrimLeft(line, " \t")
		switch {
		case inFence:
			if strings.HasPrefix(trimmed, fenceMark) {
				inFence = false
			}
		case !inComment && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			inFence, fenceMark = true, trimmed[:3]
		case !inComment && (strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")):
			// An indented code block, as the anchor parser reads it.
		default:
			if lineNo >= a.Passage.StartLine && lineNo <= a.Passage.EndLine {
				out = append(out, qWordEdits(line, start, oldName, newName, &inComment)...)
			} else {
				qWordEdits(line, start, "", "", &inComment) // keep the comment state
			}
		}
		if end == len(text) {
			break
		}
		start, lineNo = end+1, lineNo+1
	}
	return out
}

// qWordEdits finds whole-word oldName in one line outside HTML comments;
// inComment carries an open comment across lines. With oldName "" it only
// tracks comments.
func qWordEdits(line string, base int, oldName, newName string, inComment *bool) []anchors.Edit {
	var out []anchors.Edit
	i := 0
	for i < len(line) {
		if *inComment {
			j := strings.Index(line[i:], "-->")
			if j < 0 {
				return out
			}
			i += j + 3
			*inComment = false
			continue
		}
		j := strings.Index(line[i:], "<!--")
		seg := line[i:]
		if j >= 0 {
			seg = line[i : i+j]
		}
		if oldName != "" {
			for k := 0; ; {
				m := strings.Index(seg[k:], oldName)
				if m < 0 {
					break
				}
				p := k + m
				q := p + len(oldName)
				if (p == 0 || !qIsWordByte(seg[p-1])) && (q == len(seg) || !qIsWordByte(seg[q])) {
					out = append(out, anchors.Edit{Start: base + i + p, End: base + i + q, New: newName})
				}
				k = q
			}
		}
		if j < 0 {
			return out
		}
		i += j + 4
		*inComment = true
	}
	return out
}

func qIsWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
