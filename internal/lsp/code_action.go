package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/clew-lsp/clew-lsp/internal/workspace/query"
)

// kindConfirmAll is the source action "Confirm all in this file".
const kindConfirmAll = protocol.CodeActionKind(query.FixConfirmAll)

func codeActionRoute() *route {
	return queryCall(protocol.MethodTextDocumentCodeAction, func(c *protocol.ServerCapabilities) {
		c.CodeActionProvider = &protocol.CodeActionOptions{
			CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix, kindConfirmAll, kindCopyAnchor, kindAnchorMention},
		}
	}, codeAction)
}

// codeAction computes fixes statelessly: from the current
// snapshot, for the diagnostics the editor names in the request, matched by
// code and range. Every fix is a WorkspaceEdit the user accepts; nothing is
// written here.
func codeAction(ctx context.Context, s *server, snap Snapshot, p *protocol.CodeActionParams) ([]protocol.CodeAction, error) {
	r, f, err := s.openDocument(snap, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []protocol.CodeAction{}
	if !f.folder.IsDoc(f.rel) {
		if wantsKind(p.Context.Only, kindCopyAnchor) {
			if a, ok := copyAnchorAction(f, p); ok {
				out = append(out, a)
			}
		}
		return out, nil
	}
	if wantsKind(p.Context.Only, kindAnchorMention) {
		as, err := mentionActions(ctx, r, f, p)
		if err != nil {
			return nil, err
		}
		out = append(out, as...)
	}
	var reqs []query.FixRequest
	var diags []protocol.Diagnostic
	for _, d := range p.Context.Diagnostics {
		code, ok := d.Code.(protocol.String)
		if !ok || !isClewCode(string(code)) {
			continue
		}
		start, err1 := f.offset(d.Range.Start)
		end, err2 := f.offset(d.Range.End)
		if err1 != nil || err2 != nil {
			continue // a diagnostic from an older text: nothing to match
		}
		reqs = append(reqs, query.FixRequest{Code: string(code), StartByte: start, EndByte: end})
		diags = append(diags, d)
	}
	wantQuick := wantsKind(p.Context.Only, protocol.CodeActionKindQuickFix)
	wantAll := wantsKind(p.Context.Only, kindConfirmAll)
	if (len(reqs) == 0 || !wantQuick) && !wantAll {
		return out, nil
	}
	rep, err := r.snap.report(ctx, f.folder)
	if err != nil {
		return nil, err
	}
	if wantQuick {
		// Reading what changed comes before confirming it.
		for _, t := range query.ShowChanges(rep, f.folder, f.rel, reqs) {
			out = append(out, showChangeAction(p.TextDocument.URI, t, diags[t.Request]))
		}
		for _, fix := range query.Fixes(rep, f.folder, f.rel, reqs) {
			a := protocol.CodeAction{
				Title: fix.Title,
				Kind:  ptr(protocol.CodeActionKind(fix.Kind)),
				Edit:  r.workspaceEdit(f.folder, fix.Edits),
			}
			if fix.Request >= 0 {
				a.Diagnostics = []protocol.Diagnostic{diags[fix.Request]}
			}
			if fix.Preferred {
				a.IsPreferred = ptr(true)
			}
			out = append(out, a)
		}
	}
	if wantAll {
		if fix, ok := query.ConfirmAll(rep, f.rel); ok {
			out = append(out, protocol.CodeAction{
				Title: fix.Title,
				Kind:  ptr(kindConfirmAll),
				Edit:  r.workspaceEdit(f.folder, fix.Edits),
			})
		}
	}
	return out, nil
}

// isClewCode tells our diagnostics from other servers' in the request.
func isClewCode(code string) bool {
	for _, p := range []string{"anchor/", "claim/", "config/"} {
		if strings.HasPrefix(code, p) {
			return true
		}
	}
	return false
}

// wantsKind applies the request's "only" filter: a kind is wanted when the
// filter is empty or names it or one of its parents ("source" wants
// "source.clew.confirmAll").
func wantsKind(only []protocol.CodeActionKind, kind protocol.CodeActionKind) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if o == kind || strings.HasPrefix(string(kind), string(o)+".") {
			return true
		}
	}
	return false
}
