package lsp

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
)

const notesMD = "# Notes\n\nNames are lower-cased.\n"
const refMD = "# Reference\n\n## Names\n\nLower-cased.\n\n## Queries\n\nSplit on spaces.\n"
const appYML = "name: app\nport: 8080\nmode: dev\n"

// showChangeGuide adds a doc anchor and a line-range anchor to guideMD.
const showChangeGuide = guideMD + `
## Notes

See the notes.
<!-- @code doc docs/notes.md -->

## Config

The app listens on its port.
<!-- @code lines conf/app.yml#L1-L2 -->

## Queries

See the reference.
<!-- @code doc docs/ref.md#queries -->
`

type changeAnswer struct {
	Anchor         string `json:"anchor"`
	Subject        string `json:"subject"`
	Path           string `json:"path"`
	Before         string `json:"before"`
	After          string `json:"after"`
	ReviewedCommit string `json:"reviewed_commit"`
	BeforeFile     string `json:"before_file"`
}

// newChangeFixture pins every anchor, then commits a change to each bound
// thing but Helper: Resolver.Resolve, the notes doc, the reference's
// Queries section and line 2 of the config are stale, with their reviewed
// versions in history.
func newChangeFixture(t *testing.T, opts lsptest.Options) *fixture {
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": showChangeGuide,
		"docs/notes.md": notesMD, "conf/app.yml": appYML, "docs/ref.md": refMD}, opts)
	f.r.Write(map[string]string{
		"lib/resolve.go": strings.Replace(resolveGo, `"anonymous"`, `"nobody"`, 1),
		"docs/notes.md":  notesMD + "Queries are split on spaces.\n",
		"conf/app.yml":   strings.Replace(appYML, "8080", "9090", 1),
		"docs/ref.md":    strings.Replace(refMD, "Split on spaces.", "Split on spaces and commas.", 1),
	})
	f.r.Commit("change after review")
	f.init()
	return f
}

func (f *fixture) showChange(arg any) (changeAnswer, error) {
	raw, _ := json.Marshal(arg)
	var got changeAnswer
	err := f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{
		Command: cmdShowChange, Arguments: []protocol.LSPAny{raw}}, &got)
	return got, err
}

// TestShowChangeQuickFix: every anchor/stale diagnostic offers "Show what
// changed since review" (a command, no edit), listed before Confirm;
// running it answers the reviewed and current versions and the file as it
// was reviewed around the change. Symbol, doc, doc-section and line-range
// anchors alike.
func TestShowChangeQuickFix(t *testing.T) {
	f := newChangeFixture(t, lsptest.Options{})
	doc := f.open("docs/guide.md")
	cases := []struct {
		line                         int
		subject, path, before, after string
		beforeFile                   string
	}{
		{6, "method Resolver.Resolve", "lib/resolve.go", `return "anonymous"`, `return "nobody"`, resolveGo},
		{int(lineOf(t, doc, "@code doc docs/notes.md")) + 1, "doc docs/notes.md", "docs/notes.md", notesMD, notesMD + "Queries are split on spaces.\n", notesMD},
		{int(lineOf(t, doc, "@code lines conf/app.yml")) + 1, "lines conf/app.yml#L1-L2", "conf/app.yml", "name: app\nport: 8080", "name: app\nport: 9090", appYML},
		{int(lineOf(t, doc, "@code doc docs/ref.md#queries")) + 1, "doc docs/ref.md#queries", "docs/ref.md", "## Queries\n\nSplit on spaces.", "## Queries\n\nSplit on spaces and commas.", refMD},
	}
	for _, c := range cases {
		d := f.awaitCode("docs/guide.md", "anchor/stale", c.line)
		actions := f.codeActions("docs/guide.md", []protocol.Diagnostic{d}, protocol.CodeActionKindQuickFix)
		if len(actions) < 2 || actions[0].Title != "Show what changed since review" || !strings.HasPrefix(actions[1].Title, "Confirm reviewed") {
			t.Fatalf("line %d: actions %q", c.line, titles(actions))
		}
		a := actions[0]
		if a.Kind == nil || *a.Kind != protocol.CodeActionKindQuickFix || a.Edit != nil || a.Command.Command != cmdShowChange || len(a.Diagnostics) != 1 {
			t.Fatalf("line %d: action %+v", c.line, a)
		}
		var got changeAnswer
		must(t, f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{
			Command: a.Command.Command, Arguments: a.Command.Arguments}, &got))
		if got.Subject != c.subject || got.Path != c.path || !strings.Contains(got.Before, c.before) || !strings.Contains(got.After, c.after) ||
			strings.Contains(got.Before, c.after) || len(got.ReviewedCommit) != 40 {
			t.Errorf("line %d: answer %+v", c.line, got)
		}
		if got.BeforeFile != c.beforeFile {
			t.Errorf("line %d: before_file\n%q\nwant the reviewed file\n%q", c.line, got.BeforeFile, c.beforeFile)
		}
	}

	// A fresh anchor (Helper) offers no such action.
	helper := lineOf(t, doc, "@code function Helper")
	none := f.codeActions("docs/guide.md", []protocol.Diagnostic{{
		Range: protocol.Range{Start: protocol.Position{Line: helper}, End: protocol.Position{Line: helper, Character: 10}},
		Code:  protocol.String("anchor/stale")}}, protocol.CodeActionKindQuickFix)
	for _, a := range none {
		if a.Title == "Show what changed since review" {
			t.Errorf("fresh anchor offers %q", a.Title)
		}
	}

	// The cursor anywhere in the passage means its stale anchor.
	prose := lineOf(t, doc, "The resolver maps")
	got, err := f.showChange(map[string]any{"textDocument": map[string]string{"uri": string(uri.File(f.path("docs/guide.md")))},
		"position": protocol.Position{Line: prose, Character: 3}})
	if err != nil || got.Anchor != "docs/guide.md:6" {
		t.Errorf("from the prose: %+v %v", got, err)
	}

	// A pin that no commit holds: still offered (history is searched only
	// when asked), and the answer says exactly that history lacks it.
	i := strings.Index(doc, "sha=v2:") + len("sha=v2:")
	f.edit("docs/guide.md", doc[:i]+"0123456789ab"+doc[i+12:])
	d := f.awaitCode("docs/guide.md", "anchor/stale", 6)
	actions := f.codeActions("docs/guide.md", []protocol.Diagnostic{d}, protocol.CodeActionKindQuickFix)
	a := find(t, actions, "Show what changed since review")
	err = f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{
		Command: a.Command.Command, Arguments: a.Command.Arguments}, &got)
	if w := wireErr(t, err); w.Code != codeRequestFailed ||
		w.Message != "docs/guide.md:6: the reviewed version (hash 0123456789ab) is not in the last 100 commits of lib/resolve.go; the history does not hold it" {
		t.Errorf("not in history: %d %q", w.Code, w.Message)
	}
}

// TestShowChangeHover: a stale anchor's hover ends with the way to show
// the change, in the form the client says it takes: a command link whose
// argument runs clew.showChange, the client's own command, or words.
func TestShowChangeHover(t *testing.T) {
	hoverOf := func(f *fixture) string {
		t.Helper()
		f.open("docs/guide.md")
		f.awaitCode("docs/guide.md", "anchor/stale", 6)
		var h protocol.Hover
		must(t, f.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{
			TextDocumentPositionParams: tdp(f.path("docs/guide.md"), 5, 8)}, &h))
		return h.Contents.(*protocol.MarkupContent).Value
	}
	plain := hoverOf(newChangeFixture(t, lsptest.Options{}))
	if !strings.HasSuffix(plain, "\nShow what changed since review: the code action on this line, or `clew-lsp diff docs/guide.md:6`.\n") {
		t.Errorf("plain client:\n%s", plain)
	}

	nvim := hoverOf(newChangeFixture(t, lsptest.Options{Capabilities: &protocol.ClientCapabilities{
		Experimental: []byte(`{"clew":{"showChangeCommand":":ClewShowChange"}}`)}}))
	if !strings.HasSuffix(nvim, "\nShow what changed since review: `:ClewShowChange` on this line (or the code action).\n") {
		t.Errorf("client naming its command:\n%s", nvim)
	}

	f := newChangeFixture(t, lsptest.Options{Capabilities: &protocol.ClientCapabilities{
		Experimental: []byte(`{"other":1,"clew":{"commandLinks":true}}`)}})
	md := hoverOf(f)
	const prefix = "[Show what changed since review](command:clew.showChange?"
	i := strings.Index(md, prefix)
	if i < 0 || !strings.HasSuffix(md, ")\n") {
		t.Fatalf("command-link client:\n%s", md)
	}
	q := md[i+len(prefix) : len(md)-2]
	if strings.ContainsAny(q, "()[] ") {
		t.Errorf("the link's argument is not escaped for Markdown: %s", q)
	}
	raw, err := url.QueryUnescape(q)
	if err != nil {
		t.Fatal(err)
	}
	var args []json.RawMessage
	if err := json.Unmarshal([]byte(raw), &args); err != nil || len(args) != 1 {
		t.Fatalf("link argument %s: %v", raw, err)
	}
	var got changeAnswer
	must(t, f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{
		Command: cmdShowChange, Arguments: []protocol.LSPAny{protocol.LSPAny(args[0])}}, &got))
	if got.Anchor != "docs/guide.md:6" || !strings.Contains(got.Before, `"anonymous"`) {
		t.Errorf("the link's command answered %+v", got)
	}

	// A fresh anchor's hover has no such line.
	var h protocol.Hover
	helper := lineOf(t, f.r.Read("docs/guide.md"), "@code function Helper")
	must(t, f.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{
		TextDocumentPositionParams: tdp(f.path("docs/guide.md"), helper, 8)}, &h))
	if md := h.Contents.(*protocol.MarkupContent).Value; strings.Contains(md, "Show what changed") || !strings.Contains(md, "fresh") {
		t.Errorf("fresh anchor hover:\n%s", md)
	}
}
