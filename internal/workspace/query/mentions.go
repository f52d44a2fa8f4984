package query

import (
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// FixAnchorMention is the code action on a backticked identifier of a doc:
// "Anchor this passage to method Cache.Lookup (resolver/resolve.go)". It
// is a refactoring the writer asks for, not the answer to a diagnostic.
const FixAnchorMention FixKind = "refactor.clew.anchorMention"

// AnchorMentionFixes are the actions for the mention at byte offset off of
// doc: one per declaration it names (at most workspace.MaxMentionTargets,
// sorted by path and line), each inserting the pinned anchor after the
// mention's paragraph or list item. None when the cursor is on no
// mention, the mention names nothing, or the passage already has an
// anchor to what it names.
func AnchorMentionFixes(r *workspace.Report, s *workspace.Snapshot, doc string, off int) []Fix {
	dm, ok := s.MentionAt(doc, off, r)
	if !ok || dm.Anchored || dm.Resolution == workspace.MentionUnresolved {
		return nil
	}
	var out []Fix
	for _, t := range dm.Targets {
		de, ok := s.MentionEdit(dm, t)
		if !ok {
			continue
		}
		out = append(out, Fix{Title: AnchorMentionTitle(t), Kind: FixAnchorMention, Request: -1,
			Preferred: dm.Resolution == workspace.MentionUnique, Edits: []workspace.DocEdit{de}})
	}
	return out
}

// AnchorMentionTitle is the action's title for one target.
func AnchorMentionTitle(t workspace.MentionTarget) string {
	return "Anchor this passage to " + t.Title() + " (" + t.Path + ")"
}
