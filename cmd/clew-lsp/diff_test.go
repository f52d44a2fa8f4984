package main

import (
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// TestDiffShowsTheReviewedVersion: a stale anchor's diff runs from the
// newest commit where the code hashes as pinned to now; after a reformat
// commit in between (same hash) the reviewed version is the reformatted
// one. An unpinned anchor, and a pin whose version is in no commit, say so
// and exit 1.
func TestDiffShowsTheReviewedVersion(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{"calc/calc.go": calcGo, "docs/a.md": "# Sum\n<!-- @code function Sum calc/calc.go -->\n<!-- @code function Product calc/calc.go -->\n"})
	r.Commit("init")
	if _, errOut, code := runCLI(t, "confirm", "--dir", r.Dir, "docs/a.md:2"); code != 0 {
		t.Fatal(errOut)
	}
	r.Commit("pin Sum")
	r.Write(map[string]string{"calc/calc.go": strings.Replace(calcGo, "total += x", "total -= x", 1)})
	r.Commit("Sum subtracts")

	out, errOut, code := runCLI(t, "diff", "--dir", r.Dir, "docs/a.md:2")
	if code != 0 {
		t.Fatalf("diff: exit %d %s", code, errOut)
	}
	for _, want := range []string{"--- a/calc/calc.go (reviewed, ", "+++ b/calc/calc.go (now)", "-\t\ttotal += x\n+\t\ttotal -= x\n", " func Sum(xs []int) int {\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("diff lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Product") {
		t.Errorf("the diff is of the declaration only:\n%s", out)
	}
	if _, errOut, code := runCLI(t, "diff", "--dir", r.Dir, "docs/a.md:3"); code != 1 || !strings.Contains(errOut, "no reviewed version") {
		t.Errorf("unpinned: %d %q", code, errOut)
	}
	// A pin no commit holds: the history does not hold the reviewed version.
	doc := r.Read("docs/a.md")
	i := strings.Index(doc, "sha=v2:") + len("sha=v2:")
	r.Write(map[string]string{"docs/a.md": doc[:i] + "0123456789ab" + doc[i+12:]})
	if _, errOut, code := runCLI(t, "diff", "--dir", r.Dir, "docs/a.md:2"); code != 1 || !strings.Contains(errOut, "the history does not hold it") {
		t.Errorf("unknown version: %d %q", code, errOut)
	}
	if _, _, code := runCLI(t, "diff", "--dir", r.Dir, "docs/a.md"); code != 2 {
		t.Errorf("no line: exit %d, want 2", code)
	}
}
