package lsp

import (
	"context"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
)

// TestIncrementalEditsInUTF16 drives didChange with UTF-16 ranges over text
// with Cyrillic, emoji and CRLF, and checks the Backend's copy of the buffer
// and the diagnostic positions sent back.
func TestIncrementalEditsInUTF16(t *testing.T) {
	e := newEnv(t, lsptest.Options{})
	e.start()
	doc := e.path("doc.md")
	// Line 0: "# Привет 😀 мир" — the emoji is 2 UTF-16 units, 4 bytes.
	must(t, e.client.Open(e.ctx, doc, "markdown", "# Привет 😀 мир\r\n<!-- @code function f a.go -->\r\n"))
	edits := []protocol.TextDocumentContentChangeEvent{
		lsptest.Replace(0, 12, 0, 15, "BAD"),      // "мир" → "BAD": col 12 is after the emoji
		lsptest.Replace(0, 9, 0, 11, "🎉"),         // emoji → another emoji
		lsptest.Replace(1, 5, 1, 10, "@anchor"),   // "@code" → "@anchor" on the CRLF line
		lsptest.Replace(2, 0, 2, 0, "tail 𠜎 BAD"), // insert on the final empty line
	}
	must(t, e.client.Change(e.ctx, doc, edits...))
	e.settle()

	want := "# Привет 🎉 BAD\r\n<!-- @anchor function f a.go -->\r\ntail 𠜎 BAD"
	if got := e.backend.text(doc); got != want {
		t.Fatalf("backend text = %q\nwant %q\nlogs: %+v", got, want, e.client.State().Logs)
	}
	diags := e.client.Diagnostics(doc)
	if len(diags) != 2 {
		t.Fatalf("got %d diagnostics, want 2", len(diags))
	}
	// "BAD" on line 0 starts after "# Привет " (9 units) + 🎉 (2) + " " (1).
	r0 := protocol.Range{Start: protocol.Position{Line: 0, Character: 12}, End: protocol.Position{Line: 0, Character: 15}}
	// Line 2: "tail " (5) + 𠜎 (2 units) + " " (1).
	r2 := protocol.Range{Start: protocol.Position{Line: 2, Character: 8}, End: protocol.Position{Line: 2, Character: 11}}
	if diags[0].Range != r0 || diags[1].Range != r2 {
		t.Errorf("ranges = %v, %v; want %v, %v", diags[0].Range, diags[1].Range, r0, r2)
	}
	if diags[0].Code != protocol.String("test/bad") || diags[0].Severity != protocol.DiagnosticSeverityWarning {
		t.Errorf("diagnostic = %+v", diags[0])
	}
	if src, _ := diags[0].Source.Get(); src != "clew" {
		t.Errorf("source = %q, want clew", src)
	}
}

func TestChangesReachBackendInOrder(t *testing.T) {
	e := newEnv(t, lsptest.Options{})
	e.start()
	doc := e.path("a.md")
	must(t, e.client.Open(e.ctx, doc, "markdown", ""))
	for i := 0; i < 50; i++ {
		must(t, e.client.Change(e.ctx, doc, lsptest.Replace(0, uint32(i), 0, uint32(i), "x")))
	}
	must(t, e.client.Notify(e.ctx, protocol.MethodTextDocumentDidSave, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uriOf(doc)}}))
	must(t, e.client.Close(e.ctx, doc))
	e.settle()
	e.backend.mu.Lock()
	defer e.backend.mu.Unlock()
	var kinds []string
	for _, c := range e.backend.changes {
		kinds = append(kinds, c.Kind.String())
	}
	if len(kinds) != 53 || kinds[0] != "open" || kinds[51] != "save" || kinds[52] != "close" {
		t.Fatalf("changes = %v", kinds)
	}
	last := e.backend.changes[50]
	if string(last.Text) != strings.Repeat("x", 50) || last.Version != 51 {
		t.Errorf("last edit = %q v%d", last.Text, last.Version)
	}
	if e.backend.changes[0].LanguageID != "markdown" {
		t.Errorf("language id = %q", e.backend.changes[0].LanguageID)
	}
}

func TestBadEditsAreReportedNotFatal(t *testing.T) {
	e := newEnv(t, lsptest.Options{}, withRoutes(echo))
	e.start()
	doc := e.path("a.md")
	must(t, e.client.Change(e.ctx, doc, lsptest.Whole("never opened")))
	must(t, e.client.Open(e.ctx, doc, "markdown", "one line"))
	must(t, e.client.Change(e.ctx, doc, lsptest.Replace(7, 0, 7, 0, "no such line")))
	must(t, e.client.Change(e.ctx, doc, lsptest.Replace(0, 3, 0, 1, "inverted")))
	st, err := e.client.Await(e.ctx, "three error logs", func(s lsptest.State) bool { return len(s.Logs) == 3 })
	if err != nil {
		t.Fatalf("%v: %+v", err, st.Logs)
	}
	for _, l := range st.Logs {
		if l.Type != protocol.MessageTypeError || !strings.Contains(l.Message, "lost track of") {
			t.Errorf("log = %+v", l)
		}
	}
	if got := e.backend.text(doc); got != "one line" {
		t.Errorf("backend text = %q, want the last good text", got)
	}
	must(t, e.client.Call(e.ctx, "test/echo", map[string]any{}, nil))
}

func TestNonFileDocumentsAreIgnored(t *testing.T) {
	e := newEnv(t, lsptest.Options{}, withRoutes(echo))
	e.start()
	must(t, e.client.Notify(e.ctx, protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: "untitled:Untitled-1", LanguageID: "markdown", Version: 1, Text: "BAD"},
	}))
	must(t, e.client.Call(e.ctx, "test/echo", map[string]any{}, nil))
	e.backend.mu.Lock()
	n := len(e.backend.changes)
	e.backend.mu.Unlock()
	if n != 0 {
		t.Errorf("untitled document reached the backend")
	}
}

// TestQueriesSeeEarlierEdits: a query takes its snapshot in wire order, so
// it reflects every edit sent before it, even though it runs concurrently.
func TestQueriesSeeEarlierEdits(t *testing.T) {
	snapID := queryCall("test/snapshot", nil, func(ctx context.Context, s *server, snap Snapshot, p *struct{}) (uint64, error) {
		return snap.ID(), nil
	})
	e := newEnv(t, lsptest.Options{}, withRoutes(snapID))
	e.start()
	doc := e.path("a.md")
	must(t, e.client.Open(e.ctx, doc, "markdown", ""))
	for i := 0; i < 10; i++ {
		must(t, e.client.Change(e.ctx, doc, lsptest.Whole(strings.Repeat("y", i))))
		var id uint64
		must(t, e.client.Call(e.ctx, "test/snapshot", nil, &id))
		if want := e.backend.lastID(); id != want {
			t.Fatalf("query saw snapshot %d, want %d", id, want)
		}
	}
}
