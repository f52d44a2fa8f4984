package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/span"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// The feature tests run the real server over a real git repository
// (wstest) through the in-process client, and wait on $/clew/diagnosed or
// on published diagnostics, never on time.

const resolveGo = `package lib

// Resolver resolves names.
type Resolver struct{ names map[string]string }

// Resolve returns the value of a name.
func (r *Resolver) Resolve(name string) string {
	if v, ok := r.names[name]; ok {
		return v
	}
	return "anonymous"
}

// Helper combines two numbers.
func Helper(a, b int) int {
	sum := a + b
	return sum*2 + 1
}
`

const guideMD = `# Guide

## Resolving

The resolver maps a name to its value.
<!-- @code method Resolver.Resolve lib/resolve.go -->

## Combining

Helper doubles the sum; call ` + "`Helper`" + ` twice to get Helper's square.
HelperX is another thing.
<!-- @code function Helper lib/resolve.go -->

` + "```go\nx := Helper(1, 2)\n```" + `

## Elsewhere

Helper is mentioned outside the passage.
`

// fixture is a workspace whose anchors were pinned when it was committed.
type fixture struct {
	t    *testing.T
	r    *wstest.Repo
	root string // symlinks resolved, as the server sees it
	c    *lsptest.Client
	ctx  context.Context
}

// pinAll confirms every anchor of the repository as `clew-lsp confirm
// --all` would, writes the docs and commits.
func pinAll(t testing.TB, r *wstest.Repo) {
	t.Helper()
	snap, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := snap.Check(context.Background(), workspace.CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Confirm(nil, true)
	for _, de := range res.Edits {
		before, _ := snap.ReadFile(de.Doc)
		r.Write(map[string]string{de.Doc: string(de.Apply(before))})
	}
	r.Commit("pin")
}

func newFixture(t *testing.T, files map[string]string, opts lsptest.Options) *fixture {
	t.Helper()
	return newFixtureServing(t, files, opts)
}

// newFixtureServing is newFixture with extra server options.
func newFixtureServing(t *testing.T, files map[string]string, opts lsptest.Options, serveOpts ...Option) *fixture {
	t.Helper()
	r := wstest.New(t)
	r.Write(files)
	r.Commit("base")
	pinAll(t, r)
	root, err := filepath.EvalSymlinks(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	backend := NewWorkspaceBackend(disk.Loader)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	c := lsptest.Pipe(t, func(ctx context.Context, rwc io.ReadWriteCloser) error {
		return Serve(ctx, rwc, backend, logger, append([]Option{WithDiagnosticsDelay(time.Millisecond)}, serveOpts...)...)
	}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return &fixture{t: t, r: r, root: root, c: c, ctx: ctx}
}

func (f *fixture) path(rel string) string { return filepath.Join(f.root, filepath.FromSlash(rel)) }

func (f *fixture) init() *protocol.InitializeResult {
	f.t.Helper()
	res, err := f.c.Initialize(f.ctx, f.root)
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.c.AwaitDiagnosed(f.ctx, 1); err != nil {
		f.t.Fatal(err)
	}
	return res
}

// open opens a file with its disk content and returns that content.
func (f *fixture) open(rel string) string {
	f.t.Helper()
	text := f.r.Read(rel)
	lang := "markdown"
	if strings.HasSuffix(rel, ".go") {
		lang = "go"
	}
	if err := f.c.Open(f.ctx, f.path(rel), lang, text); err != nil {
		f.t.Fatal(err)
	}
	return text
}

// awaitCode waits until rel has a diagnostic with the code on the 1-based
// line (line 0: anywhere) and returns it.
func (f *fixture) awaitCode(rel, code string, line int) protocol.Diagnostic {
	f.t.Helper()
	var got protocol.Diagnostic
	_, err := f.c.Await(f.ctx, code+" on "+rel, func(lsptest.State) bool {
		for _, d := range f.c.Diagnostics(f.path(rel)) {
			if c, _ := d.Code.(protocol.String); string(c) == code && (line == 0 || int(d.Range.Start.Line)+1 == line) {
				got = d
				return true
			}
		}
		return false
	})
	if err != nil {
		f.t.Fatalf("%v; have %v", err, diagSet(f.c.Diagnostics(f.path(rel))))
	}
	return got
}

// edit replaces a file's buffer (it must be open) and waits for diagnosis.
func (f *fixture) edit(rel, text string) {
	f.t.Helper()
	if err := f.c.Change(f.ctx, f.path(rel), lsptest.Whole(text)); err != nil {
		f.t.Fatal(err)
	}
}

// completeAfter sets the open buffer rel to doc followed by line and asks
// for completion at the end of line.
func (f *fixture) completeAfter(rel, doc, line string) []protocol.CompletionItem {
	f.t.Helper()
	text := doc + line
	f.edit(rel, text)
	var list protocol.CompletionList
	n := strings.Count(text, "\n")
	must(f.t, f.call(protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{
		TextDocumentPositionParams: tdp(f.path(rel), uint32(n), uint32(len(line)))}, &list))
	return list.Items
}

func (f *fixture) call(method string, params, result any) error {
	return f.c.Call(f.ctx, method, params, result)
}

func tdp(path string, line, char uint32) protocol.TextDocumentPositionParams {
	return protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(path)},
		Position:     protocol.Position{Line: line, Character: char},
	}
}

// lineOf finds the 0-based line holding sub.
func lineOf(t *testing.T, text, sub string) uint32 {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, sub) {
			return uint32(i)
		}
	}
	t.Fatalf("no line holds %q", sub)
	return 0
}

// applyEdit applies the edits of a WorkspaceEdit for one path to text.
func applyEdit(t *testing.T, we *protocol.WorkspaceEdit, path, text string) string {
	t.Helper()
	var tes []protocol.TextEdit
	tes = append(tes, we.Changes[uri.File(path)]...)
	for _, dc := range we.DocumentChanges {
		if tde, ok := dc.(*protocol.TextDocumentEdit); ok && tde.TextDocument.URI == uri.File(path) {
			for _, e := range tde.Edits {
				if te, ok := e.(*protocol.TextEdit); ok {
					tes = append(tes, *te)
				}
			}
		}
	}
	x := span.NewIndex([]byte(text))
	var edits []span.Edit
	for _, te := range tes {
		s, e, err := x.Offsets(fromRange(te.Range), span.UTF16)
		if err != nil {
			t.Fatalf("edit %v: %v", te.Range, err)
		}
		edits = append(edits, span.Edit{Start: s, End: e, New: te.NewText})
	}
	span.SortEdits(edits)
	out, err := span.ApplyEdits([]byte(text), edits)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func (f *fixture) codeActions(rel string, diags []protocol.Diagnostic, only ...protocol.CodeActionKind) []protocol.CodeAction {
	f.t.Helper()
	var rng protocol.Range
	if len(diags) > 0 {
		rng = diags[0].Range
	}
	var out []protocol.CodeAction
	err := f.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(f.path(rel))},
		Range:        rng,
		Context:      protocol.CodeActionContext{Diagnostics: diags, Only: only},
	}, &out)
	if err != nil {
		f.t.Fatal(err)
	}
	return out
}

func titles(as []protocol.CodeAction) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Title)
	}
	return out
}

func find(t *testing.T, as []protocol.CodeAction, prefix string) protocol.CodeAction {
	t.Helper()
	for _, a := range as {
		if strings.HasPrefix(a.Title, prefix) {
			return a
		}
	}
	t.Fatalf("no action %q among %q", prefix, titles(as))
	return protocol.CodeAction{}
}

func wireErr(t *testing.T, err error) *jsonrpc2.Error {
	t.Helper()
	var w *jsonrpc2.Error
	if !errors.As(err, &w) {
		t.Fatalf("want a JSON-RPC error, got %v", err)
	}
	return w
}

// TestCodeActionConfirmStale: a stale anchor offers "Confirm reviewed",
// whose edit pins the current code; after applying it the doc is fresh.
func TestCodeActionConfirmStale(t *testing.T) {
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": guideMD}, lsptest.Options{})
	f.init()
	doc := f.open("docs/guide.md")
	code := f.open("lib/resolve.go")
	f.edit("lib/resolve.go", strings.Replace(code, `"anonymous"`, `"nobody"`, 1))
	d := f.awaitCode("docs/guide.md", "anchor/stale", 6)
	if d.Severity != protocol.DiagnosticSeverityError {
		t.Errorf("stale gates: severity %v", d.Severity)
	}
	if want := "method Resolver.Resolve: code changed since it was reviewed"; !strings.HasPrefix(messageOf(d), want) {
		t.Errorf("stale message %q, want it to start with %q", messageOf(d), want)
	}

	actions := f.codeActions("docs/guide.md", []protocol.Diagnostic{d})
	confirm := find(t, actions, "Confirm reviewed")
	if confirm.IsPreferred == nil || !*confirm.IsPreferred || len(confirm.Diagnostics) != 1 {
		t.Errorf("confirm should be preferred and name its diagnostic: %+v", confirm)
	}
	find(t, actions, "Remove this anchor")
	after := applyEdit(t, confirm.Edit, f.path("docs/guide.md"), doc)
	if after == doc || !strings.Contains(after, "<!-- @code method Resolver.Resolve lib/resolve.go sha=") {
		t.Fatalf("confirm edit:\n%s", after)
	}
	if f.r.Read("docs/guide.md") != doc {
		t.Fatal("the server wrote the doc itself")
	}
	f.edit("docs/guide.md", after)
	if _, err := f.c.Await(f.ctx, "guide fresh", func(lsptest.State) bool {
		return len(f.c.Diagnostics(f.path("docs/guide.md"))) == 0
	}); err != nil {
		t.Fatalf("%v: %v", err, diagSet(f.c.Diagnostics(f.path("docs/guide.md"))))
	}
}

// TestCodeActionRebindAndMentions: a renamed function offers the rebind
// and, separately, the rebind plus the rewrite of the old name in the
// passage's prose (whole words; not in fences, comments or other passages).
func TestCodeActionRebindAndMentions(t *testing.T) {
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": guideMD}, lsptest.Options{})
	f.init()
	doc := f.open("docs/guide.md")
	code := f.open("lib/resolve.go")
	f.edit("lib/resolve.go", strings.Replace(code, "func Helper(", "func Combine(", 1))
	d := f.awaitCode("docs/guide.md", "anchor/moved", 12)
	if d.Severity != protocol.DiagnosticSeverityWarning {
		t.Errorf("moved is a warning: %v", d.Severity)
	}
	// The message names its subject: a problems list shows it out of context.
	if want := "function Helper: renamed to Combine"; !strings.HasPrefix(messageOf(d), want) {
		t.Errorf("moved message %q, want it to start with %q", messageOf(d), want)
	}
	actions := f.codeActions("docs/guide.md", []protocol.Diagnostic{d})

	rebind := find(t, actions, "Rebind to Combine in lib/resolve.go")
	got := applyEdit(t, rebind.Edit, f.path("docs/guide.md"), doc)
	if want := strings.Replace(doc, "function Helper lib", "function Combine lib", 1); got != want {
		t.Errorf("rebind:\n%s", got)
	}
	if !strings.Contains(got, "sha=") {
		t.Error("a rebind keeps the hashes")
	}

	mentions := find(t, actions, "Rebind to Combine in lib/resolve.go and rename 3 mentions of Helper")
	got = applyEdit(t, mentions.Edit, f.path("docs/guide.md"), doc)
	for _, want := range []string{
		"Combine doubles the sum; call `Combine` twice to get Combine's square.",
		"HelperX is another thing.",
		"x := Helper(1, 2)",
		"Helper is mentioned outside the passage.",
		"<!-- @code function Combine lib/resolve.go sha=",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("after rebind and rename, missing %q:\n%s", want, got)
		}
	}
	find(t, actions, "Confirm reviewed (rebind")
}

// TestCodeActionCandidatesPinRemove: an ambiguous anchor offers each
// candidate (hashes kept); an unpinned one offers Pin; one that does not
// resolve is never offered a pin, only suggestions and removal.
func TestCodeActionCandidatesPinRemove(t *testing.T) {
	dup := "package x\n\n// Dup does a thing.\nfunc Dup(n int) int {\n\tm := n * 3\n\treturn m + n - 1\n}\n"
	f := newFixture(t, map[string]string{
		"old/dup.go": dup, "lib/resolve.go": resolveGo,
		"docs/a.md": "# A\n\n<!-- @code function Dup old/dup.go -->\n",
	}, lsptest.Options{})
	// After pinning: Dup leaves old/ for two places; add unpinned anchors.
	f.r.Remove("old/dup.go")
	f.r.Write(map[string]string{"p/dup.go": dup, "q/dup.go": dup})
	a := f.r.Read("docs/a.md") + "\n## More\n\n<!-- @code method Resolver.Resolve lib/resolve.go -->\n<!-- @code function Reslve lib/resolve.go -->\n"
	f.r.Write(map[string]string{"docs/a.md": a})
	f.r.Commit("move")
	f.init()
	f.open("docs/a.md")

	amb := f.awaitCode("docs/a.md", "anchor/ambiguous", 3)
	actions := f.codeActions("docs/a.md", []protocol.Diagnostic{amb})
	bind := find(t, actions, "Bind to function Dup (p/dup.go:4)")
	find(t, actions, "Bind to function Dup (q/dup.go:4)")
	got := applyEdit(t, bind.Edit, f.path("docs/a.md"), a)
	if !strings.Contains(got, "<!-- @code function Dup p/dup.go sha=") {
		t.Errorf("bind to a candidate keeps the hashes:\n%s", got)
	}

	unp := f.awaitCode("docs/a.md", "anchor/unpinned", 7)
	if unp.Severity != protocol.DiagnosticSeverityInformation {
		t.Errorf("unpinned is information: %v", unp.Severity)
	}
	pin := find(t, f.codeActions("docs/a.md", []protocol.Diagnostic{unp}), "Pin")
	got = applyEdit(t, pin.Edit, f.path("docs/a.md"), a)
	if !strings.Contains(got, "<!-- @code method Resolver.Resolve lib/resolve.go sha=") {
		t.Errorf("pin:\n%s", got)
	}

	lost := f.awaitCode("docs/a.md", "anchor/lost", 8)
	actions = f.codeActions("docs/a.md", []protocol.Diagnostic{lost})
	for _, ac := range actions {
		if *ac.Kind == protocol.CodeActionKindQuickFix && (strings.HasPrefix(ac.Title, "Pin") || strings.HasPrefix(ac.Title, "Confirm")) {
			t.Errorf("a target that does not resolve is refused, not offered %q", ac.Title)
		}
	}
	remove := find(t, actions, "Remove this anchor")
	got = applyEdit(t, remove.Edit, f.path("docs/a.md"), a)
	if strings.Contains(got, "Reslve") || !strings.Contains(got, "Resolver.Resolve lib/resolve.go -->\n") {
		t.Errorf("remove takes the whole line and only it:\n%s", got)
	}

	// A diagnostic the server no longer has (other range) gets nothing.
	stale := amb
	stale.Range.Start.Line++
	stale.Range.End.Line++
	if as := f.codeActions("docs/a.md", []protocol.Diagnostic{stale}, protocol.CodeActionKindQuickFix); len(as) != 0 {
		t.Errorf("a diagnostic that matches nothing got %q", titles(as))
	}
}

// TestConfirmAllSourceAction: "Confirm all in this file" is a source
// action whose edit (versioned, with documentChanges) pins every anchor
// that resolves.
func TestConfirmAllSourceAction(t *testing.T) {
	caps := defaultTestCaps()
	caps.Workspace.WorkspaceEdit = &protocol.WorkspaceEditClientCapabilities{DocumentChanges: ptr(true)}
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": guideMD}, lsptest.Options{Capabilities: &caps})
	f.init()
	doc := f.open("docs/guide.md")
	unpinned := strings.NewReplacer(" sha=", " xsha=").Replace(doc)
	unpinned = regexpSHA(unpinned)
	f.edit("docs/guide.md", unpinned)
	f.awaitCode("docs/guide.md", "anchor/unpinned", 12)

	actions := f.codeActions("docs/guide.md", nil, protocol.CodeActionKindSource)
	all := find(t, actions, "Confirm all anchors in this file as reviewed (2)")
	if all.Kind == nil || *all.Kind != "source.clew.confirmAll" {
		t.Errorf("kind %v", all.Kind)
	}
	tde, ok := all.Edit.DocumentChanges[0].(*protocol.TextDocumentEdit)
	if !ok || tde.TextDocument.Version == nil || *tde.TextDocument.Version != 2 {
		t.Fatalf("the edit names the buffer version it was computed for: %+v", all.Edit.DocumentChanges)
	}
	if got := applyEdit(t, all.Edit, f.path("docs/guide.md"), unpinned); got != doc {
		t.Errorf("confirm all should restore the pinned doc:\n%s\nwant\n%s", got, doc)
	}
	if as := f.codeActions("docs/guide.md", nil, protocol.CodeActionKindQuickFix); len(as) != 0 {
		t.Errorf("only quickfix wanted, got %q", titles(as))
	}
}

// regexpSHA drops every " xsha=…" token (made by the caller from sha=).
func regexpSHA(s string) string {
	for {
		i := strings.Index(s, " xsha=")
		if i < 0 {
			return s
		}
		j := i + 1
		for j < len(s) && s[j] != ' ' {
			j++
		}
		s = s[:i] + s[j:]
	}
}

func defaultTestCaps() protocol.ClientCapabilities {
	t := true
	return protocol.ClientCapabilities{
		Workspace: &protocol.WorkspaceClientCapabilities{
			Configuration:          &t,
			DidChangeConfiguration: &protocol.DidChangeConfigurationClientCapabilities{DynamicRegistration: &t},
			WorkspaceFolders:       &t,
		},
		Window: &protocol.WindowClientCapabilities{WorkDoneProgress: &t},
	}
}

// TestCodeLensDefinitionReferencesHover covers the navigation rows.
func TestCodeLensDefinitionReferencesHover(t *testing.T) {
	f := newFixture(t, map[string]string{
		"lib/resolve.go": resolveGo, "docs/guide.md": guideMD,
		"docs/more.md": "# More\n\nAlso about resolving.\n<!-- @code method Resolver.Resolve lib/resolve.go -->\n<!-- @code INV-01 method Resolver.Resolve lib/resolve.go -->\n",
	}, lsptest.Options{})
	f.init()
	doc := f.open("docs/guide.md")
	code := f.open("lib/resolve.go")
	f.edit("lib/resolve.go", strings.Replace(code, `"anonymous"`, `"nobody"`, 1))
	f.awaitCode("docs/guide.md", "anchor/stale", 6)
	edited := strings.Replace(code, `"anonymous"`, `"nobody"`, 1)

	// Code lens above Resolve and above Helper.
	var lenses []protocol.CodeLens
	must(t, f.call(protocol.MethodTextDocumentCodeLens, &protocol.CodeLensParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(f.path("lib/resolve.go"))}}, &lenses))
	got := map[uint32]string{}
	for _, l := range lenses {
		got[l.Range.Start.Line] = l.Command.Title
		if l.Command.Command != "clew.showAnchors" || len(l.Command.Arguments) != 1 {
			t.Errorf("lens command %+v", l.Command)
		}
	}
	resolveLine, helperLine := lineOf(t, edited, "func (r *Resolver) Resolve"), lineOf(t, edited, "func Helper")
	if got[resolveLine] != "2 docs · 1 claim · 3 stale" || got[helperLine] != "1 doc" || len(lenses) != 2 {
		t.Errorf("lenses %v", got)
	}

	// The lens's command lists the passages.
	var lens protocol.CodeLens
	for _, l := range lenses {
		if l.Range.Start.Line == resolveLine {
			lens = l
		}
	}
	var locs []protocol.Location
	must(t, f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{
		Command: lens.Command.Command, Arguments: lens.Command.Arguments}, &locs))
	if len(locs) != 3 || locs[0].URI != uri.File(f.path("docs/guide.md")) || locs[0].Range.Start.Line != 5 {
		t.Errorf("showAnchors %+v", locs)
	}

	// Definition from the anchor to the method's name.
	anchorLine := lineOf(t, doc, "method Resolver.Resolve")
	must(t, f.call(protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{
		TextDocumentPositionParams: tdp(f.path("docs/guide.md"), anchorLine, 20)}, &locs))
	if len(locs) != 1 || locs[0].URI != uri.File(f.path("lib/resolve.go")) ||
		locs[0].Range.Start.Line != resolveLine || locs[0].Range.Start.Character != 19 || locs[0].Range.End.Character != 26 {
		t.Errorf("definition %+v", locs)
	}

	// References from the method's name to every anchor.
	must(t, f.call(protocol.MethodTextDocumentReferences, &protocol.ReferenceParams{
		TextDocumentPositionParams: tdp(f.path("lib/resolve.go"), resolveLine, 21),
		Context:                    protocol.ReferenceContext{IncludeDeclaration: true}}, &locs))
	var refs []string
	for _, l := range locs {
		refs = append(refs, filepath.Base(string(l.URI))+":"+strconv.Itoa(int(l.Range.Start.Line)+1))
	}
	if strings.Join(refs, " ") != "resolve.go:7 guide.md:6 more.md:4 more.md:5" {
		t.Errorf("references %v", refs)
	}

	// Hover on the anchor: state, reason, target, signature.
	var h protocol.Hover
	must(t, f.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{
		TextDocumentPositionParams: tdp(f.path("docs/guide.md"), anchorLine, 8)}, &h))
	md := h.Contents.(*protocol.MarkupContent).Value
	for _, want := range []string{"**method Resolver.Resolve** · stale", "code changed since it was reviewed (lib/resolve.go:7)",
		"func (r *Resolver) Resolve(name string) string", "Confirm reviewed"} {
		if !strings.Contains(md, want) {
			t.Errorf("anchor hover lacks %q:\n%s", want, md)
		}
	}
	// Each thing once, in words: no reason code, one place, one action.
	if strings.Contains(md, "body_changed") || strings.Count(md, "lib/resolve.go") != 1 || strings.Count(md, "Confirm reviewed") != 1 {
		t.Errorf("anchor hover repeats itself or shows a reason code:\n%s", md)
	}
	// Hover on anchored code: the passages' first lines.
	must(t, f.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{
		TextDocumentPositionParams: tdp(f.path("lib/resolve.go"), resolveLine, 21)}, &h))
	md = h.Contents.(*protocol.MarkupContent).Value
	for _, want := range []string{"**docs/guide.md:6** · stale — \"Resolving\"", "> The resolver maps a name to its value.",
		"**docs/more.md:5** · stale · claim INV-01 — \"More\""} {
		if !strings.Contains(md, want) {
			t.Errorf("code hover lacks %q:\n%s", want, md)
		}
	}
	// No hover on plain prose.
	var none *protocol.Hover
	must(t, f.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{
		TextDocumentPositionParams: tdp(f.path("docs/guide.md"), 0, 1)}, &none))
	if none != nil {
		t.Errorf("hover on a heading: %+v", none)
	}
}

// TestHintsInCode: a declaration whose passage is stale gets a hint in the
// code file, and loses it when the setting is off.
func TestHintsInCode(t *testing.T) {
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": guideMD}, lsptest.Options{})
	f.init()
	code := f.open("lib/resolve.go")
	edited := strings.Replace(code, `"anonymous"`, `"nobody"`, 1)
	f.edit("lib/resolve.go", edited)
	d := f.awaitCode("lib/resolve.go", "anchor/stale", int(lineOf(t, edited, "func (r *Resolver) Resolve"))+1)
	if d.Severity != protocol.DiagnosticSeverityHint || !strings.Contains(messageOf(d), "docs/guide.md:6 (\"Resolving\")") {
		t.Errorf("hint %v %q", d.Severity, messageOf(d))
	}
	// The server watches the disk itself here (fsnotify): writing the
	// config is enough to clear the hint.
	f.r.Write(map[string]string{".clew.yml": "hints_in_code: false\n"})
	if _, err := f.c.Await(f.ctx, "hint gone", func(lsptest.State) bool {
		return len(f.c.Diagnostics(f.path("lib/resolve.go"))) == 0
	}); err != nil {
		t.Fatal(err)
	}
}

func messageOf(d protocol.Diagnostic) string {
	if s, ok := d.Message.(protocol.String); ok {
		return string(s)
	}
	return ""
}

// TestCompletionInAnchor: kinds, then names of that kind, then paths (the
// files that declare the name first).
func TestCompletionInAnchor(t *testing.T) {
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": guideMD, "lib/other.go": "package lib\n"}, lsptest.Options{})
	f.init()
	doc := f.open("docs/guide.md")
	complete := func(line string) []protocol.CompletionItem {
		t.Helper()
		return f.completeAfter("docs/guide.md", doc, line)
	}
	labels := func(items []protocol.CompletionItem) []string {
		var out []string
		for _, it := range items {
			out = append(out, it.Label)
		}
		return out
	}
	// The vocabulary (20 code kinds, key, 11 schema kinds) then lines and doc.
	if got := labels(complete("<!-- @code ")); len(got) != 34 || got[0] != "function" || got[20] != "key" || got[33] != "doc" {
		t.Errorf("kinds: %v", got)
	}
	if got := labels(complete("<!-- @code INV-02 me")); strings.Join(got, " ") != "method message" {
		t.Errorf("kinds after a claim id: %v", got)
	}
	items := complete("<!-- @code method Res")
	if got := labels(items); strings.Join(got, " ") != "Resolver.Resolve" {
		t.Errorf("names: %v", got)
	} else if te := items[0].TextEdit.(*protocol.TextEdit); te.Range.Start.Character != 18 || te.Range.End.Character != 21 {
		t.Errorf("the name replaces the typed word: %+v", te.Range)
	}
	if got := labels(complete("<!-- @code function ")); strings.Join(got, " ") != "Helper" {
		t.Errorf("functions: %v", got)
	}
	if got := labels(complete("<!-- @code method Resolver.Resolve lib/")); strings.Join(got, " ") != "lib/resolve.go lib/other.go" {
		t.Errorf("paths, declaring file first: %v", got)
	}
	if got := labels(complete("<!-- @code doc ")); strings.Join(got, " ") != "docs/guide.md" {
		t.Errorf("doc paths: %v", got)
	}
	if got := labels(complete("Just prose ")); len(got) != 0 {
		t.Errorf("prose: %v", got)
	}
}

// TestDocumentLinks: the path in each anchor links to its file.
func TestDocumentLinks(t *testing.T) {
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo,
		"docs/l.md": "# L\n\n<!-- @code lines lib/resolve.go#L7-L9 -->\n<!-- @code function Helper lib/resolve.go -->\n<!-- @code function Gone lib/gone.go -->\n"},
		lsptest.Options{})
	f.init()
	f.open("docs/l.md")
	var links []protocol.DocumentLink
	must(t, f.call(protocol.MethodTextDocumentDocumentLink, &protocol.DocumentLinkParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(f.path("docs/l.md"))}}, &links))
	if len(links) != 2 {
		t.Fatalf("links %+v", links)
	}
	if string(*links[0].Target) != string(uri.File(f.path("lib/resolve.go")))+"#L7" || links[0].Range.Start.Character != 17 {
		t.Errorf("lines link %+v", links[0])
	}
	if *links[1].Target != uri.File(f.path("lib/resolve.go")) || links[1].Range.Start.Line != 3 {
		t.Errorf("symbol link %+v", links[1])
	}
}

// TestConfirmWithoutApplyEdit: a client that cannot apply edits gets the
// edit in the answer, and the server writes nothing.
func TestConfirmWithoutApplyEdit(t *testing.T) {
	caps := defaultTestCaps()
	caps.Workspace.ApplyEdit = ptr(false)
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": guideMD}, lsptest.Options{Capabilities: &caps})
	f.init()
	doc := f.open("docs/guide.md")
	f.edit("docs/guide.md", regexpSHA(strings.ReplaceAll(doc, " sha=", " xsha=")))
	f.awaitCode("docs/guide.md", "anchor/unpinned", 6)
	b, err := protocol.Marshal(map[string]any{"textDocument": map[string]any{"uri": uri.File(f.path("docs/guide.md"))}})
	must(t, err)
	var cr ConfirmResult
	must(t, f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: "clew.confirm",
		Arguments: []protocol.LSPAny{b}}, &cr))
	if cr.Applied || cr.Edit == nil || len(cr.Confirmed) != 2 || len(f.c.State().Edits) != 0 {
		t.Fatalf("confirm result %+v", cr)
	}
	if got := applyEdit(t, cr.Edit, f.path("docs/guide.md"), regexpSHA(strings.ReplaceAll(doc, " sha=", " xsha="))); got != doc {
		t.Errorf("confirm all in the doc:\n%s", got)
	}
	if f.r.Read("docs/guide.md") != doc {
		t.Error("the server wrote the doc")
	}
}

// TestCommands: clew.confirm asks the editor to apply the edit;
// clew.verifyWorkspace answers verify's JSON; unknown commands and bad
// arguments are clean errors.
func TestCommands(t *testing.T) {
	caps := defaultTestCaps()
	caps.Workspace.ApplyEdit = ptr(true)
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": guideMD}, lsptest.Options{Capabilities: &caps})
	res := f.init()
	cmds := strings.Join(res.Capabilities.ExecuteCommandProvider.Commands, " ")
	for _, c := range []string{"clew.confirm", "clew.showAnchors", "clew.verifyWorkspace"} {
		if !strings.Contains(cmds, c) {
			t.Errorf("%s not advertised: %v", c, cmds)
		}
	}
	doc := f.open("docs/guide.md")
	code := f.open("lib/resolve.go")
	f.edit("lib/resolve.go", strings.Replace(code, `"anonymous"`, `"nobody"`, 1))
	f.awaitCode("docs/guide.md", "anchor/stale", 6)

	arg := func(v any) []protocol.LSPAny {
		b, err := protocol.Marshal(v)
		must(t, err)
		return []protocol.LSPAny{b}
	}
	var cr ConfirmResult
	must(t, f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: "clew.confirm",
		Arguments: arg(tdp(f.path("docs/guide.md"), 5, 3))}, &cr))
	if !cr.Applied || strings.Join(cr.Confirmed, " ") != "docs/guide.md:6" {
		t.Errorf("confirm result %+v", cr)
	}
	edits := f.c.State().Edits
	if len(edits) != 1 {
		t.Fatalf("applyEdit requests: %d", len(edits))
	}
	if got := applyEdit(t, &edits[0].Edit, f.path("docs/guide.md"), doc); got == doc || !strings.Contains(got, "Resolver.Resolve lib/resolve.go sha=") {
		t.Errorf("confirm edit:\n%s", got)
	}
	err := f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: "clew.confirm",
		Arguments: arg(tdp(f.path("docs/guide.md"), 0, 0))}, &cr)
	if w := wireErr(t, err); w.Code != jsonrpc2.InvalidParams || !strings.Contains(w.Message, "no @code anchor on line 1") {
		t.Errorf("confirm on a line without an anchor: %v", err)
	}

	var verify map[string]any
	must(t, f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: "clew.verifyWorkspace"}, &verify))
	if verify["exit"] != float64(1) || len(verify["anchors"].([]any)) != 2 || verify["fallback_share"] == nil {
		t.Errorf("verify report %v", verify)
	}

	err = f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: "clew.nope"}, nil)
	if wireErr(t, err).Code != jsonrpc2.InvalidParams {
		t.Errorf("unknown command: %v", err)
	}
}

// TestCleanErrors: a position outside the document and a document that was
// never opened get clean JSON-RPC errors, and the server keeps serving.
func TestCleanErrors(t *testing.T) {
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": guideMD}, lsptest.Options{})
	f.init()
	f.open("docs/guide.md")
	var h *protocol.Hover
	err := f.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: tdp(f.path("docs/guide.md"), 999, 0)}, &h)
	if w := wireErr(t, err); w.Code != jsonrpc2.InvalidParams || !strings.Contains(w.Message, "outside docs/guide.md") {
		t.Errorf("out of range: %v", err)
	}
	err = f.call(protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: tdp(f.path("lib/resolve.go"), 1, 0)}, nil)
	if w := wireErr(t, err); w.Code != jsonrpc2.InvalidParams || !strings.Contains(w.Message, "not open") {
		t.Errorf("never opened: %v", err)
	}
	err = f.call(protocol.MethodTextDocumentCodeLens, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: "untitled:Untitled-1"}}, nil)
	if wireErr(t, err).Code != jsonrpc2.InvalidParams {
		t.Errorf("untitled: %v", err)
	}
	// A column past the end of a line is the line's end (LSP), not an error.
	must(t, f.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: tdp(f.path("docs/guide.md"), 5, 500)}, &h))
	if h == nil {
		t.Error("hover at the end of the anchor line")
	}
}

// TestFeatureCapabilities: what is advertised is what is registered.
func TestFeatureCapabilities(t *testing.T) {
	f := newFixture(t, map[string]string{"docs/a.md": "# A\n"}, lsptest.Options{})
	res := f.init()
	b, err := protocol.Marshal(res.Capabilities)
	must(t, err)
	var caps map[string]any
	must(t, json.Unmarshal(b, &caps))
	var keys []string
	for k := range caps {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	want := "codeActionProvider codeLensProvider completionProvider definitionProvider documentLinkProvider executeCommandProvider hoverProvider positionEncoding referencesProvider textDocumentSync workspace"
	if strings.Join(keys, " ") != want {
		t.Errorf("capabilities %v\nwant %s", keys, want)
	}
	s := &server{routes: routeTable(featureRoutes(NewWorkspaceBackend(disk.Loader)))}
	for m, r := range s.routes {
		if r.advertise == nil && m != protocol.MethodWorkspaceDidChangeWatchedFiles {
			t.Errorf("%s has no capability", m)
		}
	}
}

// TestIndexingProgress: work-done progress begins, reports and ends while
// the workspace is indexed.
func TestIndexingProgress(t *testing.T) {
	f := newFixture(t, map[string]string{"docs/a.md": "# A\n"}, lsptest.Options{})
	f.init()
	st := f.c.State()
	var kinds []string
	for _, raw := range st.Progress {
		var v struct {
			Kind, Title, Message string
		}
		must(t, json.Unmarshal(raw, &v))
		kinds = append(kinds, v.Kind)
		if v.Kind == "begin" && v.Title != "clew: indexing" {
			t.Errorf("title %q", v.Title)
		}
		if v.Kind == "report" && !strings.HasPrefix(v.Message, "indexing ") {
			t.Errorf("report %q", v.Message)
		}
	}
	if strings.Join(kinds, " ") != "begin report end" {
		t.Errorf("progress %v", kinds)
	}
}

// TestCodeActionAfterNonASCII: a diagnostic after non-ASCII text on its
// line round-trips through UTF-16 and still matches its finding; the fix's
// edit lands on the right bytes.
func TestCodeActionAfterNonASCII(t *testing.T) {
	doc := "# Ü\n\nÜnïcödé 😀 <!-- @code method Resolver.Resolve lib/resolve.go --> 😀 trailing\n"
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/u.md": "# Ü\n"}, lsptest.Options{})
	f.init()
	f.open("docs/u.md")
	f.edit("docs/u.md", doc)
	d := f.awaitCode("docs/u.md", "anchor/unpinned", 3)
	if d.Range.Start.Character != 11 {
		t.Errorf("diagnostic at character %d, want 11", d.Range.Start.Character)
	}
	pin := find(t, f.codeActions("docs/u.md", []protocol.Diagnostic{d}), "Pin")
	got := applyEdit(t, pin.Edit, f.path("docs/u.md"), doc)
	if !strings.HasPrefix(got, "# Ü\n\nÜnïcödé 😀 <!-- @code method Resolver.Resolve lib/resolve.go sha=") || !strings.HasSuffix(got, " --> 😀 trailing\n") {
		t.Errorf("pin:\n%s", got)
	}
}
