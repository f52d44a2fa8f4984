package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

func contextRepo(t *testing.T) *wstest.Repo {
	t.Helper()
	r := wstest.New(t)
	r.Write(map[string]string{
		"go.mod":            "module example.com/calc\n",
		"calc/calc.go":      calcGo,
		"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestSum(t *testing.T) {\n\tif Sum([]int{1, 2}) != 3 {\n\t\tt.Fatal(\"sum\")\n\t}\n}\n",
		"docs/a.md":         "# Sum\n\nSum adds the numbers.\n<!-- @code function Sum calc/calc.go -->\n",
		"AGENTS.md":         "# Agents\n\nKeep it small.\n",
	})
	r.Commit("init")
	return r
}

func TestContextCommand(t *testing.T) {
	r := contextRepo(t)
	sum := devcontext.SymbolURI("example.com/calc/calc", "Sum")

	out, errOut, code := runCLI(t, "context", "--dir", r.Dir, "calc/calc.go:6")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var c devcontext.CompiledContext
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if c.Seeds[0].URI != sum || c.Budget.LimitTokens != devcontext.DefaultBudgetTokens {
		t.Fatalf("seeds %+v budget %+v", c.Seeds, c.Budget)
	}
	// --json is the default; the same answer twice is the same bytes.
	if again, _, _ := runCLI(t, "context", "--json", "calc/calc.go:6:2", "--dir", r.Dir); again != out {
		t.Fatal("--json (and a column inside the same line) changed the answer")
	}
	// An absolute path inside the workspace works as well.
	if abs, _, code := runCLI(t, "context", "--dir", r.Dir, filepath.Join(r.Dir, "calc", "calc.go")+":6"); code != 0 || abs != out {
		t.Fatalf("absolute path: exit %d", code)
	}

	md, _, code := runCLI(t, "context", "--dir", r.Dir, "--markdown", "calc/calc.go:6")
	if code != 0 || !strings.HasPrefix(md, "# Context for `"+sum+"`") || !strings.Contains(md, "func Sum(xs []int) int {") ||
		!strings.Contains(md, "## Budget") {
		t.Fatalf("markdown (exit %d):\n%s", code, md)
	}

	// 10: the required entries alone exceed the budget; the answer is printed.
	out, _, code = runCLI(t, "context", "--dir", r.Dir, "--budget", "1", "calc/calc.go:6")
	if code != devcontext.ExitOverBudget || !strings.Contains(out, `"over_budget": true`) {
		t.Fatalf("over budget: exit %d\n%s", code, out)
	}
	// 12: nothing indexed there.
	if _, errOut, code := runCLI(t, "context", "--dir", r.Dir, "nope/missing.go:3"); code != devcontext.ExitUnknownTarget || !strings.Contains(errOut, "unknown target") {
		t.Fatalf("unknown target: exit %d %q", code, errOut)
	}
	// 2: usage.
	for _, args := range [][]string{
		{"context", "--dir", r.Dir},
		{"context", "--dir", r.Dir, "calc/calc.go"},
		{"context", "--dir", r.Dir, "calc/calc.go:0"},
		{"context", "--dir", r.Dir, "calc/calc.go:x"},
		{"context", "--dir", r.Dir, "--budget", "0", "calc/calc.go:6"},
		{"context", "--dir", r.Dir, "--floor", "1.5", "calc/calc.go:6"},
		{"context", "--dir", r.Dir, "--depth", "-1", "calc/calc.go:6"},
		{"context", "--dir", r.Dir, "--json", "--markdown", "calc/calc.go:6"},
		{"context", "--dir", r.Dir, "--nope", "calc/calc.go:6"},
		{"context", "--dir", filepath.Join(r.Dir, "missing"), "calc/calc.go:6"},
		{"context", "--dir", r.Dir, "calc/calc.go:6", "calc/calc.go:7"},
	} {
		if _, _, code := runCLI(t, args...); code != devcontext.ExitInvalid {
			t.Errorf("%v: exit %d, want 2", args[1:], code)
		}
	}
}

func TestExplainAndPolicyCommands(t *testing.T) {
	r := contextRepo(t)
	sum := devcontext.SymbolURI("example.com/calc/calc", "Sum")
	out, errOut, code := runCLI(t, "explain", sum, "--at", "calc/calc.go:6", "--dir", r.Dir)
	var ex devcontext.Explanation
	if code != 0 || json.Unmarshal([]byte(out), &ex) != nil || ex.Standing != devcontext.StandingSelected {
		t.Fatalf("explain: exit %d %q\n%s", code, errOut, out)
	}
	out, _, code = runCLI(t, "explain", "clew://symbol/example.com/calc/calc.Nope", "--at", "calc/calc.go:6", "--dir", r.Dir)
	if code != 0 || json.Unmarshal([]byte(out), &ex) != nil || ex.Standing != devcontext.StandingUnknown {
		t.Fatalf("explain unknown: exit %d\n%s", code, out)
	}
	if _, _, code := runCLI(t, "explain", sum, "--at", "nope.go:1", "--dir", r.Dir); code != devcontext.ExitUnknownTarget {
		t.Errorf("explain at an unknown file: exit %d", code)
	}
	if _, _, code := runCLI(t, "explain", "--at", "calc/calc.go:6", "--dir", r.Dir); code != devcontext.ExitInvalid {
		t.Errorf("explain without a uri: exit %d", code)
	}

	out, _, code = runCLI(t, "policy")
	var p devcontext.CompilerPolicy
	if code != 0 || json.Unmarshal([]byte(out), &p) != nil || len(p.Tiers) != 7 || len(p.Selectors) != 8 {
		t.Fatalf("policy: exit %d\n%s", code, out)
	}
	if _, _, code := runCLI(t, "policy", "extra"); code != devcontext.ExitInvalid {
		t.Errorf("policy with an argument: exit %d", code)
	}
	for _, c := range []string{"context", "explain", "policy"} {
		out, errOut, code := runCLI(t, c, "--help")
		if code != 0 || !strings.Contains(out+errOut, "usage: clew-lsp "+c) {
			t.Errorf("%s --help: exit %d %q", c, code, out+errOut)
		}
	}
}

func TestParseAt(t *testing.T) {
	root := t.TempDir()
	for _, c := range []struct {
		in        string
		path      string
		line, col int
		ok        bool
	}{
		{"a/b.go:3", "a/b.go", 3, 0, true},
		{"a/b.go:3:7", "a/b.go", 3, 7, true},
		{"a/b.go:3:0", "a/b.go", 3, 0, true},
		{"odd:name.go:3", "odd:name.go", 3, 0, true},
		{"a/b.go", "", 0, 0, false},
		{"a/b.go:0", "", 0, 0, false},
		{":3", "", 0, 0, false},
		{"a/b.go:3:-1", "", 0, 0, false},
	} {
		p, err := parseAt(root, c.in)
		if (err == nil) != c.ok || (c.ok && (p.Path != c.path || p.Line != c.line || p.Column != c.col)) {
			t.Errorf("%q: %+v %v", c.in, p, err)
		}
	}
}
