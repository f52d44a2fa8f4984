package lsp

import (
	"context"
	"fmt"
	"path/filepath"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/workspace/query"
)

func documentLinkRoute() *route {
	return queryCall(protocol.MethodTextDocumentDocumentLink, func(c *protocol.ServerCapabilities) {
		c.DocumentLinkProvider = &protocol.DocumentLinkOptions{}
	}, documentLink)
}

// documentLink makes the path in each anchor a link to its file (a line
// range's link opens at its first line). It needs no check: the doc is
// parsed and the paths looked up.
func documentLink(ctx context.Context, s *server, snap Snapshot, p *protocol.DocumentLinkParams) ([]protocol.DocumentLink, error) {
	_, f, err := s.openDocument(snap, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []protocol.DocumentLink{}
	if !f.folder.IsDoc(f.rel) {
		return out, nil
	}
	for _, l := range query.DocumentLinks(f.folder, f.rel) {
		target := uriOf(filepath.Join(f.folder.Root(), filepath.FromSlash(l.Target)))
		tip := l.Target
		if l.Line > 0 {
			target = uri.URI(fmt.Sprintf("%s#L%d", target, l.Line))
			tip = fmt.Sprintf("%s, line %d", l.Target, l.Line)
		}
		out = append(out, protocol.DocumentLink{Range: f.rangeOf(l.StartByte, l.EndByte), Target: &target, Tooltip: ptr(tip)})
	}
	return out, nil
}
