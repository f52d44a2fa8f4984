package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

type suggestIn struct {
	Doc         string `json:"doc,omitempty" jsonschema:"only mentions in this doc, or in docs under this directory (workspace-relative)"`
	MaxMentions int    `json:"max_mentions,omitempty" jsonschema:"list at most this many mentions (default 50, at most 500); stats always count all"`
}

type suggestOut struct {
	workspace.Suggestions
	Shown    int  `json:"shown"`
	Total    int  `json:"total" jsonschema:"unanchored mentions that name code in the docs asked for, listed or not"`
	Complete bool `json:"complete" jsonschema:"true when every such mention is listed"`
}

// suggestAnchors answers what `clew-lsp suggest --json` prints (without
// --write), through the same façade calls; it writes nothing.
func (h *handlers) suggestAnchors(ctx context.Context, _ *sdk.CallToolRequest, in suggestIn) (*sdk.CallToolResult, suggestOut, error) {
	var out suggestOut
	limit, _, err := bounds(in.MaxMentions, 0)
	if err != nil {
		return nil, out, fmt.Errorf("max_mentions %d: want 1 to %d (default %d)", in.MaxMentions, maxMaxFindings, defaultMaxFindings)
	}
	snap, rep, err := h.ws.Report(ctx)
	if err != nil {
		return nil, out, err
	}
	var docs []string
	if strings.TrimSpace(in.Doc) != "" {
		filter, err := workspacePath(snap.Root(), in.Doc)
		if err != nil {
			return nil, out, err
		}
		docs = []string{}
		for _, d := range snap.Docs() {
			if docFilterMatches(filter, d) {
				docs = append(docs, d)
			}
		}
		if len(docs) == 0 {
			return nil, out, fmt.Errorf("%s: no doc of the workspace is there (see docs.include in %s)", filter, workspace.ConfigFile)
		}
	}
	all := snap.ScanMentions(docs, rep).Suggestions()
	out.Stats, out.Total = all.Stats, len(all.Mentions)
	out.Mentions = all.Mentions[:min(limit, len(all.Mentions))]
	out.Shown, out.Complete = len(out.Mentions), len(out.Mentions) == len(all.Mentions)

	var b strings.Builder
	st := out.Stats
	fmt.Fprintf(&b, "mentions: %d found · %d unique · %d ambiguous · %d unresolved · %d already anchored\n",
		st.Found, st.Unique, st.Ambiguous, st.Unresolved, st.Anchored)
	for _, dm := range out.Mentions {
		var ts []string
		for _, t := range dm.Targets {
			ts = append(ts, fmt.Sprintf("%s (%s:%d)", t.Title(), t.Path, t.LineStart))
		}
		fmt.Fprintf(&b, "%s:%d `%s` %s: %s\n", dm.Doc, dm.Line, dm.Mention, dm.Resolution, strings.Join(ts, ", "))
		if dm.Resolution == workspace.MentionUnique {
			fmt.Fprintf(&b, "  after line %d: %s\n", dm.InsertLine-1, dm.Targets[0].Anchor)
		}
	}
	if !out.Complete {
		fmt.Fprintf(&b, "\nshowing %d of %d; narrow with doc or raise max_mentions\n", out.Shown, out.Total)
	}
	if out.Total > 0 {
		b.WriteString("\nWrite an anchor only after checking the passage against the code: a pinned anchor says it was reviewed. `clew-lsp suggest --write` inserts the unique ones.\n")
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: b.String()}}}, out, nil
}
