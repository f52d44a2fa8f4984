package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// verify lists the folder only when an answer needs the list. With git's
// index replaced by garbage, any listing fails (the index cannot be
// decoded): a run whose docs are a literal path, whose anchors are fresh
// in their hinted files and that has no mention gives the report it gave
// with the index intact; a glob include, an anchor that needs the
// repository-wide pass or a mention to resolve lists, and the run fails
// as a failed load does (exit 2, the index's error), never a silent
// green.
func TestVerifyListsOnlyWhenNeeded(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{
		"calc/calc.go": calcGo,
		"ANCHORS.md":   "# Sum\n<!-- @code function Sum calc/calc.go -->\n",
		"other.md":     "# Other\nSee `Product`.\n",
		".clew.yml":    "docs:\n  include: [\"ANCHORS.md\"]\n",
	})
	r.Commit("init")
	if _, errOut, code := runCLI(t, "confirm", "--dir", r.Dir, "--all"); code != 0 {
		t.Fatalf("confirm: %d %s", code, errOut)
	}
	r.Commit("pin")
	report := func(want int) map[string]any {
		t.Helper()
		out, errOut, code := runCLI(t, "verify", r.Dir, "--check", "--json")
		if code != want {
			t.Fatalf("verify: exit %d, want %d\n%s%s", code, want, out, errOut)
		}
		var rep map[string]any
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("verify --json: %v\n%s", err, out)
		}
		delete(rep, "budget")
		return rep
	}
	before := report(0)
	if a := before["anchors"].([]any); len(a) != 1 || a[0].(map[string]any)["state"] != "fresh" {
		t.Fatalf("anchors = %v, want one fresh", a)
	}

	index := filepath.Join(r.Dir, ".git", "index")
	good, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(index, make([]byte, len(good)), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := report(0); !reflect.DeepEqual(got, before) {
		t.Errorf("narrowed run with an unreadable index:\n got %v\nwant %v", got, before)
	}
	fails := func(what string) {
		t.Helper()
		out, errOut, code := runCLI(t, "verify", r.Dir, "--check", "--json")
		if code != 2 || out != "" || !strings.HasPrefix(errOut, "clew-lsp verify: ") {
			t.Errorf("%s with an unreadable index: exit %d, stdout %q, stderr %q; want exit 2 and the error", what, code, out, errOut)
		}
		_, loadErr, _ := runCLI(t, "anchor", "--dir", r.Dir, "--json", "calc/calc.go:4")
		if !strings.Contains(loadErr, strings.TrimPrefix(strings.TrimSpace(errOut), "clew-lsp verify: ")) {
			t.Errorf("%s: verify said %q, a load says %q", what, errOut, loadErr)
		}
	}
	r.Write(map[string]string{".clew.yml": "docs:\n  include: [\"*.md\"]\n"})
	fails("a glob include")
	r.Write(map[string]string{".clew.yml": "docs:\n  include: [\"ANCHORS.md\", \"other.md\"]\n"})
	fails("a mention")
	r.Write(map[string]string{
		".clew.yml":    "docs:\n  include: [\"ANCHORS.md\"]\n",
		"calc/calc.go": strings.Replace(calcGo, "func Sum(", "func Total(", 1),
	})
	fails("an anchor lost in its hinted file")

	if err := os.WriteFile(index, good, 0o644); err != nil {
		t.Fatal(err)
	}
	r.Write(map[string]string{"calc/calc.go": calcGo})
	if got := report(0); !reflect.DeepEqual(got, before) {
		t.Errorf("index restored:\n got %v\nwant %v", got, before)
	}
}
