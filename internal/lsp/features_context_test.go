package lsp

import (
	"context"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/span"
)

// TestContextCommands: the devcontext commands (docs/context.md) are advertised and
// answer devcontext's JSON; a bad request is a clean InvalidParams.
func TestContextCommands(t *testing.T) {
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": guideMD}, lsptest.Options{})
	res := f.init()
	if cmds := strings.Join(res.Capabilities.ExecuteCommandProvider.Commands, " "); cmds !=
		"clew.compileContext clew.compileContextMarkdown clew.confirm clew.contextPolicy clew.copyAnchor clew.explainContext clew.showAnchors clew.showChange clew.verifyWorkspace" {
		t.Errorf("commands %v", cmds)
	}
	arg := func(v any) []protocol.LSPAny {
		b, err := protocol.Marshal(v)
		must(t, err)
		return []protocol.LSPAny{b}
	}
	var policy map[string]any
	must(t, f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: "clew.contextPolicy"}, &policy))
	if len(policy) == 0 {
		t.Error("empty policy")
	}
	var compiled map[string]any
	must(t, f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: "clew.compileContext",
		Arguments: arg(tdp(f.path("lib/resolve.go"), 8, 2))}, &compiled))
	if compiled["fingerprint"] == nil || compiled["budget"] == nil {
		t.Errorf("compiled context %v", compiled)
	}
	err := f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: "clew.explainContext",
		Arguments: arg(tdp(f.path("lib/resolve.go"), 8, 2))}, nil)
	if wireErr(t, err).Code != jsonrpc2.InvalidParams {
		t.Errorf("explain without a uri: %v", err)
	}
}

// TestCompileContextMarkdown: clew.compileContextMarkdown answers the text
// `clew-lsp context --markdown` prints (contextmap.Markdown for
// the same cursor) and a title naming the seed; an unknown target is a
// clean RequestFailed with the compiler's words.
func TestCompileContextMarkdown(t *testing.T) {
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": guideMD}, lsptest.Options{})
	f.init()
	arg := func(v any) []protocol.LSPAny {
		b, err := protocol.Marshal(v)
		must(t, err)
		return []protocol.LSPAny{b}
	}
	line := lineOf(t, resolveGo, "func (r *Resolver) Resolve")
	var got MarkdownContext
	must(t, f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: "clew.compileContextMarkdown",
		Arguments: arg(tdp(f.path("lib/resolve.go"), line, 5))}, &got))

	snap, err := disk.Load(f.root)
	must(t, err)
	pos, err := contextmap.Position(snap, "lib/resolve.go", span.Position{Line: int(line), Col: 5}, span.UTF16)
	must(t, err)
	want, _, err := contextmap.Markdown(context.Background(), snap, devcontext.Request{Position: &pos})
	must(t, err)
	if got.Markdown != want {
		t.Errorf("markdown differs from the CLI's rendering:\n--- got\n%s\n--- want\n%s", got.Markdown, want)
	}
	if got.Title != "Resolver.Resolve" {
		t.Errorf("title %q, want the seed's name", got.Title)
	}
	if first, _, _ := strings.Cut(got.Markdown, "\n"); !strings.HasPrefix(first, "# Context for `clew://symbol/") || !strings.HasSuffix(first, "Resolver.Resolve`") {
		t.Errorf("first line %q", first)
	}

	err = f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: "clew.compileContextMarkdown",
		Arguments: arg(tdp(f.path("lib/missing.go"), 2, 0))}, nil)
	if w := wireErr(t, err); w.Code != codeRequestFailed || !strings.Contains(w.Message, "unknown target") {
		t.Errorf("unknown target: %v", err)
	}
}
