package lsp

import (
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
)

// TestCopyAnchor: in a code file the cursor on a declaration offers "Copy
// anchor for method Resolver.Resolve"; its command answers the pinned
// anchor line, which pasted under a passage is fresh at once. Off every
// declaration there is no action, and the command says why.
func TestCopyAnchor(t *testing.T) {
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": "# Guide\n\nNothing yet.\n"}, lsptest.Options{})
	f.init()
	code := f.open("lib/resolve.go")
	line := lineOf(t, code, "if v, ok := r.names[name]")
	var actions []protocol.CodeAction
	must(t, f.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(f.path("lib/resolve.go"))},
		Range:        protocol.Range{Start: protocol.Position{Line: line, Character: 2}, End: protocol.Position{Line: line, Character: 2}},
	}, &actions))
	a := find(t, actions, "Copy anchor for method Resolver.Resolve")
	if a.Kind == nil || *a.Kind != kindCopyAnchor || a.Command.Command != cmdCopyAnchor || a.Edit != nil {
		t.Fatalf("action %+v", a)
	}
	var got struct {
		Anchor string `json:"anchor"`
		Kind   string `json:"kind"`
		Pinned bool   `json:"pinned"`
	}
	must(t, f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{
		Command: a.Command.Command, Arguments: a.Command.Arguments}, &got))
	if !got.Pinned || got.Kind != "method" || !strings.HasPrefix(got.Anchor, "<!-- @code method Resolver.Resolve lib/resolve.go sha=") {
		t.Fatalf("answer %+v", got)
	}

	doc := f.open("docs/guide.md")
	f.edit("docs/guide.md", doc+"\n## Resolving\nA missing name is anonymous.\n"+got.Anchor+"\n")
	var rep struct {
		Anchors []struct {
			State string `json:"state"`
		} `json:"anchors"`
	}
	must(t, f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: cmdVerifyWorkspace}, &rep))
	if len(rep.Anchors) != 1 || rep.Anchors[0].State != "fresh" {
		t.Fatalf("pasted anchor: %+v", rep)
	}

	// The package clause is no declaration: no action; the command refuses.
	var none []protocol.CodeAction
	must(t, f.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(f.path("lib/resolve.go"))},
	}, &none))
	if len(none) != 0 {
		t.Errorf("package clause: %q", titles(none))
	}
	arg, _ := json.Marshal(copyAnchorArgs{TextDocument: &protocol.TextDocumentIdentifier{URI: uri.File(f.path("lib/resolve.go"))},
		Position: &protocol.Position{}})
	err := f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{
		Command: cmdCopyAnchor, Arguments: []protocol.LSPAny{arg}}, &got)
	if w := wireErr(t, err); !strings.Contains(w.Message, "not inside a declaration") {
		t.Errorf("refusal %q", w.Message)
	}
}

// TestShowChange: clew.showChange answers the reviewed and the current
// version of a stale anchor's declaration, with the reviewed commit.
func TestShowChange(t *testing.T) {
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": guideMD}, lsptest.Options{})
	f.r.Write(map[string]string{"lib/resolve.go": strings.Replace(resolveGo, `"anonymous"`, `"nobody"`, 1)})
	f.r.Commit("nobody")
	f.init()
	arg, _ := json.Marshal(map[string]any{"textDocument": map[string]string{"uri": string(uri.File(f.path("docs/guide.md")))}, "line": 6})
	var got struct {
		Path           string `json:"path"`
		Before         string `json:"before"`
		After          string `json:"after"`
		ReviewedCommit string `json:"reviewed_commit"`
	}
	must(t, f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{
		Command: cmdShowChange, Arguments: []protocol.LSPAny{arg}}, &got))
	if got.Path != "lib/resolve.go" || !strings.Contains(got.Before, `"anonymous"`) || !strings.Contains(got.After, `"nobody"`) ||
		!strings.HasPrefix(got.Before, "func (r *Resolver) Resolve") || len(got.ReviewedCommit) != 40 {
		t.Fatalf("answer %+v", got)
	}
	arg, _ = json.Marshal(map[string]any{"textDocument": map[string]string{"uri": string(uri.File(f.path("docs/guide.md")))}, "line": 2})
	err := f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{
		Command: cmdShowChange, Arguments: []protocol.LSPAny{arg}}, &got)
	if w := wireErr(t, err); !strings.Contains(w.Message, "no @code anchor on line 2") {
		t.Errorf("refusal %q", w.Message)
	}
}
