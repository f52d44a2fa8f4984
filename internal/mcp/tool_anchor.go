package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

type anchorIn struct {
	cursorIn
	Unpinned bool `json:"unpinned,omitempty" jsonschema:"leave sha= out: the anchor resolves, but it says nobody reviewed the passage against the code yet (default false: pinned with the current hashes)"`
}

// anchorFor answers what `clew-lsp anchor FILE:LINE[:COL] --json` prints,
// through the same façade call.
func (h *handlers) anchorFor(_ context.Context, _ *sdk.CallToolRequest, in anchorIn) (*sdk.CallToolResult, workspace.AnchorLine, error) {
	var l workspace.AnchorLine
	snap, err := h.ws.Current()
	if err != nil {
		return nil, l, err
	}
	rel, err := workspacePath(snap.Root(), in.File)
	if err != nil {
		return nil, l, err
	}
	if in.Line < 1 {
		return nil, l, fmt.Errorf("line %d: lines are 1-based; pass the line of the declaration as an editor shows it", in.Line)
	}
	if in.Column < 0 {
		return nil, l, fmt.Errorf("column %d: columns are 1-based bytes; pass 0 or leave it out", in.Column)
	}
	l, err = snap.AnchorFor(rel, in.Line, in.Column, !in.Unpinned)
	if err != nil {
		return nil, l, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\nPut this line under the passage that describes %s (%s:%d-%d).", l.Anchor, l.Title(), l.Path, l.LineStart, l.LineEnd)
	if l.Pinned {
		b.WriteString(" It is pinned: write it only after checking the passage against the code as it is now.")
	}
	if l.Warning != "" {
		fmt.Fprintf(&b, "\nWarning: %s.", l.Warning)
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: b.String() + "\n"}}}, l, nil
}
