package workspace

import "github.com/clew-lsp/clew-lsp/internal/devcontext"

// The dev-context compiler's request and errors under the façade's names,
// so a protocol adapter (the MCP server) asks the façade alone and never
// imports the compiler.
type (
	// ContextRequest is what contextmap.Compile, Markdown and Explain take.
	ContextRequest = devcontext.Request
	// ContextCursor is a request's position: workspace-relative path,
	// 1-based line, 1-based byte column (0: the whole line).
	ContextCursor = devcontext.Position
	// CompiledContext is contextmap.Compile's answer.
	CompiledContext = devcontext.CompiledContext
	// ContextExplanation is ExplainContext's answer.
	ContextExplanation = devcontext.Explanation
)

var (
	// ErrContextInvalidRequest: the request itself is wrong (a knob out of range).
	ErrContextInvalidRequest = devcontext.ErrInvalidRequest
	// ErrContextUnknownTarget: nothing is indexed at the position or under the URI.
	ErrContextUnknownTarget = devcontext.ErrUnknownTarget
)

// EncodeContext is the compiler's one JSON encoding (what `clew-lsp
// context --json`, `explain` and `policy` print).
func EncodeContext(v any) ([]byte, error) { return devcontext.Encode(v) }

// TokensFor is the compiler's token estimate for a text of n bytes, so
// every budget an adapter applies counts tokens the same way.
func TokensFor(n int) uint64 { return devcontext.TokensFor(n) }
