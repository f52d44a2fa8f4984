package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/query"
	"github.com/clew-lsp/clew-lsp/internal/workspace/span"
)

// This file is the feature handlers' side of the façade: finding the folder
// snapshot and the checked report behind a request, turning LSP positions
// into byte offsets and query.Locations into LSP locations and edits.
// The handlers themselves (code_action.go, code_lens.go, definition.go,
// hover.go, completion.go, document_link.go, commands.go) stay short: decode,
// ask the façade, convert.

// facadeSnapshot is a Snapshot backed by the workspace façade. Features are
// registered only for backends whose snapshots are (featureRoutes), so what
// the server advertises is what it can answer.
type facadeSnapshot interface {
	Snapshot
	folderSnapshots() []*workspace.Snapshot
	report(ctx context.Context, folder *workspace.Snapshot) (*workspace.Report, error)
	version(abs string) (int32, bool)
}

func (s *workspaceSnapshot) folderSnapshots() []*workspace.Snapshot { return s.Folders() }

func (s *workspaceSnapshot) report(ctx context.Context, folder *workspace.Snapshot) (*workspace.Report, error) {
	return s.reports.get(ctx, folder)
}

func (s *workspaceSnapshot) version(abs string) (int32, bool) {
	v, ok := s.versions[abs]
	return v, ok
}

// featureBackend is implemented by backends that serve the features.
type featureBackend interface {
	Backend
	features() bool
}

func (b *WorkspaceBackend) features() bool { return true }

// featureRoutes are the docs/server.md feature methods, for backends that have the
// façade behind them; none otherwise.
func featureRoutes(b Backend) []*route {
	if fb, ok := b.(featureBackend); !ok || !fb.features() {
		return nil
	}
	return []*route{
		codeActionRoute(),
		codeLensRoute(),
		definitionRoute(),
		referencesRoute(),
		hoverRoute(),
		completionRoute(),
		documentLinkRoute(),
		executeCommandRoute(),
		didChangeWatchedFilesRoute(),
	}
}

// request is the façade's view of one feature request: the snapshot taken
// in wire order, and line indexes of the files the answer touches.
type request struct {
	s       *server
	snap    facadeSnapshot
	indexes map[string]*span.Index // by absolute path
}

func (s *server) request(snap Snapshot) (*request, error) {
	fs, ok := snap.(facadeSnapshot)
	if !ok {
		return nil, fmt.Errorf("this backend has no workspace behind it")
	}
	return &request{s: s, snap: fs, indexes: map[string]*span.Index{}}, nil
}

// openDocument is every document handler's preamble: the request over
// snap and the open document u names.
func (s *server) openDocument(snap Snapshot, u uri.URI) (*request, *file, error) {
	r, err := s.request(snap)
	if err != nil {
		return nil, nil, err
	}
	f, err := r.document(u)
	if err != nil {
		return nil, nil, err
	}
	return r, f, nil
}

// positional resolves a request at a position of an open document: the
// file, the byte offset, and the report of the file's folder.
func (s *server) positional(ctx context.Context, snap Snapshot, u uri.URI, pos protocol.Position) (*request, *file, int, *workspace.Report, error) {
	r, f, err := s.openDocument(snap, u)
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

// file is one workspace file a request is about.
type file struct {
	folder *workspace.Snapshot
	rel    string // slash path relative to the folder root
	abs    string
	text   []byte
	index  *span.Index
}

// errInvalidParams is a clean error for a request that names something that
// does not exist: the client sent a position or document we cannot use.
func errInvalidParams(format string, args ...any) error {
	return jsonrpc2.Errorf(jsonrpc2.InvalidParams, format, args...)
}

// document resolves the document of a positional request. The document must
// be open in the editor: positions are only meaningful against the text the
// editor shows, and that text is what the snapshot overlays.
func (r *request) document(u uri.URI) (*file, error) {
	abs, err := pathOf(u)
	if err != nil {
		return nil, errInvalidParams("%v", err)
	}
	r.s.docsMu.Lock()
	_, open := r.s.docs[abs]
	r.s.docsMu.Unlock()
	if !open {
		return nil, errInvalidParams("%s is not open in the editor: send textDocument/didOpen first", u)
	}
	return r.file(abs)
}

// file resolves any workspace file by absolute path.
func (r *request) file(abs string) (*file, error) {
	folder, rel, ok := r.locate(abs)
	if !ok {
		return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s is not inside a workspace folder", abs))
	}
	text, ok := folder.Text(rel)
	if !ok {
		return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s cannot be read (missing, binary or too large)", rel))
	}
	return &file{folder: folder, rel: rel, abs: abs, text: text, index: r.indexOf(abs, text)}, nil
}

// locate finds the innermost folder holding abs.
func (r *request) locate(abs string) (*workspace.Snapshot, string, bool) {
	var best *workspace.Snapshot
	rel := ""
	for _, f := range r.snap.folderSnapshots() {
		root := f.Root()
		if !strings.HasPrefix(abs, root+string(filepath.Separator)) {
			continue
		}
		if best == nil || len(root) > len(best.Root()) {
			best, rel = f, filepath.ToSlash(strings.TrimPrefix(abs, root+string(filepath.Separator)))
		}
	}
	return best, rel, best != nil && rel != ""
}

func (r *request) indexOf(abs string, text []byte) *span.Index {
	if x, ok := r.indexes[abs]; ok {
		return x
	}
	x := span.NewIndex(text)
	r.indexes[abs] = x
	return x
}

// offset converts an LSP position in f to a byte offset. A column past the
// end of its line means the line's end (LSP); a line that does not exist is
// a clean InvalidParams error.
func (f *file) offset(p protocol.Position) (int, error) {
	pos, err := f.index.Clamp(fromPosition(p), encoding)
	if err == nil {
		var off int
		if off, err = f.index.Offset(pos, encoding); err == nil {
			return off, nil
		}
	}
	return 0, errInvalidParams("position %d:%d is outside %s (%d lines)", p.Line, p.Character, f.rel, f.index.LineCount())
}

// rangeOf converts a byte span of f.
func (f *file) rangeOf(start, end int) protocol.Range { return toRange(f.index, start, end) }

// location converts a façade location in folder to an LSP location; ok is
// false when its file can no longer be read.
func (r *request) location(folder *workspace.Snapshot, loc query.Location) (protocol.Location, bool) {
	abs := filepath.Join(folder.Root(), filepath.FromSlash(loc.Path))
	text, ok := folder.Text(loc.Path)
	if !ok {
		return protocol.Location{}, false
	}
	return protocol.Location{URI: uriOf(abs), Range: toRange(r.indexOf(abs, text), loc.StartByte, loc.EndByte)}, true
}

func (r *request) locations(folder *workspace.Snapshot, locs []query.Location) []protocol.Location {
	out := make([]protocol.Location, 0, len(locs))
	for _, l := range locs {
		if pl, ok := r.location(folder, l); ok {
			out = append(out, pl)
		}
	}
	return out
}

// workspaceEdit converts doc edits computed against folder's snapshot. With
// a client that supports documentChanges, each doc's edit names the buffer
// version it was computed for, so the editor refuses it if the buffer moved
// on; a doc that is not open carries version null (the file on disk).
func (r *request) workspaceEdit(folder *workspace.Snapshot, edits []workspace.DocEdit) *protocol.WorkspaceEdit {
	we := &protocol.WorkspaceEdit{}
	versioned := r.s.supportsDocumentChanges()
	for _, de := range edits {
		abs := filepath.Join(folder.Root(), filepath.FromSlash(de.Doc))
		text, ok := folder.Text(de.Doc)
		if !ok {
			continue
		}
		x := r.indexOf(abs, text)
		tes := make([]protocol.TextEdit, 0, len(de.Edits))
		for _, e := range sortedEdits(de) {
			tes = append(tes, protocol.TextEdit{Range: toRange(x, e.start, e.end), NewText: e.text})
		}
		u := uriOf(abs)
		if !versioned {
			if we.Changes == nil {
				we.Changes = map[uri.URI][]protocol.TextEdit{}
			}
			we.Changes[u] = append(we.Changes[u], tes...)
			continue
		}
		tde := &protocol.TextDocumentEdit{TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{
			TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}}}
		if v, open := r.snap.version(abs); open {
			tde.TextDocument.Version = ptr(v)
		}
		for i := range tes {
			tde.Edits = append(tde.Edits, &tes[i])
		}
		we.DocumentChanges = append(we.DocumentChanges, tde)
	}
	return we
}

type plainEdit struct {
	start, end int
	text       string
}

// sortedEdits orders a doc's edits by offset, as LSP wants them.
func sortedEdits(de workspace.DocEdit) []plainEdit {
	out := make([]plainEdit, 0, len(de.Edits))
	for _, e := range de.Edits {
		out = append(out, plainEdit{e.Start, e.End, e.New})
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].start < out[j-1].start; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func (s *server) supportsDocumentChanges() bool {
	w := s.clientCaps().Workspace
	return w != nil && w.WorkspaceEdit != nil && w.WorkspaceEdit.DocumentChanges != nil && *w.WorkspaceEdit.DocumentChanges
}
