package mcp

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
)

const (
	policyURI = "clew://policy"
	docPrefix = "clew://doc/"
)

// docResource is one doc's anchors with their states.
type docResource struct {
	Doc     string      `json:"doc"`
	Anchors []docAnchor `json:"anchors"`
}

type docAnchor struct {
	Line   int    `json:"line"`
	State  string `json:"state"`
	Gating bool   `json:"gating"`
	Target string `json:"target"`
	Todo   string `json:"todo"`
}

// docResources keeps the listed doc resources in step with the workspace:
// before a client lists resources, the docs holding anchors in the current
// snapshot are added and the vanished ones removed.
type docResources struct {
	mu     sync.Mutex
	listed map[string]bool // doc paths
}

func addResources(s *sdk.Server, h *handlers) {
	s.AddResource(&sdk.Resource{URI: policyURI, Name: "policy", Title: "The context compiler's policy",
		Description: "Tiers, selectors, followed and refused edges with weights, and defaults of the dev-context compiler (the same as `clew-lsp policy`).",
		MIMEType:    "application/json"}, h.readPolicy)
	// Any doc is readable by its URI, listed or not (a doc created after the
	// last listing, say).
	s.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: docPrefix + "{+path}", Name: "doc",
		Title: "A doc's anchors", Description: "The anchors of one doc (workspace-relative path) with their states and what to do.",
		MIMEType: "application/json"}, h.readDoc)
	dr := &docResources{listed: map[string]bool{}}
	s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "resources/list" {
				dr.sync(ctx, s, h)
			}
			return next(ctx, method, req)
		}
	})
}

func (dr *docResources) sync(ctx context.Context, s *sdk.Server, h *handlers) {
	_, rep, err := h.ws.Report(ctx)
	if err != nil {
		return // the list stays as it was; a read reports the error
	}
	now := map[string]int{}
	for _, a := range rep.Anchors {
		now[a.Doc]++
	}
	dr.mu.Lock()
	defer dr.mu.Unlock()
	var gone []string
	for doc := range dr.listed {
		if now[doc] == 0 {
			gone = append(gone, docPrefix+doc)
			delete(dr.listed, doc)
		}
	}
	if len(gone) > 0 {
		s.RemoveResources(gone...)
	}
	docs := make([]string, 0, len(now))
	for doc := range now {
		docs = append(docs, doc)
	}
	sort.Strings(docs)
	for _, doc := range docs {
		if dr.listed[doc] {
			continue
		}
		dr.listed[doc] = true
		s.AddResource(&sdk.Resource{URI: docPrefix + doc, Name: doc, Title: doc + " — anchors",
			Description: "The anchors of " + doc + " with their states and what to do.", MIMEType: "application/json"}, h.readDoc)
	}
}

func (h *handlers) readPolicy(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	js, err := workspace.EncodeContext(contextmap.Policy())
	if err != nil {
		return nil, err
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: policyURI, MIMEType: "application/json", Text: string(js)}}}, nil
}

func (h *handlers) readDoc(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	doc := strings.TrimPrefix(uri, docPrefix)
	snap, rep, err := h.ws.Report(ctx)
	if err != nil {
		return nil, err
	}
	rel, err := workspacePath(snap.Root(), doc)
	if err != nil || !snap.IsDoc(rel) {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	if _, ok := snap.Text(rel); !ok {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	out := docResource{Doc: rel, Anchors: []docAnchor{}}
	for _, a := range rep.Anchors {
		if a.Doc != rel {
			continue
		}
		out.Anchors = append(out.Anchors, docAnchor{Line: a.Line, State: string(a.State), Gating: a.Gating,
			Target: workspace.AnchorTarget(a), Todo: workspace.AnchorTodo(a)})
	}
	js, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, err
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(js) + "\n"}}}, nil
}
