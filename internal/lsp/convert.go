package lsp

import (
	"fmt"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/workspace/span"
)

// This file is the one place where LSP values and workspace values meet:
// URIs become paths, UTF-16 positions become byte offsets, and the other way.

// encoding is the position encoding the server speaks. LSP's default, which
// every client supports; negotiating UTF-8 would only save a conversion.
const encoding = span.UTF16

// defaultSource names the server in diagnostics that do not set one.
const defaultSource = "clew"

// pathOf turns a file:// URI into an absolute OS path. Other schemes
// (untitled:, git:, …) name no workspace file and are refused.
func pathOf(u uri.URI) (string, error) { return pathOfOn(u, hostWindows) }

// uriOf is the inverse of pathOf.
func uriOf(path string) uri.URI { return uriOfOn(path, hostWindows) }

func toPosition(p span.Position) protocol.Position {
	return protocol.Position{Line: uint32(p.Line), Character: uint32(p.Col)}
}

func fromPosition(p protocol.Position) span.Position {
	return span.Position{Line: int(p.Line), Col: int(p.Character)}
}

func fromRange(r protocol.Range) span.Range {
	return span.Range{Start: fromPosition(r.Start), End: fromPosition(r.End)}
}

// toRange converts a byte span, clamping offsets into the text: a backend
// bug must misplace a diagnostic, not lose it.
func toRange(x *span.Index, start, end int) protocol.Range {
	start = min(max(start, 0), x.Len())
	end = min(max(end, start), x.Len())
	r, _ := x.Range(start, end, encoding) // cannot fail once clamped
	return protocol.Range{Start: toPosition(r.Start), End: toPosition(r.End)}
}

// contentChanges converts didChange events for span.ApplyChanges.
func contentChanges(events []protocol.TextDocumentContentChangeEvent) ([]span.Change, error) {
	out := make([]span.Change, 0, len(events))
	for i, ev := range events {
		switch c := ev.(type) {
		case *protocol.TextDocumentContentChangePartial:
			r := fromRange(c.Range)
			out = append(out, span.Change{Range: &r, Text: c.Text})
		case *protocol.TextDocumentContentChangeWholeDocument:
			out = append(out, span.Change{Text: c.Text})
		default:
			return nil, fmt.Errorf("content change %d: unexpected %T", i, ev)
		}
	}
	return out, nil
}

// toDiagnostics converts one file's findings. The result is never nil, so it
// encodes as [] (a nil slice would clear nothing in some clients).
func toDiagnostics(fd FileDiagnostics) []protocol.Diagnostic {
	x := span.NewIndex(fd.Text)
	out := make([]protocol.Diagnostic, 0, len(fd.Items))
	for _, d := range fd.Items {
		pd := protocol.Diagnostic{
			Range:    toRange(x, d.Start, d.End),
			Severity: toSeverity(d.Severity),
			Source:   protocol.NewOptional(defaultSource),
			Message:  protocol.String(d.Message),
		}
		if d.Source != "" {
			pd.Source = protocol.NewOptional(d.Source)
		}
		if d.Code != "" {
			pd.Code = protocol.String(d.Code)
		}
		if d.CodeHref != "" {
			pd.CodeDescription = protocol.CodeDescription{Href: uri.URI(d.CodeHref)}
		}
		out = append(out, pd)
	}
	return out
}

func toSeverity(s Severity) protocol.DiagnosticSeverity {
	switch s {
	case SeverityError:
		return protocol.DiagnosticSeverityError
	case SeverityWarning:
		return protocol.DiagnosticSeverityWarning
	case SeverityHint:
		return protocol.DiagnosticSeverityHint
	}
	return protocol.DiagnosticSeverityInformation
}
