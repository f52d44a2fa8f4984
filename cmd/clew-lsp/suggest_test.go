package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/lsp"
	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

const scaleGo = `package geo

// Scale multiplies.
func Scale(x, f int) int {
	return x * f
}
`

const scaleTS = `// Scale in the web app.
export function Scale(x: number, f: number): number {
  return x * f + 0;
}
`

// mixedMD holds every kind of mention: unique (`Sum`, `calc.Product`),
// ambiguous (`Scale`), unresolved (`Missing`), not a name (`go test …`),
// fenced, already anchored (`Sum` in "Anchored"), in a list item.
const mixedMD = "# Calc\n\n" +
	"## Adding\n\n`Sum` adds; run `go test ./...` to check.\nSee also `Missing`.\n\n" +
	"## Products\n\n- `calc.Product` multiplies\n  the numbers\n- `Scale` is elsewhere\n\n" +
	"```go\ntotal := `Sum`(xs)\n```\n\n" +
	"## Anchored\n\n`Sum` is anchored here.\n<!-- @code function Sum calc/calc.go -->\n"

type suggestJSON struct {
	Mentions []struct {
		Doc        string `json:"doc"`
		Line       int    `json:"line"`
		Column     int    `json:"column"`
		Mention    string `json:"mention"`
		Resolution string `json:"resolution"`
		Candidates int    `json:"candidates"`
		InsertLine int    `json:"insert_line"`
		Targets    []struct {
			Kind          string `json:"kind"`
			QualifiedName string `json:"qualified_name"`
			Path          string `json:"path"`
			Anchor        string `json:"anchor"`
		} `json:"targets"`
	} `json:"mentions"`
	Stats   map[string]int `json:"stats"`
	Written []struct {
		Doc     string `json:"doc"`
		Anchors int    `json:"anchors"`
	} `json:"written"`
}

func suggestRepo(t *testing.T) *wstest.Repo {
	r := wstest.New(t)
	r.Write(map[string]string{"calc/calc.go": calcGo, "geo/scale.go": scaleGo, "web/scale.ts": scaleTS,
		"docs/calc.md": mixedMD,
		// CRLF with a byte-order mark, no final line break.
		"docs/crlf.md": "\ufeff# Win\r\n\r\nUse `Product`.\r\n\r\nEnd `Sum`"})
	r.Commit("init")
	return r
}

// TestSuggest: the listing of a doc of mixed mentions, then --write inserts
// the unique ones' pinned anchors (CRLF and BOM kept), verify finds them
// fresh, and a second run has nothing to write.
func TestSuggest(t *testing.T) {
	r := suggestRepo(t)
	out, errOut, code := runCLI(t, "suggest", "--dir", r.Dir, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got suggestJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, m := range got.Mentions {
		var ts []string
		for _, tg := range m.Targets {
			ts = append(ts, tg.Kind+" "+tg.QualifiedName+" "+tg.Path)
		}
		listed = append(listed, m.Doc+":"+itoa(m.Line)+" "+m.Mention+" "+m.Resolution+" → "+strings.Join(ts, ", "))
	}
	want := []string{
		"docs/calc.md:5 Sum unique → function Sum calc/calc.go",
		"docs/calc.md:10 calc.Product unique → function Product calc/calc.go",
		"docs/calc.md:12 Scale ambiguous → function Scale geo/scale.go, function Scale web/scale.ts",
		"docs/crlf.md:3 Product unique → function Product calc/calc.go",
		"docs/crlf.md:5 Sum unique → function Sum calc/calc.go",
	}
	if strings.Join(listed, "\n") != strings.Join(want, "\n") {
		t.Errorf("listed:\n%s\nwant:\n%s", strings.Join(listed, "\n"), strings.Join(want, "\n"))
	}
	wantStats := map[string]int{"found": 7, "unique": 5, "ambiguous": 1, "unresolved": 1, "anchored": 1}
	for k, v := range wantStats {
		if got.Stats[k] != v {
			t.Errorf("stats %v, want %v", got.Stats, wantStats)
			break
		}
	}

	text, _, code := runCLI(t, "suggest", "--dir", r.Dir)
	if code != 0 || !strings.Contains(text, "docs/calc.md:12: `Scale` is ambiguous: function Scale (geo/scale.go:4), function Scale (web/scale.ts:2)\n") ||
		!strings.Contains(text, "mentions: 7 found · 5 unique · 1 ambiguous · 1 unresolved · 1 already anchored\n") {
		t.Errorf("text listing:\n%s", text)
	}

	if cov := mentionCoverage(t, r.Dir); cov != "1 of 4" {
		t.Errorf("mention coverage before --write: %s, want 1 of 4", cov)
	}
	if vtext, _, _ := runCLI(t, "verify", r.Dir, "--check"); !strings.Contains(vtext,
		"mention coverage: 1 of 4 passages (7 mentions: 5 unique, 1 ambiguous, 1 unresolved; 1 anchored)\n") {
		t.Errorf("verify's text lacks the mention coverage:\n%s", vtext)
	}

	out, errOut, code = runCLI(t, "suggest", "--dir", r.Dir, "--write", "--json")
	if code != 0 {
		t.Fatalf("--write: exit %d %s", code, errOut)
	}
	got = suggestJSON{}
	must(t, json.Unmarshal([]byte(out), &got))
	if len(got.Written) != 2 || got.Written[0].Doc != "docs/calc.md" || got.Written[0].Anchors != 2 || got.Written[1].Anchors != 2 {
		t.Errorf("written %+v", got.Written)
	}
	calc := r.Read("docs/calc.md")
	for _, want := range []string{
		"See also `Missing`.\n<!-- @code function Sum calc/calc.go sha=v2:",
		"  the numbers\n  <!-- @code function Product calc/calc.go sha=v2:",
		"-->\n- `Scale` is elsewhere\n",
		"```go\ntotal := `Sum`(xs)\n```\n",
	} {
		if !strings.Contains(calc, want) {
			t.Errorf("docs/calc.md lacks %q:\n%s", want, calc)
		}
	}
	if strings.Count(calc, "@code function Sum") != 2 || strings.Contains(calc, "Scale geo") {
		t.Errorf("one Sum anchor added, no ambiguous one:\n%s", calc)
	}
	crlf := r.Read("docs/crlf.md")
	if !strings.HasPrefix(crlf, "\ufeff# Win\r\n\r\nUse `Product`.\r\n<!-- @code function Product calc/calc.go sha=v2:") ||
		!strings.Contains(crlf, "End `Sum`\r\n<!-- @code function Sum calc/calc.go sha=v2:") || strings.Contains(strings.ReplaceAll(crlf, "\r\n", ""), "\n") {
		t.Errorf("docs/crlf.md: %q", crlf)
	}
	vout, _, vcode := runCLI(t, "verify", r.Dir, "--check", "--json")
	var rep struct {
		Anchors []struct {
			ID    string `json:"id"`
			State string `json:"state"`
		} `json:"anchors"`
	}
	must(t, json.Unmarshal([]byte(vout), &rep))
	fresh := 0
	for _, a := range rep.Anchors {
		if a.State == "fresh" {
			fresh++
		}
	}
	if fresh != 4 || len(rep.Anchors) != 5 || vcode != 0 { // the hand-written Sum anchor stays unpinned
		t.Errorf("after --write: exit %d, anchors %+v", vcode, rep.Anchors)
	}
	// "Products" keeps its ambiguous `Scale` unanchored.
	if cov := mentionCoverage(t, r.Dir); cov != "3 of 4" {
		t.Errorf("mention coverage after --write: %s, want 3 of 4", cov)
	}
	text, _, code = runCLI(t, "suggest", "--dir", r.Dir, "--write")
	if code != 0 || !strings.Contains(text, "nothing to write") || r.Read("docs/calc.md") != calc {
		t.Errorf("second --write: exit %d\n%s", code, text)
	}
}

// mentionCoverage is verify --json's mention_coverage as "anchored of passages".
func mentionCoverage(t *testing.T, dir string) string {
	t.Helper()
	out, _, _ := runCLI(t, "verify", dir, "--check", "--json")
	var rep struct {
		MC *struct {
			Passages int `json:"passages"`
			Anchored int `json:"anchored"`
		} `json:"mention_coverage"`
	}
	must(t, json.Unmarshal([]byte(out), &rep))
	if rep.MC == nil {
		return "absent"
	}
	return itoa(rep.MC.Anchored) + " of " + itoa(rep.MC.Passages)
}

// TestSuggestBadInput: a DOC that is not a doc exits 1 naming it; a DOC with
// a line is a usage error; --help documents the command.
func TestSuggestBadInput(t *testing.T) {
	r := suggestRepo(t)
	if _, errOut, code := runCLI(t, "suggest", "--dir", r.Dir, "calc/calc.go"); code != 1 || !strings.Contains(errOut, "calc/calc.go is not a doc") {
		t.Errorf("a code file as DOC: exit %d %q", code, errOut)
	}
	if _, errOut, code := runCLI(t, "suggest", "--dir", r.Dir, "docs/calc.md:3"); code != 2 || !strings.Contains(errOut, "without a line") {
		t.Errorf("DOC:LINE: exit %d %q", code, errOut)
	}
	out, _, code := runCLI(t, "suggest", "--dir", r.Dir, filepath.Join(r.Dir, "docs", "crlf.md"))
	if code != 0 || strings.Contains(out, "docs/calc.md") || !strings.Contains(out, "docs/crlf.md:3:") {
		t.Errorf("one DOC: exit %d\n%s", code, out)
	}
	_, help, code := runCLI(t, "suggest", "--help")
	if code != 0 || !strings.Contains(help, "usage: clew-lsp suggest [DOC…] [--json] [--write] [--dir DIR]") || !strings.Contains(help, "--write") {
		t.Errorf("--help: %d %s", code, help)
	}
}

// TestSuggestAgreesWithServer: for every mention `suggest --json` lists, the
// language server offers exactly one "Anchor this passage" action per
// target, titled with it, whose edit inserts that target's anchor line on
// the line suggest names.
func TestSuggestAgreesWithServer(t *testing.T) {
	r := suggestRepo(t)
	out, _, _ := runCLI(t, "suggest", "--dir", r.Dir, "--json")
	var sug suggestJSON
	must(t, json.Unmarshal([]byte(out), &sug))
	if len(sug.Mentions) < 4 {
		t.Fatalf("too few mentions to compare: %s", out)
	}
	root, err := filepath.EvalSymlinks(r.Dir)
	must(t, err)
	c := lsptest.Pipe(t, func(ctx context.Context, rwc io.ReadWriteCloser) error {
		return lsp.Serve(ctx, rwc, lsp.NewWorkspaceBackend(disk.Loader), slog.New(slog.NewTextHandler(io.Discard, nil)),
			lsp.WithDiagnosticsDelay(time.Millisecond))
	}, lsptest.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err = c.Initialize(ctx, root)
	must(t, err)
	_, err = c.AwaitDiagnosed(ctx, 1)
	must(t, err)
	opened := map[string]bool{}
	for _, m := range sug.Mentions {
		p := filepath.Join(root, filepath.FromSlash(m.Doc))
		if !opened[p] {
			must(t, c.Open(ctx, p, "markdown", r.Read(m.Doc)))
			opened[p] = true
		}
		// Every doc here is ASCII after its BOM, which UTF-16 counts as one unit.
		col := m.Column
		if m.Line == 1 && strings.HasPrefix(r.Read(m.Doc), "\ufeff") {
			col -= 2
		}
		pos := protocol.Position{Line: uint32(m.Line - 1), Character: uint32(col)}
		var as []protocol.CodeAction
		must(t, c.Call(ctx, protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(p)},
			Range:        protocol.Range{Start: pos, End: pos},
			Context:      protocol.CodeActionContext{Only: []protocol.CodeActionKind{"refactor"}},
		}, &as))
		if len(as) != len(m.Targets) {
			t.Errorf("%s:%d %s: server offers %d actions, suggest lists %d targets", m.Doc, m.Line, m.Mention, len(as), len(m.Targets))
			continue
		}
		for i, tg := range m.Targets {
			if want := "Anchor this passage to " + tg.Kind + " " + tg.QualifiedName + " (" + tg.Path + ")"; as[i].Title != want {
				t.Errorf("%s:%d: action %q, want %q", m.Doc, m.Line, as[i].Title, want)
			}
			var te *protocol.TextEdit
			for _, dc := range as[i].Edit.DocumentChanges {
				if tde, ok := dc.(*protocol.TextDocumentEdit); ok && len(tde.Edits) == 1 {
					te, _ = tde.Edits[0].(*protocol.TextEdit)
				}
			}
			if te == nil {
				for _, es := range as[i].Edit.Changes {
					if len(es) == 1 {
						te = &es[0]
					}
				}
			}
			if te == nil || !strings.Contains(te.NewText, tg.Anchor) || !insertsAt(te, m.InsertLine) {
				t.Errorf("%s:%d: edit %+v, want %q inserted as line %d", m.Doc, m.Line, te, tg.Anchor, m.InsertLine)
			}
		}
	}
}

// insertsAt: the edit inserts whole lines so that the new one is 1-based
// line n (or appends it after the last line, which has no break).
func insertsAt(te *protocol.TextEdit, n int) bool {
	if te.Range.Start != te.Range.End {
		return false
	}
	if strings.HasPrefix(te.NewText, "\n") || strings.HasPrefix(te.NewText, "\r\n") {
		return int(te.Range.Start.Line)+2 == n
	}
	return int(te.Range.Start.Line)+1 == n && te.Range.Start.Character == 0
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
