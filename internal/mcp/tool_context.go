package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
)

// cursorIn is a position in the workspace, as an agent names it.
type cursorIn struct {
	File   string `json:"file" jsonschema:"the file, relative to the workspace root (an absolute path inside the workspace works too)"`
	Line   int    `json:"line" jsonschema:"1-based line; any line inside the declaration"`
	Column int    `json:"column,omitempty" jsonschema:"1-based byte column; 0 or absent means the whole line"`
}

// knobsIn are the compiler's knobs, as the CLI's --budget, --depth,
// --floor and --intent.
type knobsIn struct {
	Budget int      `json:"budget,omitempty" jsonschema:"token budget of the answer, above 0 (default 24000); about 4 bytes per token"`
	Depth  *int     `json:"depth,omitempty" jsonschema:"how many hops the walk may go from the declaration, 0 or more (default 3)"`
	Floor  *float64 `json:"floor,omitempty" jsonschema:"lowest relevance a walked or inferred entry may have, from 0 to 1 (default 0.25)"`
	Intent string   `json:"intent,omitempty" jsonschema:"what you are about to do, in words: docs that mention these words become relevant"`
}

type contextIn struct {
	cursorIn
	knobsIn
}

type explainIn struct {
	URI string `json:"uri" jsonschema:"the clew:// URI to explain, as context lists it (selected, excluded, deduplicated)"`
	cursorIn
	knobsIn
}

// request builds the compiler's request exactly as the CLI builds it from
// FILE:LINE[:COL] and its flags, so both answer the same. Bad values are
// refused with what to pass instead.
func request(root string, c cursorIn, k knobsIn) (workspace.ContextRequest, error) {
	var r workspace.ContextRequest
	rel, err := workspacePath(root, c.File)
	if err != nil {
		return r, err
	}
	if c.Line < 1 {
		return r, fmt.Errorf("line %d: lines are 1-based; pass the line number as an editor shows it", c.Line)
	}
	if c.Column < 0 {
		return r, fmt.Errorf("column %d: columns are 1-based bytes; pass 0 or leave it out for the whole line", c.Column)
	}
	r.Position = &workspace.ContextCursor{Path: rel, Line: c.Line, Column: c.Column}
	if k.Budget < 0 {
		return r, fmt.Errorf("budget %d: want a whole number of tokens above 0 (default 24000)", k.Budget)
	}
	if k.Budget > 0 {
		n := uint64(k.Budget)
		r.BudgetTokens = &n
	}
	if k.Depth != nil {
		if *k.Depth < 0 {
			return r, fmt.Errorf("depth %d: want 0 or more (default 3)", *k.Depth)
		}
		r.MaxDepth = k.Depth
	}
	if k.Floor != nil {
		if f := *k.Floor; math.IsNaN(f) || f < 0 || f > 1 {
			return r, fmt.Errorf("floor %v: want a number from 0 to 1 (default 0.25)", f)
		}
		r.Floor = k.Floor
	}
	r.Intent = strings.TrimSpace(k.Intent)
	return r, nil
}

// contextFailure turns the compiler's errors into messages an agent can
// act on.
func contextFailure(err error, c cursorIn) error {
	switch {
	case errors.Is(err, workspace.ErrContextUnknownTarget):
		return fmt.Errorf("%v — nothing is indexed at %s:%d: check that the file exists in the workspace (paths are relative to its root) and that the line is inside it", err, c.File, c.Line)
	case errors.Is(err, workspace.ErrContextInvalidRequest):
		return fmt.Errorf("%v — fix the argument and call again", err)
	}
	return err
}

func (h *handlers) context(ctx context.Context, _ *sdk.CallToolRequest, in contextIn) (*sdk.CallToolResult, any, error) {
	snap, err := h.ws.Current()
	if err != nil {
		return nil, nil, err
	}
	req, err := request(snap.Root(), in.cursorIn, in.knobsIn)
	if err != nil {
		return nil, nil, err
	}
	md, c, err := contextmap.Markdown(ctx, snap, req)
	if err != nil {
		return nil, nil, contextFailure(err, in.cursorIn)
	}
	js, err := workspace.EncodeContext(c)
	if err != nil {
		return nil, nil, err
	}
	content := []sdk.Content{&sdk.TextContent{Text: md}}
	if b := c.Budget; b.OverBudget {
		content = append(content, &sdk.TextContent{Text: fmt.Sprintf(
			"Over budget: the required entries alone need %d tokens, more than the budget of %d; they are all given. "+
				"Pass a larger budget to get the rest.", b.RequiredTokens, b.LimitTokens)})
	}
	return &sdk.CallToolResult{Content: content}, json.RawMessage(js), nil
}

func (h *handlers) explain(ctx context.Context, _ *sdk.CallToolRequest, in explainIn) (*sdk.CallToolResult, any, error) {
	if strings.TrimSpace(in.URI) == "" {
		return nil, nil, errors.New("uri is empty: pass a clew:// URI as context lists it (for example an excluded passage's uri)")
	}
	snap, err := h.ws.Current()
	if err != nil {
		return nil, nil, err
	}
	req, err := request(snap.Root(), in.cursorIn, in.knobsIn)
	if err != nil {
		return nil, nil, err
	}
	ex, err := contextmap.Explain(ctx, snap, in.URI, req)
	if err != nil {
		return nil, nil, contextFailure(err, in.cursorIn)
	}
	js, err := workspace.EncodeContext(ex)
	if err != nil {
		return nil, nil, err
	}
	text := fmt.Sprintf("`%s` is %s: %s\n\nbudget: %d of %d tokens used", ex.URI, ex.Standing, ex.Detail,
		ex.Budget.UsedTokens, ex.Budget.LimitTokens)
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, json.RawMessage(js), nil
}
