package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/clew-lsp/clew-lsp/internal/workspace/query"
)

func codeLensRoute() *route {
	return queryCall(protocol.MethodTextDocumentCodeLens, func(c *protocol.ServerCapabilities) {
		c.CodeLensProvider = &protocol.CodeLensOptions{}
	}, codeLens)
}

// codeLens puts "2 docs · 1 stale" above each declaration that anchors bind
// (docs/server.md). The lens runs clew.showAnchors, a server command, so it works
// in every editor (client-only lens commands break in Neovim). Its
// argument names the declaration by document and position, so the command
// re-resolves from the snapshot it runs on; the locations ride along for
// clients that want to show them without a round trip.
func codeLens(ctx context.Context, s *server, snap Snapshot, p *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	r, f, err := s.openDocument(snap, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	rep, err := r.snap.report(ctx, f.folder)
	if err != nil {
		return nil, err
	}
	out := []protocol.CodeLens{}
	for _, l := range query.Lenses(rep, f.folder, f.rel) {
		rng := f.rangeOf(l.StartByte, l.EndByte)
		var locs []protocol.Location
		for _, a := range l.Anchors {
			if loc, ok := r.location(f.folder, a.Location); ok {
				locs = append(locs, loc)
			}
		}
		arg, err := protocol.Marshal(&anchorsArgs{
			TextDocument: &protocol.TextDocumentIdentifier{URI: p.TextDocument.URI},
			Position:     &rng.Start,
			Locations:    locs,
		})
		if err != nil {
			return nil, err
		}
		out = append(out, protocol.CodeLens{Range: rng, Command: protocol.Command{
			Title: l.Title, Command: cmdShowAnchors, Arguments: []protocol.LSPAny{arg},
		}})
	}
	return out, nil
}
