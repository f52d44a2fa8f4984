// Package mcp serves a workspace over the Model Context Protocol, for
// coding agents: the dev context of the code they are about to change, the
// health of the docs' anchors and claims, the passages bound to a
// declaration, and the anchor line to write. It is a protocol adapter like
// internal/lsp: every answer comes from the workspace façade, over the same
// snapshot a CLI run would read, and no tool writes a file.
package mcp

import (
	"context"
	"io"
	"log/slog"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// instructions is what an agent reads about the server when it connects.
const instructions = `clew-lsp keeps Markdown docs honest about code. Before changing a declaration, call "context" with its file and line: it returns what to read (the code, its tests, callers and callees, the doc passages bound to it, the claims and AGENTS.md that govern it), within a token budget. Passages whose anchors are stale are never given as facts: they are listed under "Excluded" with the reason. "doc_passages" lists what the docs say about the code at a position (with each passage's state); "verify" gives the workspace's anchor and claim health with what to do; "anchor_for" gives the anchor line to put under a passage you write about a declaration; "suggest_anchors" lists the docs' backticked mentions of code that no anchor binds yet. Paths are relative to the workspace root. Every tool is read-only.`

// NewServer builds the MCP server over one workspace: its tools and
// resources, with the given version in the server's implementation info.
func NewServer(ws *Workspace, version string, logger *slog.Logger) *sdk.Server {
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "clew-lsp", Title: "clew-lsp: docs that stay true to the code", Version: version},
		&sdk.ServerOptions{Instructions: instructions, Logger: logger, HasResources: true, HasTools: true})
	h := &handlers{ws: ws}
	addTools(s, h)
	addResources(s, h)
	return s
}

// Serve runs the server on t (stdio for `clew-lsp mcp`) until the client
// disconnects or ctx ends.
func Serve(ctx context.Context, ws *Workspace, version string, logger *slog.Logger, t sdk.Transport) error {
	return NewServer(ws, version, logger).Run(ctx, t)
}

// handlers holds what every tool and resource handler shares.
type handlers struct {
	ws *Workspace
}

// readOnly are the annotations of every tool: they read the workspace and
// never change it, repeated calls on the same tree answer the same, and
// they reach nothing outside the workspace.
func readOnly(title string) *sdk.ToolAnnotations {
	no := false
	return &sdk.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: &no, OpenWorldHint: &no}
}

func addTools(s *sdk.Server, h *handlers) {
	sdk.AddTool(s, &sdk.Tool{Name: "context", Annotations: readOnly("Dev context for a declaration"),
		InputSchema: schemaOf[contextIn](), OutputSchema: schemaOf[workspace.CompiledContext](),
		Description: "What to read before changing the declaration at file:line — the code itself, its tests, callers and " +
			"callees, the doc passages anchored to it, the claims and AGENTS.md files that govern its file, ADRs, and the " +
			"commits that touched it — spent first-fit within a token budget. The text is Markdown with the selected texts " +
			"(the same as `clew-lsp context --markdown`); the structured content is the JSON answer (the same as " +
			"`clew-lsp context --json`). Passages whose anchors are stale are never selected: they are listed under " +
			"excluded with reason \"stale\"."}, h.context)
	sdk.AddTool(s, &sdk.Tool{Name: "explain", Annotations: readOnly("Why an entry is (not) in the context"),
		InputSchema: schemaOf[explainIn](), OutputSchema: schemaOf[workspace.ContextExplanation](),
		Description: "Says where one clew:// URI stands in the context compiled at file:line with the same knobs: selected, " +
			"excluded (and why: budget, relevance, depth, stale, superseded, unresolved), deduplicated, not_reached or " +
			"unknown, with the budget (the same as `clew-lsp explain`)."}, h.explain)
	sdk.AddTool(s, &sdk.Tool{Name: "verify", Annotations: readOnly("Doc health: anchors and claims"),
		InputSchema: schemaOf[verifyIn](), OutputSchema: schemaOf[verifyOut](),
		Description: "The workspace's anchor and claim health, as `clew-lsp verify --check` sees it (nothing is written): " +
			"counts by state and every finding that is not fresh, with doc, line, state and what to do. Bounded by " +
			"max_findings and a token budget; complete is false when the list was cut (narrow it with doc)."}, h.verify)
	sdk.AddTool(s, &sdk.Tool{Name: "doc_passages", Annotations: readOnly("What the docs say about this code"),
		InputSchema: schemaOf[passagesIn](), OutputSchema: schemaOf[passagesOut](),
		Description: "The doc passages bound by anchors to the code at file:line (the innermost declaration holding the " +
			"line, line-range anchors holding it), or to a qualified name (Cache.Lookup): each with its text and its " +
			"anchor's state. Only fresh passages were reviewed against the code as it is now; a stale passage describes " +
			"code that changed since, and a lost one code that is gone."}, h.docPassages)
	sdk.AddTool(s, &sdk.Tool{Name: "anchor_for", Annotations: readOnly("Anchor line for a declaration"),
		InputSchema: schemaOf[anchorIn](), OutputSchema: schemaOf[workspace.AnchorLine](),
		Description: "The @code anchor line for the declaration at file:line (the same as `clew-lsp anchor`): put it under " +
			"the passage you write about that declaration, so the doc stays checked against the code. Pinned with the " +
			"current hashes (sha=) unless unpinned; the tool only answers, it writes nothing."}, h.anchorFor)
	sdk.AddTool(s, &sdk.Tool{Name: "suggest_anchors", Annotations: readOnly("Mentions of code that no anchor binds"),
		InputSchema: schemaOf[suggestIn](), OutputSchema: schemaOf[suggestOut](),
		Description: "The backticked mentions of code in the docs (`Cache.Lookup`, `Lookup()`, `pkg.Func`) whose passage has " +
			"no anchor to what they name (the same as `clew-lsp suggest --json`): each with its doc, line, the declaration " +
			"it names (or its candidates when ambiguous) and the pinned anchor line to insert after its paragraph, plus the " +
			"counts of all mentions. The tool only answers, it writes nothing."}, h.suggestAnchors)
}
