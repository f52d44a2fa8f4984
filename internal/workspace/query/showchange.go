package query

import (
	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// ShowChangeTitle is the title of the action that shows what changed in a
// stale anchor's code since it was reviewed.
const ShowChangeTitle = "Show what changed since review"

// ChangeTarget is a stale anchor whose change the editor can show: the
// argument of `clew.showChange` ({doc, line}), for the request it answers.
type ChangeTarget struct {
	Request int
	Doc     string
	Line    int // the anchor's 1-based line
	Subject string
}

// CanShowChange says whether an anchor has a reviewed version to look for:
// stale (the code it binds changed), pinned, still resolving, in a git
// repository. Whether history holds that version is found out when the
// change is asked for (Snapshot.ChangeOf), which then says so: searching
// history for every diagnostic would walk git on each code-action request.
func CanShowChange(s *workspace.Snapshot, a workspace.AnchorReport) bool {
	return a.State == anchors.StateStale && a.Anchor.Pinned() && a.Found != nil && s.Git().IsRepo
}

// ShowChanges matches the editor's diagnostics (as Fixes does, by code and
// span) to the stale anchors whose change can be shown.
func ShowChanges(r *workspace.Report, s *workspace.Snapshot, doc string, reqs []FixRequest) []ChangeTarget {
	var out []ChangeTarget
	findings := r.Findings()[doc]
	for i, req := range reqs {
		if req.Code != "anchor/stale" {
			continue
		}
		for _, f := range findings {
			if f.Code != req.Code || f.StartByte != req.StartByte || f.EndByte != req.EndByte || f.AnchorID == "" {
				continue
			}
			if a, ok := anchorByID(r, f.AnchorID); ok && CanShowChange(s, a) {
				out = append(out, ChangeTarget{Request: i, Doc: a.Doc, Line: a.Line, Subject: workspace.AnchorSubject(a)})
			}
		}
	}
	return out
}

// ChangeLineAt is the 1-based line of the anchor whose change a cursor on
// line (1-based) of doc means: the anchor on that line, else the one
// stale anchor of the passage the line is in. 0 when there is none, or
// more than one to choose from.
func ChangeLineAt(r *workspace.Report, s *workspace.Snapshot, doc string, line int) int {
	found := 0
	for _, a := range r.Anchors {
		if a.Doc != doc {
			continue
		}
		if a.Line == line {
			return line
		}
		if p := a.Anchor.Passage; CanShowChange(s, a) && p.StartLine <= line && line <= p.EndLine {
			if found != 0 {
				return 0
			}
			found = a.Line
		}
	}
	return found
}
