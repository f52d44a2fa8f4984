package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), code
}

const calcGo = `package calc

// Sum adds.
func Sum(xs []int) int {
	total := 0
	for _, x := range xs {
		total += x
	}
	return total
}

func Product(xs []int) int {
	p := 1
	for _, x := range xs {
		p *= x
	}
	return p
}
`

func TestHelpAndUsage(t *testing.T) {
	for _, c := range []string{"verify", "confirm", "version"} {
		out, errOut, code := runCLI(t, c, "--help")
		if code != 0 || !strings.Contains(out+errOut, "usage: clew-lsp "+c) {
			t.Errorf("%s --help: code %d, output %q", c, code, out+errOut)
		}
	}
	if _, _, code := runCLI(t, "verify", "--nope"); code != 2 {
		t.Errorf("unknown flag: exit %d, want 2", code)
	}
	if _, errOut, code := runCLI(t, "frobnicate"); code != 2 || !strings.Contains(errOut, "unknown command") {
		t.Errorf("unknown command: exit %d %q", code, errOut)
	}
	if _, _, code := runCLI(t, "verify", filepath.Join(t.TempDir(), "missing")); code != 2 {
		t.Errorf("missing workspace: exit %d, want 2", code)
	}
	if out, _, code := runCLI(t, "version"); code != 0 || !strings.HasPrefix(out, "clew-lsp ") {
		t.Errorf("version: %d %q", code, out)
	}
}

// TestPinConfirmStaleCycle walks the whole life of an anchor through the
// command line: unpinned → pinned (fresh) → code edited (stale, exit 1) →
// confirmed (fresh, exit 0).
func TestPinConfirmStaleCycle(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{"calc/calc.go": calcGo, "docs/a.md": "# Sum\n<!-- @code function Sum calc/calc.go -->\n"})
	r.Commit("init")

	out, _, code := runCLI(t, "verify", r.Dir, "--check")
	if code != 0 || !strings.Contains(out, "unpinned") {
		t.Fatalf("unpinned anchor: exit %d\n%s", code, out)
	}
	if _, _, code := runCLI(t, "verify", r.Dir, "--check", "--strict"); code != 1 {
		t.Errorf("--strict: unpinned must gate, exit %d", code)
	}
	if out, errOut, code := runCLI(t, "confirm", "--dir", r.Dir, "docs/a.md:2"); code != 0 || !strings.Contains(out, "pinned docs/a.md:2") {
		t.Fatalf("confirm: exit %d %q %q", code, out, errOut)
	}
	if !strings.Contains(r.Read("docs/a.md"), " sha=") {
		t.Fatal("confirm wrote no hash")
	}
	if out, _, code := runCLI(t, "verify", r.Dir, "--check"); code != 0 || !strings.Contains(out, "fresh") {
		t.Fatalf("after pin: exit %d\n%s", code, out)
	}
	r.Write(map[string]string{"calc/calc.go": strings.Replace(calcGo, "total += x", "total -= x", 1)})
	out, _, code = runCLI(t, "verify", r.Dir, "--check", "--json")
	if code != 1 {
		t.Fatalf("stale: exit %d, want 1", code)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"complete", "unchecked_anchor_ids", "budget", "anchors", "fallback_share", "claims", "coverage", "diagnostics", "exit"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("verify --json lacks %q", k)
		}
	}
	a := rep["anchors"].([]any)[0].(map[string]any)
	if a["state"] != "stale" || a["detail"].(map[string]any)["reason"] != "body_changed" {
		t.Errorf("anchor = %v", a)
	}
	// Only confirm clears the flag: verify without --check does not.
	runCLI(t, "verify", r.Dir)
	if _, _, code := runCLI(t, "verify", r.Dir, "--check"); code != 1 {
		t.Error("verify must never clear a stale flag by itself")
	}
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	os.Chdir(r.Dir)
	if _, errOut, code := runCLI(t, "confirm", "docs/a.md"); code != 0 {
		t.Fatalf("confirm from inside the workspace: %d %s", code, errOut)
	}
	if _, _, code := runCLI(t, "verify", r.Dir, "--check"); code != 0 {
		t.Error("confirmed anchor should be fresh")
	}
}

// TestConfirmRefusesTypos: an anchor whose target does not resolve is
// refused, naming the declarations of that name that do exist.
func TestConfirmRefusesTypos(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{
		"calc/calc.go":  calcGo,
		"other/more.go": "package other\n\nfunc Sum(a, b int) int {\n\treturn a + b + 0 + 0\n}\n",
		"docs/a.md":     "<!-- @code method Sum calc/calc.go -->\n<!-- @code function Sum calc/calc.go -->\n",
	})
	r.Commit("init")
	before := r.Read("docs/a.md")
	_, errOut, code := runCLI(t, "confirm", "--dir", r.Dir, "docs/a.md:1")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	for _, want := range []string{"does not resolve", "function Sum (calc/calc.go:4)", "function Sum (other/more.go:3)"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("refusal %q lacks %q", errOut, want)
		}
	}
	if r.Read("docs/a.md") != before {
		t.Error("a refused confirm must not write")
	}
	if _, errOut, code := runCLI(t, "confirm", "--dir", r.Dir, "docs/a.md:7"); code != 1 || !strings.Contains(errOut, "no anchor at docs/a.md:7") {
		t.Errorf("unknown line: %d %q", code, errOut)
	}
	if _, _, code := runCLI(t, "confirm", "--dir", r.Dir); code != 2 {
		t.Errorf("confirm without targets: exit %d, want 2", code)
	}
}

// TestVerifyRebindsInPlace: without --check a renamed anchor is rewritten,
// only its name token changes, CRLF and the BOM survive, and the anchor is
// then fresh.
func TestVerifyRebindsInPlace(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{"calc/calc.go": calcGo,
		"docs/a.md": "\ufeff# Sum\r\nText about Sum.\r\n<!-- @code function Sum calc/calc.go -->\r\n"})
	r.Commit("init")
	if _, _, code := runCLI(t, "confirm", "--dir", r.Dir, "--all"); code != 0 {
		t.Fatal("pin failed")
	}
	pinned := r.Read("docs/a.md")
	r.Write(map[string]string{"calc/calc.go": strings.Replace(calcGo, "func Sum(", "func Total(", 1)})
	out, _, code := runCLI(t, "verify", r.Dir, "--check")
	if code != 0 || !strings.Contains(out, "renamed to Total") {
		t.Fatalf("renamed is healable, not gating: exit %d\n%s", code, out)
	}
	if r.Read("docs/a.md") != pinned {
		t.Fatal("--check wrote")
	}
	out, _, _ = runCLI(t, "verify", r.Dir)
	if !strings.Contains(out, "rebound in place") {
		t.Errorf("report should say it rebound:\n%s", out)
	}
	if got, want := r.Read("docs/a.md"), strings.Replace(pinned, "function Sum ", "function Total ", 1); got != want {
		t.Errorf("rebind wrote\n%q\nwant\n%q", got, want)
	}
	if out, _, _ := runCLI(t, "verify", r.Dir, "--check"); !strings.Contains(out, "fresh") {
		t.Errorf("after rebind the anchor is fresh:\n%s", out)
	}
	// No temporary files are left behind.
	ents, _ := os.ReadDir(filepath.Join(r.Dir, "docs"))
	if len(ents) != 1 {
		t.Errorf("docs/ holds %d entries, want 1", len(ents))
	}
}

// TestBadInput: every kind of broken input gives a clear message and the
// rest of the report is still produced.
func TestBadInput(t *testing.T) {
	r := wstest.New(t)
	big := strings.Repeat("// filler line to make the file large\n", 30000)
	r.Write(map[string]string{
		"calc/calc.go":   calcGo,
		"calc/broken.go": "package calc\n\nfunc Good() int {\n\treturn 1 + 2 + 3 + 4\n}\n\nfunc Broken( {\n",
		"big/big.go":     "package big\n" + big + "func Big() {}\n",
		"bin/data.go":    "package bin\x00\x01\x02",
		"docs/a.md": strings.Join([]string{
			"<!-- @code function Sum ../outside.go -->",
			"<!-- @code function Sum calc/calc.go -->",
			"<!-- @code function Good calc/broken.go -->",
			"<!-- @code function Big big/big.go -->",
			"<!-- @code function Data bin/data.go -->",
			"<!-- @code function Sum calc/calc.go sha=zzz -->",
			"<!-- @code function Sum \xff\xfe calc/calc.go -->",
		}, "\n") + "\n",
		"docs/bad-utf8.md": "\xff\xfe\xfd <!-- @code function Product calc/calc.go -->\n",
		".clew.yml":        "budget: {max_files: 10}\n",
	})
	r.Commit("init")
	out, errOut, code := runCLI(t, "verify", r.Dir, "--check", "--json")
	if code != 1 {
		t.Fatalf("exit %d (stderr %q)", code, errOut)
	}
	var rep struct {
		Anchors []struct {
			ID     string
			State  string
			Detail struct{ Reason string }
		}
		Diagnostics []struct {
			Line    int
			Code    string
			Message string
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, a := range rep.Anchors {
		got[a.ID] = a.State + "/" + a.Detail.Reason
	}
	want := map[string]string{
		"docs/a.md:2":        "unpinned/identity_matched",
		"docs/a.md:3":        "unpinned/identity_matched", // what parses still resolves
		"docs/a.md:4":        "unchecked/file_too_large",
		"docs/a.md:5":        "unchecked/binary",
		"docs/bad-utf8.md:1": "unpinned/identity_matched",
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s = %q, want %q", id, got[id], w)
		}
	}
	diags := map[int]string{}
	for _, d := range rep.Diagnostics {
		diags[d.Line] = d.Message
	}
	for line, w := range map[int]string{1: "escapes the workspace", 6: "12 lowercase hex", 7: "invalid UTF-8"} {
		if !strings.Contains(diags[line], w) {
			t.Errorf("line %d diagnostic %q lacks %q", line, diags[line], w)
		}
	}

	// A broken config is exit 2 with a diagnostic; the report still comes.
	r.Write(map[string]string{".clew.yml": "budget: {max_filez: 3}\n"})
	out, _, code = runCLI(t, "verify", r.Dir, "--check")
	if code != 2 || !strings.Contains(out, "config/invalid") || !strings.Contains(out, "max_filez") || !strings.Contains(out, "docs/a.md") {
		t.Errorf("broken config: exit %d\n%s", code, out)
	}
}
