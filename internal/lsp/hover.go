package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/clew-lsp/clew-lsp/internal/workspace/query"
)

func hoverRoute() *route {
	return queryCall(protocol.MethodTextDocumentHover, func(c *protocol.ServerCapabilities) {
		c.HoverProvider = protocol.Boolean(true)
	}, hover)
}

// hover: on an anchor, its state, reason, target and signature; on anchored
// code, the passages' first lines (docs/server.md). No hover is null.
func hover(ctx context.Context, s *server, snap Snapshot, p *protocol.HoverParams) (*protocol.Hover, error) {
	_, f, off, rep, err := s.positional(ctx, snap, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	h, ok := query.Hover(rep, f.folder, f.rel, off)
	if !ok {
		return nil, nil
	}
	if h.Change != nil {
		h.Markdown += showChangeHover(clewCaps(s.clientCaps()), p.TextDocument.URI, *h.Change)
	}
	rng := f.rangeOf(h.StartByte, h.EndByte)
	return &protocol.Hover{
		Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: h.Markdown},
		Range:    &rng,
	}, nil
}
