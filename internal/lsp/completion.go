package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/query"
)

func completionRoute() *route {
	return queryCall(protocol.MethodTextDocumentCompletion, func(c *protocol.ServerCapabilities) {
		// A space ends the kind and the name; "/" walks into a directory.
		c.CompletionProvider = &protocol.CompletionOptions{TriggerCharacters: []string{" ", "/"}}
	}, completion)
}

// completion inside `<!-- @code `: kinds, then qualified names, then paths
// (docs/server.md). Outside an anchor comment it answers an empty list at once,
// without checking anything, so the space trigger costs nothing in prose.
func completion(ctx context.Context, s *server, snap Snapshot, p *protocol.CompletionParams) (*protocol.CompletionList, error) {
	r, f, err := s.openDocument(snap, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	off, err := f.offset(p.Position)
	if err != nil {
		return nil, err
	}
	out := &protocol.CompletionList{Items: []protocol.CompletionItem{}}
	if !f.folder.IsDoc(f.rel) {
		return out, nil
	}
	report := func() *workspace.Report {
		rep, err := r.snap.report(ctx, f.folder)
		if err != nil {
			return nil
		}
		return rep
	}
	res := query.Complete(f.folder, f.rel, off, report)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out.IsIncomplete = res.Incomplete
	for _, c := range res.Items {
		item := protocol.CompletionItem{
			Label:    c.Label,
			Kind:     completionKind(c),
			Detail:   protocol.NewOptional(c.Detail),
			SortText: protocol.NewOptional(c.SortText),
			TextEdit: &protocol.TextEdit{Range: f.rangeOf(c.Replace.StartByte, c.Replace.EndByte), NewText: c.Label},
		}
		out.Items = append(out.Items, item)
	}
	return out, nil
}

func completionKind(c query.Completion) protocol.CompletionItemKind {
	switch c.Kind {
	case query.CompleteKind:
		return protocol.CompletionItemKindKeyword
	case query.CompletePath:
		return protocol.CompletionItemKindFile
	case query.CompleteClaim:
		return protocol.CompletionItemKindConstant
	case query.CompleteRepo:
		return protocol.CompletionItemKindModule
	}
	switch c.DeclKind {
	case "function":
		return protocol.CompletionItemKindFunction
	case "method":
		return protocol.CompletionItemKindMethod
	case "constructor":
		return protocol.CompletionItemKindConstructor
	case "class", "object":
		return protocol.CompletionItemKindClass
	case "struct":
		return protocol.CompletionItemKindStruct
	case "interface", "trait", "protocol":
		return protocol.CompletionItemKindInterface
	case "enum":
		return protocol.CompletionItemKindEnum
	case "namespace", "module":
		return protocol.CompletionItemKindModule
	case "const":
		return protocol.CompletionItemKindConstant
	case "var":
		return protocol.CompletionItemKindVariable
	case "property":
		return protocol.CompletionItemKindProperty
	case "field":
		return protocol.CompletionItemKindField
	}
	return protocol.CompletionItemKindReference
}
