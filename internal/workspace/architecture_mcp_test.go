package workspace_test

import (
	"strings"
	"testing"
)

// TestMCPBoundary enforces ARCHITECTURE.md's row for internal/mcp: only it
// (and cmd, which wires it) depends on the MCP SDK; it reaches anchors,
// claims and the dev-context compiler only through the workspace façade;
// it and internal/lsp are peers that never import each other; nothing
// below them knows either protocol.
func TestMCPBoundary(t *testing.T) {
	const sdk = "github.com/modelcontextprotocol/"
	sawMCP := false
	for _, p := range listPackages(t) {
		isMCP := under(p.ImportPath, "internal/mcp")
		sawMCP = sawMCP || isMCP
		if !isMCP && !under(p.ImportPath, "cmd") {
			for _, dep := range p.Deps {
				if strings.HasPrefix(dep, sdk) {
					t.Errorf("%s depends on %s: only internal/mcp knows MCP", p.ImportPath, dep)
				}
				if under(dep, "internal/mcp") {
					t.Errorf("%s depends on %s: the MCP adapter sits on top, beside internal/lsp", p.ImportPath, dep)
				}
			}
		}
		if isMCP {
			for _, imp := range p.Imports {
				if under(imp, "internal/anchors", "internal/claims", "internal/devcontext") {
					t.Errorf("%s imports %s: the MCP server asks the workspace façade", p.ImportPath, imp)
				}
			}
			for _, dep := range p.Deps {
				if under(dep, "internal/lsp") || strings.HasPrefix(dep, "go.lsp.dev/") {
					t.Errorf("%s depends on %s: MCP and LSP are peer adapters", p.ImportPath, dep)
				}
			}
		}
	}
	if !sawMCP {
		t.Fatal("go list found no internal/mcp: the package map changed?")
	}
}
