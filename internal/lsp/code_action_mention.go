package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/clew-lsp/clew-lsp/internal/workspace/query"
)

// kindAnchorMention is "Anchor this passage to <kind> <name> (<path>)" on a
// backticked identifier of a doc.
const kindAnchorMention = protocol.CodeActionKind(query.FixAnchorMention)

// mentionActions are the anchor-a-mention actions at the request's start;
// each is a WorkspaceEdit inserting the pinned anchor line.
func mentionActions(ctx context.Context, r *request, f *file, p *protocol.CodeActionParams) ([]protocol.CodeAction, error) {
	off, err := f.offset(p.Range.Start)
	if err != nil {
		return nil, nil // a position from an older text: nothing to offer
	}
	rep, err := r.snap.report(ctx, f.folder)
	if err != nil {
		return nil, err
	}
	var out []protocol.CodeAction
	for _, fix := range query.AnchorMentionFixes(rep, f.folder, f.rel, off) {
		a := protocol.CodeAction{Title: fix.Title, Kind: ptr(kindAnchorMention), Edit: r.workspaceEdit(f.folder, fix.Edits)}
		if fix.Preferred {
			a.IsPreferred = ptr(true)
		}
		out = append(out, a)
	}
	return out, nil
}
