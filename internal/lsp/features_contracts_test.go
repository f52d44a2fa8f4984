package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
)

// Config and schema files no anchor names yet, for the contract tests.
var contractFiles = map[string]string{
	"config/app.yml":              "service:\n  name: resolver\n  retries: 3\nlogging:\n  level: info\n",
	"api/user.proto":              "syntax = \"proto3\";\npackage api;\n\nmessage User {\n  string name = 1;\n  int64 id = 2;\n}\n",
	"db/migrations/001_init.sql":  "CREATE TABLE users (\n  id bigint PRIMARY KEY,\n  email text NOT NULL\n);\n",
	"db/migrations/002_names.sql": "ALTER TABLE users ADD COLUMN name text;\n",
	"docs/guide.md":               "# Guide\n\nNothing yet.\n",
}

// TestCompletionOfContractsOnDemand: inside `<!-- @code key ` the server
// offers the keys of a YAML file that no anchor names (the check never
// read it), reading it through the snapshot; the same for protobuf
// messages and SQL tables, and the path after the name ranks the
// declaring file first.
func TestCompletionOfContractsOnDemand(t *testing.T) {
	f := newFixture(t, contractFiles, lsptest.Options{})
	f.init()
	doc := f.open("docs/guide.md")
	complete := func(line string) []protocol.CompletionItem {
		t.Helper()
		return f.completeAfter("docs/guide.md", doc, line)
	}
	labels := func(items []protocol.CompletionItem) string {
		var out []string
		for _, it := range items {
			out = append(out, it.Label)
		}
		return strings.Join(out, " ")
	}
	items := complete("<!-- @code key service.")
	if got := labels(items); got != "service.name service.retries" {
		t.Fatalf("key paths of config/app.yml: %q", got)
	}
	if d, _ := items[1].Detail.Get(); d != "key · config/app.yml:3" {
		t.Errorf("detail %q", d)
	}
	if got := labels(complete("<!-- @code key ")); got != "logging logging.level service service.name service.retries" {
		t.Errorf("every key: %q", got)
	}
	if got := labels(complete("<!-- @code message U")); got != "User" {
		t.Errorf("messages: %q", got)
	}
	// The table as the migrations folder's history leaves it: at the ALTER
	// of 002, with the column it added.
	items = complete("<!-- @code table ")
	if d, _ := items[0].Detail.Get(); labels(items) != "users" || d != "table · db/migrations/002_names.sql:1" {
		t.Errorf("tables: %q %q", labels(items), d)
	}
	if got := labels(complete("<!-- @code column users.")); got != "users.email users.id users.name" {
		t.Errorf("columns: %q", got)
	}
	if got := labels(complete("<!-- @code key service.retries ")); !strings.HasPrefix(got, "config/app.yml ") {
		t.Errorf("paths, the declaring file first: %q", got)
	}
	// Code kinds still come from what the check read only.
	if got := labels(complete("<!-- @code function ")); got != "" {
		t.Errorf("functions: %q", got)
	}
}

// TestCopyAnchorOnContracts: "Copy anchor" on a YAML key, a protobuf
// message and a SQL table answers an anchor that, pasted into a doc, is
// fresh at once — for the table, on its CREATE in the first migration
// although a later migration altered it (the pin is the history's).
func TestCopyAnchorOnContracts(t *testing.T) {
	f := newFixture(t, contractFiles, lsptest.Options{})
	f.init()
	copyAt := func(rel, lineText, title string) string {
		t.Helper()
		code := f.open(rel)
		line := lineOf(t, code, lineText)
		var actions []protocol.CodeAction
		must(t, f.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(f.path(rel))},
			Range:        protocol.Range{Start: protocol.Position{Line: line, Character: 2}, End: protocol.Position{Line: line, Character: 2}},
		}, &actions))
		a := find(t, actions, title)
		var got struct {
			Anchor  string `json:"anchor"`
			Pinned  bool   `json:"pinned"`
			Warning string `json:"warning"`
		}
		must(t, f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{
			Command: a.Command.Command, Arguments: a.Command.Arguments}, &got))
		if !got.Pinned || !strings.Contains(got.Anchor, " sha=") {
			t.Fatalf("%s: %+v", title, got)
		}
		if rel == "db/migrations/001_init.sql" && !strings.Contains(got.Warning, "last changed at db/migrations/002_names.sql:1") {
			t.Errorf("the table's warning %q", got.Warning)
		}
		return got.Anchor
	}
	key := copyAt("config/app.yml", "retries: 3", "Copy anchor for key service.retries")
	msg := copyAt("api/user.proto", "message User", "Copy anchor for message User")
	table := copyAt("db/migrations/001_init.sql", "CREATE TABLE users", "Copy anchor for table users")
	for want, got := range map[string]string{
		"<!-- @code key service.retries config/app.yml sha=":        key,
		"<!-- @code message User api/user.proto sha=":               msg,
		"<!-- @code table users db/migrations/001_init.sql sha=v2:": table,
	} {
		if !strings.HasPrefix(got, want) {
			t.Errorf("anchor %q, want %q…", got, want)
		}
	}

	doc := f.open("docs/guide.md")
	f.edit("docs/guide.md", doc+"\n## Retries\n"+key+"\n\n## Users\n"+msg+"\n\n## The users table\n"+table+"\n")
	var rep struct {
		Anchors []struct {
			Kind   string `json:"kind"`
			State  string `json:"state"`
			Detail struct {
				Path string `json:"path"`
			} `json:"detail"`
		} `json:"anchors"`
	}
	must(t, f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: cmdVerifyWorkspace}, &rep))
	if len(rep.Anchors) != 3 {
		t.Fatalf("anchors %+v", rep.Anchors)
	}
	for _, a := range rep.Anchors {
		if a.State != "fresh" {
			t.Errorf("pasted %s anchor: %s", a.Kind, a.State)
		}
	}
	if p := rep.Anchors[2].Detail.Path; p != "db/migrations/002_names.sql" {
		t.Errorf("the table resolves at %q, want its ALTER in the newest migration", p)
	}
}
