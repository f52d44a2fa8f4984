package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/clew-lsp/clew-lsp/internal/workspace/query"
)

func definitionRoute() *route {
	return queryCall(protocol.MethodTextDocumentDefinition, func(c *protocol.ServerCapabilities) {
		c.DefinitionProvider = protocol.Boolean(true)
	}, definition)
}

func referencesRoute() *route {
	return queryCall(protocol.MethodTextDocumentReferences, func(c *protocol.ServerCapabilities) {
		c.ReferencesProvider = protocol.Boolean(true)
	}, references)
}

// definition: on a `@code` anchor, where it binds now (docs/server.md).
func definition(ctx context.Context, s *server, snap Snapshot, p *protocol.DefinitionParams) ([]protocol.Location, error) {
	r, f, off, rep, err := s.positional(ctx, snap, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	return r.locations(f.folder, query.Definition(rep, f.folder, f.rel, off)), nil
}

// references: from a declaration in a code file, every anchor that binds
// it (docs/server.md).
func references(ctx context.Context, s *server, snap Snapshot, p *protocol.ReferenceParams) ([]protocol.Location, error) {
	r, f, off, rep, err := s.positional(ctx, snap, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	refs, decl, ok := query.References(rep, f.folder, f.rel, off)
	out := []protocol.Location{}
	if ok && p.Context.IncludeDeclaration && decl.Path != "" {
		if loc, ok := r.location(f.folder, decl); ok {
			out = append(out, loc)
		}
	}
	for _, ref := range refs {
		if loc, ok := r.location(f.folder, ref.Location); ok {
			out = append(out, loc)
		}
	}
	return out, nil
}
