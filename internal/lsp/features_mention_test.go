package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
)

const otherGo = `package lib

// Other resolves differently.
type Other struct{}

// Resolve returns the name itself.
func (o *Other) Resolve(name string) string {
	return name + "!"
}
`

const mentionsMD = "# Notes\n\n## Resolving\n\n" +
	"`Resolver.Resolve` maps a name; `Resolve` alone is ambiguous.\n\n" +
	"- an item naming `Helper`\n  and its continuation\n- a second item\n\n" +
	"## Examples\n\n" +
	"Call `Helper` like this:\n```go\nx := `Helper`(1, 2)\n```\n"

// mentionActionsAt asks for code actions at the first occurrence of sub
// (offset by col bytes) in the doc.
func (f *fixture) mentionActionsAt(rel, text, sub string, col int) []protocol.CodeAction {
	f.t.Helper()
	line := lineOf(f.t, text, sub)
	ch := strings.Index(strings.Split(text, "\n")[line], sub) + col
	pos := protocol.Position{Line: line, Character: uint32(ch)}
	var out []protocol.CodeAction
	must(f.t, f.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(f.path(rel))},
		Range:        protocol.Range{Start: pos, End: pos},
	}, &out))
	return out
}

// verifyStates answers clew.verifyWorkspace's anchors as "line:state".
func (f *fixture) verifyStates() []string {
	f.t.Helper()
	var rep struct {
		Anchors []struct {
			Line  int    `json:"line"`
			State string `json:"state"`
			Name  string `json:"qualified_name"`
		} `json:"anchors"`
	}
	must(f.t, f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: cmdVerifyWorkspace}, &rep))
	var out []string
	for _, a := range rep.Anchors {
		out = append(out, a.Name+":"+a.State)
	}
	return out
}

// TestAnchorMention: a backticked identifier that names one declaration
// offers "Anchor this passage to …"; the edit inserts the pinned anchor
// after the paragraph, which is then fresh, and the action is gone. An
// ambiguous name offers one action per candidate; a list item gets the
// anchor after its continuation, indented; a mention before a fence gets
// its anchor before the fence, and one inside a fence gets nothing.
func TestAnchorMention(t *testing.T) {
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "lib/other.go": otherGo, "docs/notes.md": mentionsMD}, lsptest.Options{})
	f.init()
	doc := f.open("docs/notes.md")

	as := f.mentionActionsAt("docs/notes.md", doc, "`Resolver.Resolve`", 3)
	if got := strings.Join(titles(as), " | "); got != "Anchor this passage to method Resolver.Resolve (lib/resolve.go)" {
		t.Fatalf("actions %q", got)
	}
	a := as[0]
	if a.Kind == nil || *a.Kind != kindAnchorMention || a.IsPreferred == nil || !*a.IsPreferred {
		t.Errorf("action %+v", a)
	}
	after := applyEdit(t, a.Edit, f.path("docs/notes.md"), doc)
	wantLine := "`Resolver.Resolve` maps a name; `Resolve` alone is ambiguous.\n<!-- @code method Resolver.Resolve lib/resolve.go sha=v2:"
	if !strings.Contains(after, wantLine) || strings.Count(after, "@code") != 1 {
		t.Fatalf("edit:\n%s", after)
	}
	if f.r.Read("docs/notes.md") != doc {
		t.Fatal("the server wrote the doc itself")
	}
	f.edit("docs/notes.md", after)
	if got := strings.Join(f.verifyStates(), " "); got != "Resolver.Resolve:fresh" {
		t.Fatalf("after applying: %s", got)
	}
	doc = after
	if as := f.mentionActionsAt("docs/notes.md", doc, "`Resolver.Resolve`", 1); len(as) != 0 {
		t.Errorf("an anchored passage still offers %q", titles(as))
	}
	// `Resolve` names Resolver.Resolve too, which the passage now anchors.
	if as := f.mentionActionsAt("docs/notes.md", doc, "`Resolve` alone", 1); len(as) != 0 {
		t.Errorf("a mention whose candidate is anchored offers %q", titles(as))
	}

	// Ambiguous, before anything is anchored: one action per candidate,
	// sorted by path.
	f.edit("docs/notes.md", mentionsMD)
	doc = mentionsMD
	as = f.mentionActionsAt("docs/notes.md", doc, "`Resolve` alone", 2)
	if got := strings.Join(titles(as), " | "); got != "Anchor this passage to method Other.Resolve (lib/other.go) | Anchor this passage to method Resolver.Resolve (lib/resolve.go)" {
		t.Fatalf("ambiguous: %q", got)
	}
	for _, a := range as {
		if a.IsPreferred != nil && *a.IsPreferred {
			t.Errorf("an ambiguous candidate is preferred: %q", a.Title)
		}
	}
	if got := applyEdit(t, as[0].Edit, f.path("docs/notes.md"), doc); !strings.Contains(got, "ambiguous.\n<!-- @code method Other.Resolve lib/other.go sha=") {
		t.Errorf("first candidate's edit:\n%s", got)
	}

	// A list item: after the item's continuation, indented into the item.
	as = f.mentionActionsAt("docs/notes.md", doc, "`Helper`", 1)
	if len(as) != 1 {
		t.Fatalf("list item: %q", titles(as))
	}
	item := applyEdit(t, as[0].Edit, f.path("docs/notes.md"), doc)
	if !strings.Contains(item, "  and its continuation\n  <!-- @code function Helper lib/resolve.go sha=v2:") ||
		!strings.Contains(item, "-->\n- a second item\n") {
		t.Fatalf("list item edit:\n%s", item)
	}

	// Before a fence: the anchor goes between the paragraph and the fence,
	// never inside it; inside the fence there is nothing to anchor.
	as = f.mentionActionsAt("docs/notes.md", doc, "Call `Helper`", 6)
	if len(as) != 1 {
		t.Fatalf("before the fence: %q", titles(as))
	}
	fenced := applyEdit(t, as[0].Edit, f.path("docs/notes.md"), doc)
	if !strings.Contains(fenced, "Call `Helper` like this:\n<!-- @code function Helper lib/resolve.go sha=") ||
		!strings.Contains(fenced, "-->\n```go\nx := `Helper`(1, 2)\n```\n") {
		t.Fatalf("fence edit:\n%s", fenced)
	}
	if as := f.mentionActionsAt("docs/notes.md", doc, "x := `Helper`", 6); len(as) != 0 {
		t.Errorf("inside a fence: %q", titles(as))
	}
	f.edit("docs/notes.md", fenced)
	if got := strings.Join(f.verifyStates(), " "); got != "Helper:fresh" {
		t.Fatalf("after the fence edit: %s", got)
	}
	// clew.verifyWorkspace carries verify's mention coverage: "Examples" is
	// anchored now, "Resolving" is not.
	var rep struct {
		MC *struct {
			Passages int `json:"passages"`
			Anchored int `json:"anchored"`
		} `json:"mention_coverage"`
	}
	must(t, f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: cmdVerifyWorkspace}, &rep))
	if rep.MC == nil || rep.MC.Passages != 2 || rep.MC.Anchored != 1 {
		t.Errorf("mention coverage %+v, want 1 of 2", rep.MC)
	}
	// Prose that is no mention offers nothing.
	if as := f.mentionActionsAt("docs/notes.md", fenced, "an item naming", 0); len(as) != 0 {
		t.Errorf("plain prose: %q", titles(as))
	}
}
