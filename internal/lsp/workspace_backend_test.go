package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// tourRepo copies examples/tour into a fresh git repository.
func tourRepo(t *testing.T) *wstest.Repo {
	t.Helper()
	return wstest.NewFrom(t, "../../examples/tour")
}

func startWorkspaceServer(t *testing.T) (*lsptest.Client, *WorkspaceBackend) {
	t.Helper()
	backend := NewWorkspaceBackend(disk.Loader)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	c := lsptest.Pipe(t, func(ctx context.Context, rwc io.ReadWriteCloser) error {
		return Serve(ctx, rwc, backend, logger, WithDiagnosticsDelay(time.Millisecond))
	}, lsptest.Options{})
	return c, backend
}

// diagSet renders a path's diagnostics as "line:code" (1-based lines).
func diagSet(ds []protocol.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%d:%s", d.Range.Start.Line+1, codeOf(d)))
	}
	sort.Strings(out)
	return out
}

// codeOf reads a diagnostic's code (a string-or-number union on the wire).
func codeOf(d protocol.Diagnostic) string {
	b, _ := json.Marshal(d.Code)
	var s string
	if json.Unmarshal(b, &s) != nil {
		return string(b)
	}
	return s
}

// TestServerAgreesWithVerify opens examples/tour with no unsaved buffers
// and checks that the server's diagnostics carry exactly the states that
// verify reports, with the same codes and lines.
func TestServerAgreesWithVerify(t *testing.T) {
	r := tourRepo(t)
	c, _ := startWorkspaceServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := c.Initialize(ctx, r.Dir); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AwaitDiagnosed(ctx, 1); err != nil {
		t.Fatal(err)
	}
	snap, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := snap.Check(ctx, workspace.CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{}
	for _, a := range rep.Anchors {
		code := map[string]string{
			"stale": "anchor/stale", "moved-renamed": "anchor/moved", "lost": "anchor/lost",
			"unpinned": "anchor/unpinned", "unchecked": "anchor/unchecked",
		}[string(a.State)]
		if a.Detail.Reason == "ambiguous" {
			code = "anchor/ambiguous"
		}
		if code != "" {
			want[a.Doc] = append(want[a.Doc], fmt.Sprintf("%d:%s", a.Line, code))
		}
	}
	if len(want["docs/architecture.md"]) < 8 {
		t.Fatalf("the tour should have many non-fresh anchors: %v", want)
	}
	for doc, w := range want {
		sort.Strings(w)
		got := diagSet(c.Diagnostics(filepath.Join(snap.Root(), doc)))
		if strings.Join(got, " ") != strings.Join(w, " ") {
			t.Errorf("%s:\nserver %v\nverify %v", doc, got, w)
		}
	}
	for _, d := range c.Diagnostics(filepath.Join(snap.Root(), "docs/architecture.md")) {
		if !strings.Contains(string(d.CodeDescription.Href), "diagnostics.md#anchor-") {
			t.Errorf("diagnostic %v has no documentation link", d.Code)
		}
		if codeOf(d) == "anchor/stale" && d.Severity != protocol.DiagnosticSeverityError {
			t.Errorf("stale gates, so it is an error: %v", d.Severity)
		}
		if codeOf(d) == "anchor/moved" && d.Severity != protocol.DiagnosticSeverityWarning {
			t.Errorf("moved is a warning: %v", d.Severity)
		}
	}
}

// TestUnsavedEditFlipsStaleAndBack: editing a code buffer (not saved)
// makes the doc's anchor stale; undoing the edit makes it fresh again.
func TestUnsavedEditFlipsStaleAndBack(t *testing.T) {
	r := tourRepo(t)
	c, _ := startWorkspaceServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := c.Initialize(ctx, r.Dir); err != nil {
		t.Fatal(err)
	}
	st, err := c.AwaitDiagnosed(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.EvalSymlinks(r.Dir)
	doc := filepath.Join(root, "docs", "architecture.md")
	code := filepath.Join(root, "resolver", "resolve.go")
	hasLine10 := func(st lsptest.State) bool {
		for _, d := range c.Diagnostics(doc) {
			if d.Range.Start.Line == 9 {
				return true
			}
		}
		return false
	}
	if hasLine10(st) {
		t.Fatal("Resolve starts fresh")
	}
	text := r.Read("resolver/resolve.go")
	if err := c.Open(ctx, code, "go", text); err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(text, `return "anonymous"`, `return "nobody"`, 1)
	if err := c.Change(ctx, code, &protocol.TextDocumentContentChangeWholeDocument{Text: edited}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Await(ctx, "Resolve stale", hasLine10); err != nil {
		t.Fatal(err)
	}
	// The code file's lens ("1 stale") depends on the doc: the client is
	// asked to refresh lenses after a pass that changed diagnostics.
	if _, err := c.Await(ctx, "codeLens/refresh", func(st lsptest.State) bool { return st.LensRefreshes > 0 }); err != nil {
		t.Fatal(err)
	}
	for _, d := range c.Diagnostics(doc) {
		if d.Range.Start.Line == 9 && codeOf(d) != "anchor/stale" {
			t.Errorf("line 10 is %v, want anchor/stale", d.Code)
		}
	}
	if r.Read("resolver/resolve.go") != text {
		t.Fatal("the server wrote a file")
	}
	if err := c.Change(ctx, code, &protocol.TextDocumentContentChangeWholeDocument{Text: text}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Await(ctx, "Resolve fresh again", func(st lsptest.State) bool { return !hasLine10(st) }); err != nil {
		t.Fatal(err)
	}
}

// TestUTF16Columns: a diagnostic after non-ASCII text on its line starts at
// the UTF-16 column LSP requires.
func TestUTF16Columns(t *testing.T) {
	r := wstest.New(t)
	prefix := "Ünïcödé 😀 "
	r.Write(map[string]string{"docs/u.md": prefix + "<!-- @code function Nope a.go -->\n", "a.go": "package a\n"})
	r.Commit("u")
	c, _ := startWorkspaceServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := c.Initialize(ctx, r.Dir); err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.EvalSymlinks(r.Dir)
	doc := filepath.Join(root, "docs", "u.md")
	if _, err := c.Await(ctx, "diagnostic on u.md", func(lsptest.State) bool { return len(c.Diagnostics(doc)) == 1 }); err != nil {
		t.Fatal(err)
	}
	d := c.Diagnostics(doc)[0]
	if d.Range.Start.Character != 11 || codeOf(d) != "anchor/lost" {
		t.Errorf("diagnostic at character %d (%v), want 11: é counts 1, 😀 counts 2", d.Range.Start.Character, d.Code)
	}
}

// TestWorkspaceFoldersChange: a folder added after initialize is indexed
// and diagnosed; removing it clears its diagnostics.
func TestWorkspaceFoldersChange(t *testing.T) {
	empty := wstest.New(t)
	empty.Write(map[string]string{"README.md": "# nothing anchored\n"})
	empty.Commit("empty")
	tour := tourRepo(t)
	c, _ := startWorkspaceServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := c.Initialize(ctx, empty.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if ws := res.Capabilities.Workspace; ws == nil || ws.WorkspaceFolders == nil || ws.WorkspaceFolders.Supported == nil || !*ws.WorkspaceFolders.Supported {
		t.Fatal("workspace folder changes are not advertised")
	}
	if _, err := c.AwaitDiagnosed(ctx, 1); err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.EvalSymlinks(tour.Dir)
	doc := filepath.Join(root, "docs", "architecture.md")
	folder := []protocol.WorkspaceFolder{{URI: uri.File(tour.Dir), Name: "tour"}}
	if err := c.Notify(ctx, protocol.MethodWorkspaceDidChangeWorkspaceFolders,
		&protocol.DidChangeWorkspaceFoldersParams{Event: protocol.WorkspaceFoldersChangeEvent{Added: folder, Removed: []protocol.WorkspaceFolder{}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Await(ctx, "diagnostics in the added folder", func(lsptest.State) bool { return len(c.Diagnostics(doc)) >= 8 }); err != nil {
		t.Fatal(err)
	}
	if err := c.Notify(ctx, protocol.MethodWorkspaceDidChangeWorkspaceFolders,
		&protocol.DidChangeWorkspaceFoldersParams{Event: protocol.WorkspaceFoldersChangeEvent{Added: []protocol.WorkspaceFolder{}, Removed: folder}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Await(ctx, "diagnostics cleared", func(lsptest.State) bool { return len(c.Diagnostics(doc)) == 0 }); err != nil {
		t.Fatal(err)
	}
}
