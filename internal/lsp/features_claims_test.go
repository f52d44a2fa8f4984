package lsp

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
)

// The claim features (docs/server.md) over a real brain checkout: the law's rows
// get lenses, claim IDs and legs go to what the legs matched, moved globs
// and refused regexes get quick fixes, `@anchor` completes claim IDs and
// repo keys, and the diagnostics follow verify's severities.

const lawMD = `# Law

| ID | statement | authority | state | date | source |
| --- | --- | --- | --- | --- | --- |
| INV-1 | Run is defined and never logs | team | active | 2026-01-10 | |
| INV-2 | the retry loop exists | team | active | 2026-01-10 | |
| INV-3 | lib is one package with one retry loop | team | active | 2026-01-10 | |
| INV-4 | Run doubles | team | active | 2026-01-10 | |
| INV-5 | Run is reviewed | team | active | 2026-01-10 | |
| INV-6 | nobody anchored this | team | active | 2026-01-10 | |

<!-- @anchor INV-1 brain:lib/run.go /func Run/ -->
<!-- @anchor INV-1 brain:lib/*.go /log\.Print/ absent -->
<!-- @anchor INV-2 brain:lib/old_retry.go /func retryLoop/ -->
<!-- @anchor INV-3 brain:lib/run.go /^package lib$/ -->
<!-- @anchor INV-3 brain:lib/retry.go /func retryLoop/ unique -->
<!-- @anchor INV-4 brain:lib/*.go /n \* \d+/ -->
`

const runGo = `package lib

import "log"

// Run runs the job.
func Run(n int) int {
	log.Printf("run %d", n)
	return n * 2
}
`

const retryGo = `package lib

// retryLoop retries f.
func retryLoop(f func() error) error {
	for i := 0; i < 3; i++ {
		if err := f(); err == nil {
			return nil
		}
	}
	return f()
}
`

const lawPath = ".multivac/invariants.md"

func newBrainFixture(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t, map[string]string{
		".multivac/config.yml":    "repos:\n  api:\n    path: ../api\n",
		".multivac/invariants.md": lawMD,
		"README.md":               "# Brain\n\nRun returns.\n<!-- @anchor INV-5 brain:lib/run.go /return/ -->\n",
		"docs/guide.md":           "# Guide\n\nRun is the entry point.\n<!-- @code INV-5 function Run lib/run.go -->\n",
		"lib/run.go":              runGo,
		"lib/retry.go":            retryGo,
	}, lsptest.Options{})
	f.init()
	return f
}

// at renders locations as base:line (1-based).
func at(locs []protocol.Location) string {
	var out []string
	for _, l := range locs {
		out = append(out, filepath.Base(string(l.URI))+":"+strconv.Itoa(int(l.Range.Start.Line)+1))
	}
	return strings.Join(out, " ")
}

// TestClaimDiagnostics: a failing absent leg is an Error (absent gates), a
// moved leg a Warning, a refused regex an Error; the row of a failing claim
// carries its worst leg's code and severity.
func TestClaimDiagnostics(t *testing.T) {
	f := newBrainFixture(t)
	f.open(lawPath)
	cases := []struct {
		line int
		code string
		sev  protocol.DiagnosticSeverity
		gist string
	}{
		{13, "claim/broken", protocol.DiagnosticSeverityError, "forbidden pattern at brain:lib/run.go:7"},
		{5, "claim/broken", protocol.DiagnosticSeverityError, "INV-1 is broken"},
		{14, "claim/moved", protocol.DiagnosticSeverityWarning, "match moved to lib/retry.go"},
		{6, "claim/moved", protocol.DiagnosticSeverityWarning, "INV-2 is moved"},
		{17, "claim/parse", protocol.DiagnosticSeverityError, `\d is not POSIX ERE — use [[:digit:]]`},
	}
	for _, c := range cases {
		d := f.awaitCode(lawPath, c.code, c.line)
		if d.Severity != c.sev || !strings.Contains(messageOf(d), c.gist) {
			t.Errorf("line %d %s: severity %v, %q", c.line, c.code, d.Severity, messageOf(d))
		}
		if !strings.HasSuffix(string(d.CodeDescription.Href), "#"+strings.ReplaceAll(c.code, "/", "-")) {
			t.Errorf("line %d: codeDescription %+v", c.line, d.CodeDescription)
		}
	}
	for _, d := range f.c.Diagnostics(f.path(lawPath)) {
		if l := d.Range.Start.Line + 1; l == 7 || l == 9 || l == 10 || l == 12 || l == 15 || l == 16 {
			t.Errorf("an ok claim or leg has a diagnostic on line %d: %v %q", l, d.Code, messageOf(d))
		}
	}
}

// TestClaimLensesAndDefinition: each row's lens ("broken · leg 2", "ok · 2
// legs") runs clew.showAnchors with the leg's matches, and the command
// answers the same from the position alone; definition from a claim ID
// gives every match of its legs, from a leg its own.
func TestClaimLensesAndDefinition(t *testing.T) {
	f := newBrainFixture(t)
	law := f.open(lawPath)
	var lenses []protocol.CodeLens
	must(t, f.call(protocol.MethodTextDocumentCodeLens, &protocol.CodeLensParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(f.path(lawPath))}}, &lenses))
	got := map[uint32]string{}
	var inv1 protocol.CodeLens
	for _, l := range lenses {
		var arg anchorsArgs
		must(t, decodeArgs(json.RawMessage(l.Command.Arguments[0]), &arg))
		got[l.Range.Start.Line+1] = l.Command.Title + " → " + at(arg.Locations)
		if l.Command.Command != "clew.showAnchors" {
			t.Errorf("lens command %+v", l.Command)
		}
		if l.Range.Start.Line+1 == 5 {
			inv1 = l
			if l.Range.Start.Character != 2 || l.Range.End.Character != 7 {
				t.Errorf("the lens sits on the row's ID: %+v", l.Range)
			}
		}
	}
	want := map[uint32]string{
		5:  "broken · leg 2 → run.go:7",
		6:  "moved · leg 1 → retry.go:4",
		7:  "ok · 2 legs → run.go:1 retry.go:4",
		8:  "no legs → ",
		9:  "ok · 2 legs → run.go:8 run.go:6",
		10: "no legs → ",
	}
	if len(lenses) != len(want) {
		t.Errorf("%d lenses: %v", len(lenses), got)
	}
	for line, w := range want {
		if got[line] != w {
			t.Errorf("line %d: lens %q, want %q", line, got[line], w)
		}
	}
	var locs []protocol.Location
	must(t, f.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{
		Command: inv1.Command.Command, Arguments: inv1.Command.Arguments}, &locs))
	if at(locs) != "run.go:7" || locs[0].URI != uri.File(f.path("lib/run.go")) {
		t.Errorf("showAnchors on INV-1's lens: %+v", locs)
	}

	definition := func(rel string, line, char uint32) string {
		t.Helper()
		var locs []protocol.Location
		must(t, f.call(protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{
			TextDocumentPositionParams: tdp(f.path(rel), line, char)}, &locs))
		return at(locs)
	}
	f.open("README.md")
	f.open("docs/guide.md")
	leg2 := lineOf(t, law, "/log")
	for _, c := range []struct {
		name string
		got  string
		want string
	}{
		{"row ID", definition(lawPath, 4, 4), "run.go:6 run.go:7"},
		{"leg's claim ID", definition(lawPath, leg2, 15), "run.go:6 run.go:7"},
		{"leg body", definition(lawPath, leg2, 40), "run.go:7"},
		{"moved leg", definition(lawPath, lineOf(t, law, "old_retry"), 25), "retry.go:4"},
		{"claim ID across docs, the @code leg's declaration included", definition("README.md", 3, 15), "run.go:8 run.go:6"},
		{"the @code leg itself", definition("docs/guide.md", 3, 12), "run.go:6"},
		{"prose", definition(lawPath, 4, 20), ""},
	} {
		if c.got != c.want {
			t.Errorf("definition on %s: %q, want %q", c.name, c.got, c.want)
		}
	}
}

// TestClaimCodeActions: "Rewrite the moved glob" and "Fix the regex
// dialect" are WorkspaceEdits that touch only their token; once applied,
// the diagnostics go.
func TestClaimCodeActions(t *testing.T) {
	f := newBrainFixture(t)
	law := f.open(lawPath)

	moved := f.awaitCode(lawPath, "claim/moved", 14)
	rewrite := find(t, f.codeActions(lawPath, []protocol.Diagnostic{moved}), "Rewrite the moved glob to brain:lib/retry.go")
	if rewrite.IsPreferred == nil || !*rewrite.IsPreferred || *rewrite.Kind != protocol.CodeActionKindQuickFix {
		t.Errorf("rewrite %+v", rewrite)
	}
	after := applyEdit(t, rewrite.Edit, f.path(lawPath), law)
	if want := strings.Replace(law, "brain:lib/old_retry.go", "brain:lib/retry.go", 1); after != want {
		t.Fatalf("moved rewrite:\n%s", after)
	}
	row := f.awaitCode(lawPath, "claim/moved", 6)
	find(t, f.codeActions(lawPath, []protocol.Diagnostic{row}), "Rewrite the moved glob to brain:lib/retry.go (.multivac/invariants.md:14)")

	parse := f.awaitCode(lawPath, "claim/parse", 17)
	fix := find(t, f.codeActions(lawPath, []protocol.Diagnostic{parse}), `Fix the regex dialect: \d → [[:digit:]]`)
	after = applyEdit(t, fix.Edit, f.path(lawPath), after)
	if want := strings.NewReplacer("brain:lib/old_retry.go", "brain:lib/retry.go", `/n \* \d+/`, `/n \* [[:digit:]]+/`).Replace(law); after != want {
		t.Fatalf("dialect fix:\n%s", after)
	}
	if f.r.Read(lawPath) != law {
		t.Fatal("the server wrote the law itself")
	}

	f.edit(lawPath, after)
	if _, err := f.c.Await(f.ctx, "moved and parse gone", func(lsptest.State) bool {
		for _, d := range f.c.Diagnostics(f.path(lawPath)) {
			if c, _ := d.Code.(protocol.String); c == "claim/moved" || c == "claim/parse" {
				return false
			}
		}
		return true
	}); err != nil {
		t.Fatalf("%v: %v", err, diagSet(f.c.Diagnostics(f.path(lawPath))))
	}
	// The broken leg has no fix: only a person can tell which side is wrong.
	broken := f.awaitCode(lawPath, "claim/broken", 13)
	if as := f.codeActions(lawPath, []protocol.Diagnostic{broken}, protocol.CodeActionKindQuickFix); len(as) != 0 {
		t.Errorf("broken leg: %q", titles(as))
	}
}

// TestClaimCompletion: inside `<!-- @anchor ` the first word is a claim ID
// of the law, the second a repo key with its colon.
func TestClaimCompletion(t *testing.T) {
	f := newBrainFixture(t)
	doc := f.open("README.md")
	complete := func(line string) string {
		t.Helper()
		text := doc + line
		f.edit("README.md", text)
		var list protocol.CompletionList
		must(t, f.call(protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{
			TextDocumentPositionParams: tdp(f.path("README.md"), uint32(strings.Count(text, "\n")), uint32(len(line)))}, &list))
		var out []string
		for _, it := range list.Items {
			out = append(out, it.Label)
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct{ line, want string }{
		{"<!-- @anchor ", "INV-1 INV-2 INV-3 INV-4 INV-5 INV-6"},
		{"<!-- @anchor INV-", "INV-1 INV-2 INV-3 INV-4 INV-5 INV-6"},
		{"<!-- @anchor INV-2 ", "brain: *: api:"},
		{"<!-- @anchor INV-2 b", "brain:"},
		{"<!-- @anchor INV-2 brain:lib/", ""},
	} {
		if got := complete(c.line); got != c.want {
			t.Errorf("%q: %q, want %q", c.line, got, c.want)
		}
	}
	// The claim ID's item says what the row claims, and replaces the typed word.
	text := doc + "<!-- @anchor IN"
	f.edit("README.md", text)
	var list protocol.CompletionList
	must(t, f.call(protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{
		TextDocumentPositionParams: tdp(f.path("README.md"), uint32(strings.Count(text, "\n")), 15)}, &list))
	if len(list.Items) != 6 {
		t.Fatalf("items %+v", list.Items)
	}
	it := list.Items[0]
	if te := it.TextEdit.(*protocol.TextEdit); te.Range.Start.Character != 13 || te.Range.End.Character != 15 || te.NewText != "INV-1" {
		t.Errorf("text edit %+v", te)
	}
	if d, _ := it.Detail.Get(); !strings.Contains(d, "active · Run is defined and never logs") {
		t.Errorf("detail %+v", it.Detail)
	}
}
