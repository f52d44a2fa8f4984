package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
)

// TestContextCommands: the devcontext commands (SPEC §5) are advertised and
// answer devcontext's JSON; a bad request is a clean InvalidParams.
func TestContextCommands(t *testing.T) {
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": guideMD}, lsptest.Options{})
	res := f.init()
	if cmds := strings.Join(res.Capabilities.ExecuteCommandProvider.Commands, " "); cmds !=
		"clew.compileContext clew.confirm clew.contextPolicy clew.explainContext clew.showAnchors clew.verifyWorkspace" {
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
