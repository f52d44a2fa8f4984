package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/query"
)

type passagesIn struct {
	File   string `json:"file,omitempty" jsonschema:"the code file, relative to the workspace root; with line, or to narrow name to one file"`
	Line   int    `json:"line,omitempty" jsonschema:"1-based line inside the declaration (with file)"`
	Name   string `json:"name,omitempty" jsonschema:"instead of a line: the declaration's qualified name, container path joined with '.' (Cache.Lookup)"`
	Budget int    `json:"budget,omitempty" jsonschema:"token budget of the answer (default 4000); passage texts past it are cut and complete is false"`
}

type passagesOut struct {
	// Declaration is the innermost declaration holding the line (absent
	// for a name query, or outside every declaration).
	Declaration *query.CodeDecl      `json:"declaration,omitempty"`
	Passages    []query.BoundPassage `json:"passages"`
	Complete    bool                 `json:"complete" jsonschema:"false when passages or their texts were cut to fit the budget"`
	Note        string               `json:"note,omitempty"`
}

func (h *handlers) docPassages(ctx context.Context, _ *sdk.CallToolRequest, in passagesIn) (*sdk.CallToolResult, passagesOut, error) {
	out := passagesOut{Passages: []query.BoundPassage{}, Complete: true}
	name := strings.TrimSpace(in.Name)
	switch {
	case name == "" && in.File == "":
		return nil, out, errors.New("pass file and line (the code you are about to change), or name (a qualified name such as Cache.Lookup)")
	case name == "" && in.Line == 0:
		return nil, out, fmt.Errorf("file %q without line: pass the 1-based line of the declaration, or its qualified name as name", in.File)
	case name != "" && in.Line != 0:
		return nil, out, errors.New("pass either line or name, not both (file may narrow name to one file)")
	case in.Line < 0:
		return nil, out, fmt.Errorf("line %d: lines are 1-based", in.Line)
	}
	_, budget, err := bounds(0, in.Budget)
	if err != nil {
		return nil, out, err
	}
	snap, rep, err := h.ws.Report(ctx)
	if err != nil {
		return nil, out, err
	}
	rel := ""
	if in.File != "" {
		if rel, err = workspacePath(snap.Root(), in.File); err != nil {
			return nil, out, err
		}
	}
	var all []query.BoundPassage
	subject := ""
	if name != "" {
		all = query.PassagesNamed(snap, rep, name, rel)
		subject = "`" + name + "`"
		if rel != "" {
			subject += " in " + rel
		}
	} else {
		if _, ok := snap.Text(rel); !ok {
			return nil, out, fmt.Errorf("%s is not a readable file of the workspace: check the path (relative to the root %s)", rel, snap.Root())
		}
		out.Declaration, all = query.PassagesAt(snap, rep, rel, in.Line)
		subject = fmt.Sprintf("%s:%d", rel, in.Line)
		if d := out.Declaration; d != nil {
			subject = fmt.Sprintf("%s %s (%s:%d-%d)", d.Kind, d.QualifiedName, d.Path, d.StartLine, d.EndLine)
		}
	}
	out.Passages, out.Complete = fitPassages(all, budget)
	if !out.Complete {
		out.Note = fmt.Sprintf("cut to fit the budget of %d tokens: %d of %d passages listed; texts marked [cut] continue in the doc", budget, len(out.Passages), len(all))
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: passagesText(subject, out)}}}, out, nil
}

// fitPassages keeps passages in order while they fit the budget; the first
// one that does not fit whole is kept with its text cut, the rest dropped.
func fitPassages(all []query.BoundPassage, budget uint64) ([]query.BoundPassage, bool) {
	out := []query.BoundPassage{}
	spent := uint64(0)
	for _, p := range all {
		meta := p
		meta.Text = ""
		js, _ := json.Marshal(meta)
		fixed := workspace.TokensFor(len(js) + 200) // the text rendering's header lines
		cost := fixed + workspace.TokensFor(len(p.Text))
		if spent+cost <= budget {
			spent += cost
			out = append(out, p)
			continue
		}
		if left := int(budget) - int(spent+fixed); left > 16 {
			p.Text = cutText(p.Text, left*4) // the compiler's 4 bytes per token
			out = append(out, p)
		}
		return out, false
	}
	return out, true
}

// cutText cuts text at a line end within n bytes and says so.
func cutText(text string, n int) string {
	if len(text) <= n {
		return text
	}
	cut := text[:n]
	if i := strings.LastIndexByte(cut, '\n'); i > 0 {
		cut = cut[:i]
	}
	return cut + "\n[cut]"
}

func passagesText(subject string, o passagesOut) string {
	var b strings.Builder
	if len(o.Passages) == 0 {
		fmt.Fprintf(&b, "No doc passage is anchored to %s.\n", subject)
		return b.String()
	}
	fmt.Fprintf(&b, "Doc passages anchored to %s:\n", subject)
	for _, p := range o.Passages {
		fmt.Fprintf(&b, "\n## %s:%d-%d · %s", p.Doc, p.StartLine, p.EndLine, p.State)
		if p.Heading != "" {
			fmt.Fprintf(&b, " — %q", p.Heading)
		}
		fmt.Fprintf(&b, "\nanchor (line %d): %s\n", p.AnchorLine, p.Target)
		switch p.State {
		case "fresh":
			b.WriteString("reviewed against the code as it is now.\n")
		default:
			fmt.Fprintf(&b, "NOT verified against the current code (%s): %s\n", p.State, p.Todo)
		}
		if p.Text != "" {
			b.WriteString("\n")
			for _, l := range strings.Split(p.Text, "\n") {
				fmt.Fprintf(&b, "> %s\n", l)
			}
		}
	}
	if o.Note != "" {
		fmt.Fprintf(&b, "\n%s\n", o.Note)
	}
	return b.String()
}
