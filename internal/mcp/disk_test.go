package mcp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

const calcGo = "package calc\n\n// Sum adds the numbers.\nfunc Sum(xs []int) int {\n\tt := 0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n}\n"

// calcRepo is a real go-git repository: a Go package, its test, and a doc
// whose anchor is pinned on Sum.
func calcRepo(t *testing.T) *wstest.Repo {
	t.Helper()
	r := wstest.New(t)
	r.Write(map[string]string{
		"go.mod":            "module example.com/calc\n",
		"calc/calc.go":      calcGo,
		"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestSum(t *testing.T) {\n\tif Sum([]int{1, 2}) != 3 {\n\t\tt.Fatal(\"sum\")\n\t}\n}\n",
		"docs/calc.md":      "# Sum\n\nSum adds the numbers from left to right.\n<!-- @code function Sum calc/calc.go -->\n",
		"AGENTS.md":         "# Agents\n\nKeep it small.\n",
	})
	r.Commit("init")
	if refusals := r.ConfirmAll(); len(refusals) > 0 {
		t.Fatalf("pinning: %v", refusals)
	}
	r.Commit("pin")
	return r
}

// A file changed on disk between two calls: the second answer is about
// the new tree and equals the CLI's on it.
func TestFileChangedBetweenCalls(t *testing.T) {
	r := calcRepo(t)
	cs := session(t, r.Dir)
	_, js := ok(t, cs, "verify", nil)
	var v verifyOut
	json.Unmarshal(js, &v)
	if v.Anchors["fresh"] != 1 || v.Exit != 0 {
		t.Fatalf("before: %s", js)
	}
	_, before := ok(t, cs, "context", map[string]any{"file": "calc/calc.go", "line": 4})

	r.Write(map[string]string{"calc/calc.go": strings.Replace(calcGo, "t += x", "t += 2 * x", 1)})

	_, js = ok(t, cs, "verify", nil)
	v = verifyOut{}
	json.Unmarshal(js, &v)
	if v.Anchors["stale"] != 1 || v.Exit != 1 || len(v.Findings) != 1 || v.Findings[0].State != "stale" {
		t.Fatalf("after the edit: %s", js)
	}
	want := verifyCLI(t, r.Dir)
	if want.Exit != v.Exit || want.Anchors[0].State != "stale" {
		t.Fatalf("cli after the edit: %+v", want)
	}
	_, after := ok(t, cs, "context", map[string]any{"file": "calc/calc.go", "line": 4})
	cliJSON, _ := cli(t, "context", "--dir", r.Dir, "calc/calc.go:4")
	sameJSON(t, "context after the edit", after, []byte(cliJSON))
	if string(after) == string(before) || !strings.Contains(string(after), `"reason":"stale"`) {
		t.Fatalf("context did not follow the edit:\n%s", after)
	}

	// A new doc appears in the resource list and in verify.
	r.Write(map[string]string{"docs/more.md": "# More\n\n<!-- @code function Sum calc/calc.go -->\n"})
	_, js = ok(t, cs, "verify", map[string]any{"doc": "docs/more.md"})
	v = verifyOut{}
	json.Unmarshal(js, &v)
	if v.Total != 1 || v.Findings[0].State != "unpinned" {
		t.Fatalf("new doc: %s", js)
	}
	// A commit moves HEAD: context's git section follows.
	head := r.Commit("edit")
	_, js = ok(t, cs, "context", map[string]any{"file": "calc/calc.go", "line": 4})
	if !strings.Contains(string(js), head) {
		t.Fatalf("context after a commit does not name HEAD %s:\n%.600s", head, js)
	}
	cliJSON, _ = cli(t, "context", "--dir", r.Dir, "calc/calc.go:4")
	sameJSON(t, "context after a commit", js, []byte(cliJSON))
}

// A .gitignore change reopens the folder: an ignored doc drops out, as a
// fresh CLI run would drop it.
func TestIgnoreRulesChange(t *testing.T) {
	r := calcRepo(t)
	r.Write(map[string]string{"notes/scratch.md": "# Scratch\n\n<!-- @code function Sum calc/calc.go -->\n"})
	cs := session(t, r.Dir)
	_, js := ok(t, cs, "verify", map[string]any{"doc": "notes"})
	var v verifyOut
	json.Unmarshal(js, &v)
	if v.Total != 1 {
		t.Fatalf("before ignoring: %s", js)
	}
	r.Write(map[string]string{".gitignore": "notes/\n"})
	_, js = ok(t, cs, "verify", map[string]any{"doc": "notes"})
	v = verifyOut{}
	json.Unmarshal(js, &v)
	if v.Total != 0 {
		t.Fatalf("after ignoring notes/: %s", js)
	}
	cliOut, _ := cli(t, "verify", "--check", "--json", r.Dir)
	if strings.Contains(cliOut, "notes/scratch.md") {
		t.Fatal("the CLI still lists the ignored doc")
	}
}

// A directory that is not a git repository works, and answers as the CLI.
func TestNotAGitRepository(t *testing.T) {
	dir := t.TempDir()
	for p, c := range map[string]string{
		"go.mod":       "module example.com/calc\n",
		"calc/calc.go": calcGo,
		"docs/calc.md": "# Sum\n\nSum adds the numbers.\n<!-- @code function Sum calc/calc.go -->\n",
	} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs := session(t, dir)
	_, js := ok(t, cs, "context", map[string]any{"file": "calc/calc.go", "line": 5})
	cliJSON, code := cli(t, "context", "--dir", dir, "calc/calc.go:5")
	if code != 0 {
		t.Fatalf("cli exit %d", code)
	}
	sameJSON(t, "context outside git", js, []byte(cliJSON))
	_, js = ok(t, cs, "verify", nil)
	var v verifyOut
	json.Unmarshal(js, &v)
	if v.Anchors["unpinned"] != 1 {
		t.Fatalf("verify outside git: %s", js)
	}
	txt, _ := ok(t, cs, "doc_passages", map[string]any{"file": "calc/calc.go", "line": 6})
	if !strings.Contains(txt, "docs/calc.md:1-4 · unpinned") {
		t.Fatalf("doc_passages outside git:\n%s", txt)
	}
}

func TestAnchorFor(t *testing.T) {
	r := tour(t)
	cs := session(t, r.Dir)
	line := lineOf(t, filepath.Join(r.Dir, "resolver", "resolve.go"), "func (c *Cache) Lookup")
	txt, js := ok(t, cs, "anchor_for", map[string]any{"file": "resolver/resolve.go", "line": line})
	cliJSON, code := cli(t, "anchor", "--json", "--dir", r.Dir, "resolver/resolve.go:"+itoa(line))
	if code != 0 {
		t.Fatalf("cli anchor exit %d", code)
	}
	sameJSON(t, "anchor_for", js, []byte(cliJSON))
	if !strings.HasPrefix(txt, "<!-- @code method Cache.Lookup resolver/resolve.go sha=") {
		t.Fatalf("anchor_for text:\n%s", txt)
	}
	_, js = ok(t, cs, "anchor_for", map[string]any{"file": "resolver/resolve.go", "line": line, "unpinned": true})
	cliJSON, _ = cli(t, "anchor", "--json", "--unpinned", "--dir", r.Dir, "resolver/resolve.go:"+itoa(line))
	sameJSON(t, "anchor_for unpinned", js, []byte(cliJSON))
	if msg := refused(t, cs, "anchor_for", map[string]any{"file": "resolver/resolve.go", "line": 3}); !strings.Contains(msg, "not inside a declaration") ||
		!strings.Contains(msg, "nearest") {
		t.Fatalf("line 3: %s", msg)
	}
}

// Bad arguments are tool errors (not protocol errors) that say what to
// pass; paths outside the workspace are refused before anything is read.
func TestRefusals(t *testing.T) {
	r := tour(t)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.go"), []byte("package secret\n\nfunc Secret() {}\n"), 0o644)
	r.Symlink(filepath.Join(outside, "secret.go"), "resolver/link.go")
	cs := session(t, r.Dir)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"context", map[string]any{"file": "../outside.go", "line": 1}, "outside the workspace"},
		{"context", map[string]any{"file": filepath.Join(outside, "secret.go"), "line": 3}, "outside the workspace"},
		{"context", map[string]any{"file": "resolver/link.go", "line": 3}, "symlink"},
		{"doc_passages", map[string]any{"file": "/etc/passwd", "line": 1}, "outside the workspace"},
		{"anchor_for", map[string]any{"file": "resolver/../../x.go", "line": 1}, "outside the workspace"},
		{"verify", map[string]any{"doc": "../"}, "outside the workspace"},
		{"context", map[string]any{"file": "resolver/resolve.go", "line": 0}, "1-based"},
		{"context", map[string]any{"file": "resolver/resolve.go"}, "line"},
		{"context", map[string]any{"file": "resolver/resolve.go", "line": "seven"}, "line"},
		{"context", map[string]any{"file": "resolver/resolve.go", "line": 21, "budget": -5}, "budget"},
		{"context", map[string]any{"file": "resolver/resolve.go", "line": 21, "floor": 2}, "floor"},
		{"context", map[string]any{"file": "resolver/resolve.go", "line": 21, "depth": -1}, "depth"},
		{"context", map[string]any{"file": "resolver/resolve.go", "line": 21, "nope": 1}, "nope"},
		{"context", map[string]any{"file": "nope/missing.go", "line": 3}, "unknown target"},
		{"explain", map[string]any{"uri": " ", "file": "resolver/resolve.go", "line": 21}, "clew://"},
		{"doc_passages", map[string]any{}, "pass file and line"},
		{"doc_passages", map[string]any{"file": "resolver/resolve.go"}, "without line"},
		{"doc_passages", map[string]any{"file": "nope.go", "line": 2}, "not a readable file"},
		{"verify", map[string]any{"max_findings": 9999}, "max_findings"},
		{"anchor_for", map[string]any{"file": "README.md", "line": 1}, "line range"},
	} {
		if msg := refused(t, cs, c.tool, c.args); !strings.Contains(msg, c.want) {
			t.Errorf("%s %v: message %q does not say %q", c.tool, c.args, msg, c.want)
		}
	}
	// The session survives every refusal.
	if _, js := ok(t, cs, "verify", nil); !strings.Contains(string(js), `"exit":1`) {
		t.Fatalf("verify after refusals: %s", js)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// A brain's claims: counts and failing legs as `verify --check --json`
// reports them, and a fix on disk clears them.
func TestVerifyClaims(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{
		".multivac/config.yml": "repos: {}\n",
		".multivac/invariants.md": "# law\n\n| ID | statement | authority | state | date | source |\n| --- | --- | --- | --- | --- | --- |\n" +
			"| INV-01 | no panics | published | active | 2026-01-01 | x |\n<!-- @anchor INV-01 brain:src/*.go /panic\\(/ absent -->\n" +
			"| INV-02 | has a main | published | active | 2026-01-01 | x |\n<!-- @anchor INV-02 brain:src/*.go /func main/ -->\n",
		"src/a.go": "package main\n\nfunc main() { panic(\"x\") }\n",
	})
	r.Commit("brain")
	cs := session(t, r.Dir)
	_, js := ok(t, cs, "verify", nil)
	var v verifyOut
	json.Unmarshal(js, &v)
	want := verifyCLI(t, r.Dir)
	counts := map[string]int{}
	for _, c := range want.Claims {
		counts[c.State]++
	}
	if v.Exit != want.Exit || v.Exit != 1 || fmt.Sprint(v.Claims) != fmt.Sprint(counts) || len(v.Findings) != 1 {
		t.Fatalf("claims: %s; cli exit %d claims %v", js, want.Exit, counts)
	}
	f := v.Findings[0]
	if f.What != "claim_leg" || f.Doc != ".multivac/invariants.md" || f.Line != 6 || f.State != "broken" || !f.Gating ||
		!strings.Contains(f.Target, "INV-01") || !strings.Contains(f.Todo, "src/a.go:3") {
		t.Fatalf("leg finding %+v", f)
	}
	r.Write(map[string]string{"src/a.go": "package main\n\nfunc main() {}\n"})
	_, js = ok(t, cs, "verify", nil)
	v = verifyOut{}
	json.Unmarshal(js, &v)
	if v.Exit != 0 || v.Claims["ok"] != 2 || len(v.Findings) != 0 {
		t.Fatalf("after the fix: %s", js)
	}
}
