package lsp

import (
	"context"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/query"
)

func hoverRoute() *route {
	return queryCall(protocol.MethodTextDocumentHover, func(c *protocol.ServerCapabilities) {
		c.HoverProvider = protocol.Boolean(true)
	}, hover)
}

// hover: on an anchor, its state, reason, target and signature; on anchored
// code, the passages' first lines (SPEC §4). No hover is null.
func hover(ctx context.Context, s *server, snap Snapshot, p *protocol.HoverParams) (*protocol.Hover, error) {
	_, f, off, rep, err := s.positional(ctx, snap, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	h, ok := query.Hover(rep, f.folder, f.rel, off)
	if !ok {
		return nil, nil
	}
	rng := f.rangeOf(h.StartByte, h.EndByte)
	return &protocol.Hover{
		Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: h.Markdown},
		Range:    &rng,
	}, nil
}

// positional resolves a request at a position of an open document: the
// file, the byte offset, and the report of the file's folder.
func (s *server) positional(ctx context.Context, snap Snapshot, u uri.URI, pos protocol.Position) (*request, *file, int, *workspace.Report, error) {
	r, err := s.request(snap)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	f, err := r.document(u)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	off, err := f.offset(pos)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	rep, err := r.snap.report(ctx, f.folder)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	return r, f, off, rep, nil
}
