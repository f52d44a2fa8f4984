package lsp

import (
	"context"
	"encoding/json"
	"errors"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/query"
)

// Authoring from the code: "Copy anchor for <kind> <name>" is a code action
// in a code file whose command, clew.copyAnchor, answers the anchor line.
// The client puts it on the clipboard (the server cannot).
const (
	cmdCopyAnchor = "clew.copyAnchor"
	// kindCopyAnchor files the action under refactor, so editors list it in
	// the light bulb next to the cursor rather than only in a source menu.
	kindCopyAnchor = protocol.CodeActionKind("refactor.clew.copyAnchor")
)

func init() { commands[cmdCopyAnchor] = runCopyAnchor }

// copyAnchorArgs is clew.copyAnchor's argument: the code document and an
// LSP position; unpinned leaves sha= out.
type copyAnchorArgs struct {
	TextDocument *protocol.TextDocumentIdentifier `json:"textDocument,omitempty"`
	Position     *protocol.Position               `json:"position,omitempty"`
	Unpinned     bool                             `json:"unpinned,omitempty"`
}

// runCopyAnchor answers workspace.AnchorLine ({"anchor": "<!-- @code … -->",
// "kind", "qualified_name", "path", "line_start", "line_end", "pinned",
// "warning"}) for the declaration at the position.
func runCopyAnchor(_ context.Context, r *request, raw json.RawMessage) (any, error) {
	var args copyAnchorArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	if args.TextDocument == nil || args.Position == nil {
		return nil, errInvalidParams("clew.copyAnchor needs {\"textDocument\": {\"uri\": …}, \"position\": …}")
	}
	f, err := r.commandFile(args.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	off, err := f.offset(*args.Position)
	if err != nil {
		return nil, err
	}
	l, err := f.folder.AnchorAtOffset(f.rel, off, !args.Unpinned)
	if err != nil {
		var nf *workspace.AnchorForError
		if errors.As(err, &nf) {
			return nil, jsonrpc2.NewError(codeRequestFailed, nf.Message)
		}
		return nil, err
	}
	return l, nil
}

// copyAnchorAction is the code action of a code file at the request's
// start: none when the cursor is on no declaration.
func copyAnchorAction(f *file, p *protocol.CodeActionParams) (protocol.CodeAction, bool) {
	off, err := f.offset(p.Range.Start)
	if err != nil {
		return protocol.CodeAction{}, false
	}
	l, err := f.folder.AnchorAtOffset(f.rel, off, true)
	if err != nil {
		return protocol.CodeAction{}, false
	}
	arg, _ := protocol.Marshal(&copyAnchorArgs{
		TextDocument: &protocol.TextDocumentIdentifier{URI: p.TextDocument.URI},
		Position:     &p.Range.Start,
	})
	title := "Copy anchor for " + l.Title()
	return protocol.CodeAction{
		Title: title,
		Kind:  ptr(kindCopyAnchor),
		Command: protocol.Command{Title: title, Command: cmdCopyAnchor,
			Arguments: []protocol.LSPAny{protocol.LSPAny(arg)}},
	}, true
}

// cmdShowChange answers what changed in a stale anchor's code since review:
// {anchor, path, before, after, reviewed_commit}. The client shows a diff
// (VS Code's diff editor, a Neovim diff split).
const cmdShowChange = "clew.showChange"

func init() { commands[cmdShowChange] = runShowChange }

// runShowChange takes {textDocument, line} (the anchor's 1-based line) or
// {textDocument, position} in a doc.
func runShowChange(ctx context.Context, r *request, raw json.RawMessage) (any, error) {
	var args anchorsArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, err
	}
	f, err := r.commandFile(args.doc())
	if err != nil {
		return nil, err
	}
	line := args.Line
	if args.Position != nil {
		line = int(args.Position.Line) + 1
	}
	if line <= 0 {
		return nil, errInvalidParams("clew.showChange needs {\"textDocument\": …, \"line\": N} (the anchor's 1-based line) or a position")
	}
	rep, err := r.snap.report(ctx, f.folder)
	if err != nil {
		return nil, err
	}
	if args.Position != nil {
		// A cursor anywhere in a passage with one stale anchor means it.
		if at := query.ChangeLineAt(rep, f.folder, f.rel, line); at != 0 {
			line = at
		}
	}
	ch, err := f.folder.ChangeOf(rep, f.rel, line)
	if err != nil {
		var ce *workspace.ChangeError
		if errors.As(err, &ce) {
			return nil, jsonrpc2.NewError(codeRequestFailed, ce.Message)
		}
		return nil, err
	}
	return ch, nil
}
