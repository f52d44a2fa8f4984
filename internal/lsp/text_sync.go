package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/workspace/span"
)

// document is the server's copy of one open editor buffer. It exists to
// apply incremental (UTF-16) edits; the Backend only ever sees whole texts.
type document struct {
	version int32
	text    []byte
}

func textSyncRoutes() []*route {
	return []*route{
		notification(protocol.MethodTextDocumentDidOpen, advertiseOpenClose, didOpen),
		notification(protocol.MethodTextDocumentDidChange, advertiseChange, didChange),
		notification(protocol.MethodTextDocumentDidSave, advertiseSave, didSave),
		notification(protocol.MethodTextDocumentDidClose, advertiseOpenClose, didClose),
	}
}

func syncOptions(caps *protocol.ServerCapabilities) *protocol.TextDocumentSyncOptions {
	if o, ok := caps.TextDocumentSync.(*protocol.TextDocumentSyncOptions); ok {
		return o
	}
	o := &protocol.TextDocumentSyncOptions{}
	caps.TextDocumentSync = o
	return o
}

func advertiseOpenClose(caps *protocol.ServerCapabilities) {
	syncOptions(caps).OpenClose = ptr(true)
}

func advertiseChange(caps *protocol.ServerCapabilities) {
	syncOptions(caps).Change = ptr(protocol.TextDocumentSyncKindIncremental)
}

// advertiseSave asks for didSave without the text: the buffer already holds it.
func advertiseSave(caps *protocol.ServerCapabilities) {
	syncOptions(caps).Save = &protocol.SaveOptions{IncludeText: ptr(false)}
}

func ptr[T any](v T) *T { return &v }

func didOpen(ctx context.Context, s *server, p *protocol.DidOpenTextDocumentParams) error {
	path, ok := s.docPath(p.TextDocument.URI)
	if !ok {
		return nil
	}
	text := []byte(p.TextDocument.Text)
	s.docsMu.Lock()
	s.docs[path] = &document{version: p.TextDocument.Version, text: text}
	s.docsMu.Unlock()
	return s.apply(ctx, Change{Kind: Open, Path: path, Version: p.TextDocument.Version,
		LanguageID: string(p.TextDocument.LanguageID), Text: text})
}

func didChange(ctx context.Context, s *server, p *protocol.DidChangeTextDocumentParams) error {
	path, ok := s.docPath(p.TextDocument.URI)
	if !ok {
		return nil
	}
	s.docsMu.Lock()
	doc := s.docs[path]
	s.docsMu.Unlock()
	if doc == nil {
		return s.outOfSync(p.TextDocument.URI, "didChange for a document that is not open")
	}
	changes, err := contentChanges(p.ContentChanges)
	if err != nil {
		return s.outOfSync(p.TextDocument.URI, err.Error())
	}
	text, err := span.ApplyChanges(doc.text, changes, encoding)
	if err != nil {
		return s.outOfSync(p.TextDocument.URI, err.Error())
	}
	s.docsMu.Lock()
	s.docs[path] = &document{version: p.TextDocument.Version, text: text}
	s.docsMu.Unlock()
	return s.apply(ctx, Change{Kind: Edit, Path: path, Version: p.TextDocument.Version, Text: text})
}

func didSave(ctx context.Context, s *server, p *protocol.DidSaveTextDocumentParams) error {
	path, ok := s.docPath(p.TextDocument.URI)
	if !ok {
		return nil
	}
	c := Change{Kind: Save, Path: path}
	if p.Text != nil {
		c.Text = []byte(*p.Text)
	}
	return s.apply(ctx, c)
}

func didClose(ctx context.Context, s *server, p *protocol.DidCloseTextDocumentParams) error {
	path, ok := s.docPath(p.TextDocument.URI)
	if !ok {
		return nil
	}
	s.docsMu.Lock()
	delete(s.docs, path)
	s.docsMu.Unlock()
	return s.apply(ctx, Change{Kind: Close, Path: path})
}

// docPath maps a document URI to a workspace path. Non-file documents
// (untitled buffers, diff views) are not part of any workspace: ignored.
func (s *server) docPath(u uri.URI) (string, bool) {
	path, err := pathOf(u)
	if err != nil {
		s.logger.Debug("ignoring document", "uri", string(u), "reason", err)
		return "", false
	}
	return path, true
}

// apply hands a change to the Backend and schedules diagnosis.
func (s *server) apply(ctx context.Context, c Change) error {
	err := s.backend.Apply(ctx, []Change{c})
	s.diags.schedule()
	if err != nil {
		s.logToClient(protocol.MessageTypeError, fmt.Sprintf("clew-lsp: could not record %s of %s: %v", c.Kind, c.Path, err))
		return fmt.Errorf("apply %s %s: %w", c.Kind, c.Path, err)
	}
	return nil
}

// outOfSync reports an edit the server could not apply. The server's copy
// of the buffer is now unknown; the editor fixes that by reopening the file.
func (s *server) outOfSync(u uri.URI, reason string) error {
	msg := fmt.Sprintf("clew-lsp: lost track of %s (%s); close and reopen the file", u, reason)
	s.logToClient(protocol.MessageTypeError, msg)
	return fmt.Errorf("%s", msg)
}
