package contextmap

import (
	"context"
	"encoding/json"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/span"
)

// Compile compiles the context for a request over the snapshot (docs/context.md):
// the cursor is req.Position (repository-relative path, 1-based line,
// 1-based byte column, 0 for "anywhere on the line"), plus any uris, paths
// and intent the request names. The answer is devcontext's CompiledContext; the
// same request over the same snapshot gives byte-identical JSON. Errors are
// devcontext.ErrInvalidRequest, devcontext.ErrUnknownTarget, or ctx's.
func Compile(ctx context.Context, s *workspace.Snapshot, req devcontext.Request) (devcontext.CompiledContext, error) {
	cw, err := contextWorld(ctx, s, req, nil)
	if err != nil {
		return devcontext.CompiledContext{}, err
	}
	return cw.prep.Compile(req)
}

// Explain says where one URI stands under a request: selected,
// excluded, deduplicated, not_reached or unknown (devcontext.Explain).
func Explain(ctx context.Context, s *workspace.Snapshot, uri string, req devcontext.Request) (devcontext.Explanation, error) {
	cw, err := contextWorld(ctx, s, req, []string{strings.TrimSpace(uri)})
	if err != nil {
		return devcontext.Explanation{}, err
	}
	return cw.prep.Explain(uri, req)
}

// Policy publishes the compiler's tiers, selectors, edges and
// defaults. It does not depend on the workspace.
func Policy() devcontext.CompilerPolicy { return devcontext.Policy() }

// Markdown compiles like Compile and renders the answer for a person
// (or to paste into an agent): a projection of the returned value, with the
// texts of the selected entries as this snapshot sees them.
func Markdown(ctx context.Context, s *workspace.Snapshot, req devcontext.Request) (string, devcontext.CompiledContext, error) {
	cw, err := contextWorld(ctx, s, req, nil)
	if err != nil {
		return "", devcontext.CompiledContext{}, err
	}
	c, err := cw.prep.Compile(req)
	if err != nil {
		return "", c, err
	}
	return devcontext.Markdown(c, contextTexts(s, cw, c)), c, nil
}

// Texts are the texts of an answer's selected entries as this
// snapshot sees them (what Markdown shows), for an answer compiled from req
// over this snapshot — say one decoded from JSON.
func Texts(ctx context.Context, s *workspace.Snapshot, req devcontext.Request, c devcontext.CompiledContext) (map[string]string, error) {
	cw, err := contextWorld(ctx, s, req, nil)
	if err != nil {
		return nil, err
	}
	return contextTexts(s, cw, c), nil
}

// contextTexts are the texts Markdown shows for the selected entries: a
// node's own text as the compiler presents it (a doc without the passages
// it excludes as stale), or a file's content.
func contextTexts(s *workspace.Snapshot, cw *cxWorld, c devcontext.CompiledContext) map[string]string {
	byURI := make(map[string]*devcontext.Node, len(cw.world.Shared))
	for _, n := range cw.world.Shared { // the builder puts every node there
		byURI[n.URI] = n
	}
	texts := map[string]string{}
	for _, e := range c.Selected {
		n := byURI[e.URI]
		switch {
		case n == nil:
		case n.Text != "":
			texts[e.URI] = cw.prep.Text(e.URI)
		case n.Kind == devcontext.KindFile || n.Kind == devcontext.KindLocal:
			if b, st := s.ReadFile(n.Path); st == anchors.FileOK {
				texts[e.URI] = string(b)
			}
		}
	}
	return texts
}

// Position turns an editor position (0-based line, column in enc's
// units — LSP's UTF-16 by default) into the compiler's cursor: 1-based
// line and 1-based byte column. A column past the end of its line means
// its end, as in LSP.
func Position(s *workspace.Snapshot, p string, pos span.Position, enc span.Encoding) (devcontext.Position, error) {
	text, st := s.ReadFile(p)
	if st != anchors.FileOK {
		return devcontext.Position{Path: p, Line: pos.Line + 1}, nil // devcontext answers "unknown target"
	}
	ix := span.NewIndex(text)
	c, err := ix.Clamp(pos, enc)
	if err != nil {
		return devcontext.Position{}, err
	}
	off, err := ix.Offset(c, enc)
	if err != nil {
		return devcontext.Position{}, err
	}
	u, err := ix.Position(off, span.UTF8)
	if err != nil {
		return devcontext.Position{}, err
	}
	return devcontext.Position{Path: p, Line: u.Line + 1, Column: u.Col + 1}, nil
}

// validateContextRequest applies devcontext's own validation (through its
// strict JSON decoder), so a bad request fails before any work.
func validateContextRequest(req devcontext.Request) error {
	b, err := json.Marshal(req)
	if err != nil {
		return err
	}
	_, err = devcontext.ParseRequest(b)
	return err
}

// cleanPath normalises a request path the way devcontext does.
func cleanPath(p string) string {
	p = strings.TrimSpace(p)
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	p = strings.TrimRight(p, "/")
	if p == "" || p == "." {
		return "."
	}
	return path.Clean(p)
}

// maxCachedWorlds bounds the worlds kept per snapshot (a world depends on
// the seeds and the walk's reach, not on the budget or intent).
const maxCachedWorlds = 8

// contextWorld builds (or finds) the prepared world of a request. ensure
// names uris that must be in the world if they exist (the uri to explain).
func contextWorld(ctx context.Context, s *workspace.Snapshot, req devcontext.Request, ensure []string) (*cxWorld, error) {
	if err := validateContextRequest(req); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b, err := contextBase(ctx, s)
	if err != nil {
		return nil, err
	}
	depth, floor := devcontext.DefaultMaxDepth, devcontext.DefaultFloor
	if req.MaxDepth != nil {
		depth = *req.MaxDepth
	}
	if req.Floor != nil {
		floor = *req.Floor
	}
	w := newWorldBuilder(ctx, s, b, depth, floor)
	defer w.release()

	cursor := ""
	if p := req.Position; p != nil {
		cursor = cleanPath(p.Path)
		if pf := w.parse(cursor, false); pf != nil {
			if x := w.innermost(pf, p.Line, p.Column); x != nil {
				w.roots = append(w.roots, x)
			} else {
				w.fileSeed = cursor
			}
		} else if _, ok := b.file(cursor); ok {
			w.fileSeed = cursor
		}
	}
	for _, u := range req.URIs {
		if x := w.ensureURI(strings.TrimSpace(u)); x != nil && !slices.Contains(w.roots, x) {
			w.roots = append(w.roots, x)
		}
	}
	var paths []string
	for _, p := range req.Paths {
		paths = append(paths, cleanPath(p))
	}
	key := worldKey(w, cursor, paths, ensure)
	b.mu.Lock()
	if cw, ok := b.worlds[key]; ok {
		b.mu.Unlock()
		return cw, nil
	}
	b.mu.Unlock()

	w.addFiles()
	w.addDocs()
	// The anchored files' declarations are built on every core (a
	// workspace whose docs anchor a thousand files reads them all) and
	// taken in order.
	w.prefetchTables(b.anchorFiles, false)
	for _, p := range b.anchorFiles {
		w.parse(p, false)
	}
	w.addPassages()
	if err := w.search(); err != nil {
		return nil, err
	}
	w.linkParsed()
	w.addHistory()
	w.addCoChange()
	w.addSiblings()
	w.addImports()
	w.addImporters()
	w.parseRelated()
	w.addLocal(cursor, paths)
	w.addClaims(b.claims)
	// The uri to explain is looked up last, so finding it cannot change the
	// world Context compiles: Explain judges the same answer.
	for _, u := range ensure {
		w.ensureURI(u)
	}
	w.oneEdgeEach()
	nodes, edges := w.built()
	world := devcontext.World{Shared: nodes, Edges: edges, Git: b.git, Files: b.hashes, Fingerprint: b.fingerprintOf(),
		Diagnostics: append(slices.Clone(b.diags), w.searchDiagnostic()...)}
	cw := &cxWorld{world: world, prep: devcontext.Prepare(world)}

	b.contents.grow(w)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.worlds == nil {
		b.worlds = map[string]*cxWorld{}
	}
	if old, ok := b.worlds[key]; ok {
		return old, nil
	}
	if len(b.order) >= maxCachedWorlds {
		delete(b.worlds, b.order[0])
		b.order = b.order[1:]
	}
	b.worlds[key] = cw
	b.order = append(b.order, key)
	return cw, nil
}

// worldKey is what the world depends on: the seeds, the file seed and the
// cursor's file (its local change), the requested paths, the explained
// uris, and the walk's reach.
func worldKey(w *worldBuilder, cursor string, paths, ensure []string) string {
	var parts []string
	for _, r := range w.roots {
		parts = append(parts, "r:"+r.uri)
	}
	slices.Sort(parts)
	ps := slices.Clone(paths)
	slices.Sort(ps)
	es := slices.Clone(ensure)
	slices.Sort(es)
	parts = append(parts, "c:"+cursor, "f:"+w.fileSeed, "p:"+strings.Join(ps, "\x00"), "e:"+strings.Join(es, "\x00"),
		"d:"+strconv.Itoa(w.depth), "l:"+strconv.FormatFloat(w.floor, 'g', -1, 64))
	return strings.Join(parts, "\x01")
}
