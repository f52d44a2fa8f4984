package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
	"github.com/clew-lsp/clew-lsp/internal/workspace/span"
)

// The devcontext commands (docs/context.md) over contextmap's Compile, Markdown,
// Explain and Policy.
func init() {
	commands[cmdCompileContext] = runCompileContext
	commands[cmdCompileContextMarkdown] = runCompileContextMarkdown
	commands[cmdExplainContext] = runExplainContext
	commands[cmdContextPolicy] = runContextPolicy
}

// contextArgs is docs/context.md's argument of clew.compileContext and
// clew.explainContext: the cursor as an LSP document and position, plus the
// compiler's knobs.
type contextArgs struct {
	TextDocument *protocol.TextDocumentIdentifier `json:"textDocument,omitempty"`
	Position     *protocol.Position               `json:"position,omitempty"`
	URI          string                           `json:"uri,omitempty"` // explain: the clew:// URI to judge
	URIs         []string                         `json:"uris,omitempty"`
	Paths        []string                         `json:"paths,omitempty"`
	Intent       string                           `json:"intent,omitempty"`
	BudgetTokens *uint64                          `json:"budget_tokens,omitempty"`
	MaxDepth     *int                             `json:"max_depth,omitempty"`
	Floor        *float64                         `json:"floor,omitempty"`
	AllBlocking  bool                             `json:"all_blocking_claims,omitempty"`
}

// contextRequest turns the arguments into the compiler's request over the
// folder of the document (or the only folder).
func (r *request) contextRequest(raw json.RawMessage) (*workspace.Snapshot, devcontext.Request, string, error) {
	var args contextArgs
	if err := decodeArgs(raw, &args); err != nil {
		return nil, devcontext.Request{}, "", err
	}
	req := devcontext.Request{URIs: args.URIs, Paths: args.Paths, Intent: args.Intent, BudgetTokens: args.BudgetTokens,
		MaxDepth: args.MaxDepth, Floor: args.Floor, AllBlockingClaims: args.AllBlocking}
	var folder *workspace.Snapshot
	if args.TextDocument != nil && args.TextDocument.URI != "" {
		abs, err := pathOf(args.TextDocument.URI)
		if err != nil {
			return nil, req, "", errInvalidParams("%v", err)
		}
		f, rel, ok := r.locate(abs)
		if !ok {
			return nil, req, "", errInvalidParams("%s is not inside a workspace folder", args.TextDocument.URI)
		}
		folder = f
		pos := span.Position{}
		if args.Position != nil {
			pos = fromPosition(*args.Position)
		}
		dp, err := contextmap.Position(f, rel, pos, encoding)
		if err != nil {
			return nil, req, "", errInvalidParams("position %d:%d is outside %s: %v", pos.Line, pos.Col, rel, err)
		}
		req.Position = &dp
	} else if fs := r.snap.folderSnapshots(); len(fs) == 1 {
		folder = fs[0]
	} else {
		return nil, req, "", errInvalidParams("name the document: {\"textDocument\": {\"uri\": …}, \"position\": …}")
	}
	return folder, req, args.URI, nil
}

func runCompileContext(ctx context.Context, r *request, raw json.RawMessage) (any, error) {
	folder, req, _, err := r.contextRequest(raw)
	if err != nil {
		return nil, err
	}
	c, err := contextmap.Compile(ctx, folder, req)
	if err != nil {
		return nil, contextError(err)
	}
	return encoded(c)
}

// MarkdownContext is the answer of clew.compileContextMarkdown: the text
// `clew-lsp context --markdown` prints, and a title naming the seed for the
// editor's tab.
type MarkdownContext struct {
	Title    string `json:"title"`
	Markdown string `json:"markdown"`
}

// runCompileContextMarkdown takes clew.compileContext's arguments and
// answers the Markdown rendering, so an editor shows the context as a
// document instead of decoding the JSON itself.
func runCompileContextMarkdown(ctx context.Context, r *request, raw json.RawMessage) (any, error) {
	folder, req, _, err := r.contextRequest(raw)
	if err != nil {
		return nil, err
	}
	md, c, err := contextmap.Markdown(ctx, folder, req)
	if err != nil {
		return nil, contextError(err)
	}
	return MarkdownContext{Title: seedTitle(c), Markdown: md}, nil
}

// seedTitle names the first seed as a person reads it: the selected entry's
// title ("Cache.Lookup"), else its identifier without the clew://<kind>/
// prefix, else the path it names.
func seedTitle(c devcontext.CompiledContext) string {
	if len(c.Seeds) == 0 {
		return "context"
	}
	uri := c.Seeds[0].URI
	if c.Seeds[0].Resolved != "" {
		uri = c.Seeds[0].Resolved
	}
	for _, e := range c.Selected {
		if e.URI == uri && e.Title != "" {
			return e.Title
		}
	}
	if rest, ok := strings.CutPrefix(uri, "clew://"); ok {
		if _, id, ok := strings.Cut(rest, "/"); ok {
			return id
		}
	}
	return uri
}

func runExplainContext(ctx context.Context, r *request, raw json.RawMessage) (any, error) {
	folder, req, u, err := r.contextRequest(raw)
	if err != nil {
		return nil, err
	}
	if u == "" {
		return nil, errInvalidParams("clew.explainContext needs the uri to explain: {\"uri\": \"clew://…\", …}")
	}
	e, err := contextmap.Explain(ctx, folder, u, req)
	if err != nil {
		return nil, contextError(err)
	}
	return encoded(e)
}

func runContextPolicy(ctx context.Context, r *request, raw json.RawMessage) (any, error) {
	return encoded(contextmap.Policy())
}

// encoded answers with devcontext's one encoding, so the editor gets the bytes
// the CLI prints.
func encoded(v any) (any, error) {
	b, err := devcontext.Encode(v)
	if err != nil {
		return nil, err
	}
	return jsonrpc2.RawMessage(b), nil
}

// contextError maps the compiler's errors: a bad request is the client's
// (InvalidParams); an unknown target is a clean RequestFailed.
func contextError(err error) error {
	switch {
	case errors.Is(err, devcontext.ErrInvalidRequest):
		return errInvalidParams("%v", err)
	case errors.Is(err, devcontext.ErrUnknownTarget):
		return jsonrpc2.NewError(codeRequestFailed, err.Error())
	}
	return err
}
