package workspace_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

var regenTour = flag.Bool("regen-tour", false, "re-pin examples/tour/docs from examples/tour.before.txtar")

const tourDir = "../../examples/tour"

// copyTour copies the example into a fresh repository.
func copyTour(t *testing.T, r *wstest.Repo) {
	t.Helper()
	r.CopyFrom(tourDir)
}

var shaRE = regexp.MustCompile(` sha=(v[0-9]+:)?[0-9a-f,]+`)

// TestTourRegenerate re-pins the tour's docs against the "before" versions
// of its code, the way a writer would have: the anchors are confirmed on
// the old code, then the code changes. Run with -regen-tour.
func TestTourRegenerate(t *testing.T) {
	if !*regenTour {
		t.Skip("run with -regen-tour to re-pin examples/tour")
	}
	ar, err := txtar.ParseFile("../../examples/tour.before.txtar")
	if err != nil {
		t.Fatal(err)
	}
	r := wstest.New(t)
	copyTour(t, r)
	absent, _ := wstest.File(ar, "absent-before")
	r.Remove(strings.Fields(absent)...)
	before := map[string]string{}
	for _, f := range ar.Files {
		if f.Name != "absent-before" {
			before[f.Name] = string(f.Data)
		}
	}
	r.Write(before)
	docs := []string{"docs/architecture.md", "docs/guide.md"}
	for _, d := range docs {
		r.Write(map[string]string{d: shaRE.ReplaceAllString(r.Read(d), "")})
	}
	r.Commit("before")
	rep := check(t, r.Dir, workspace.CheckOptions{})
	var targets []workspace.Target
	for _, a := range rep.Anchors {
		if !strings.Contains(a.Anchor.Passage.Heading, "unpinned") {
			targets = append(targets, workspace.Target{Doc: a.Doc, Line: a.Line})
		}
	}
	res := rep.Confirm(targets, false)
	if len(res.Refused) > 0 {
		t.Fatalf("refused: %+v", res.Refused)
	}
	for _, de := range res.Edits {
		path := filepath.Join(tourDir, filepath.FromSlash(de.Doc))
		orig, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// Apply the edits to the doc as pinned, then carry the new
		// anchors over to the committed doc line by line.
		pinned := strings.Split(string(de.Apply([]byte(r.Read(de.Doc)))), "\n")
		lines := strings.Split(shaRE.ReplaceAllString(string(orig), ""), "\n")
		for i := range lines {
			if i < len(pinned) && strings.Contains(lines[i], "@code") {
				lines[i] = pinned[i]
			}
		}
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var elapsedRE = regexp.MustCompile(`"elapsed_ms": [0-9]+`)

// TestTourGolden is the golden test of `verify --json` on examples/tour: the
// report shows every state, and its field names are docs/json.md's.
func TestTourGolden(t *testing.T) {
	r := wstest.New(t)
	copyTour(t, r)
	r.Commit("tour")
	snap, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	rep := check(t, snap.Root(), workspace.CheckOptions{Mentions: true})
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		t.Fatal(err)
	}
	got := elapsedRE.ReplaceAll(buf.Bytes(), []byte(`"elapsed_ms": 0`))
	golden := "testdata/tour.golden.json"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("verify --json on examples/tour differs from %s (run with -update after checking):\n%s", golden, got)
	}

	// Every state the tour promises is really there.
	seen := map[string]bool{}
	for _, a := range rep.Anchors {
		seen[string(a.State)+"/"+a.Detail.Reason] = true
	}
	for _, want := range []string{
		"fresh/identity_matched", "stale/body_changed", "moved-renamed/moved", "moved-renamed/renamed",
		"moved-renamed/moved_and_renamed", "lost/declaration_missing", "lost/ambiguous", "unpinned/identity_matched",
		"moved-renamed/range_moved", "stale/content_changed",
	} {
		if !seen[want] {
			t.Errorf("the tour does not show %s", want)
		}
	}
	// The contract anchors the tour explains, each in the state its
	// heading names (docs/contracts.md).
	contracts := map[string]string{
		"key logging":                       "fresh/identity_matched",
		"message User":                      "moved-renamed/moved",
		"table names":                       "stale/body_changed",
		"doc docs/reference.md#queries":     "moved-renamed/renamed",
		"lines config/service.yml#L1-L4":    "moved-renamed/range_moved",
		"doc docs/reference.md (whole doc)": "stale/content_changed",
	}
	for _, a := range rep.Anchors {
		name := a.Anchor.Kind + " " + a.Anchor.QualifiedName
		switch a.Anchor.Kind {
		case "doc":
			name = "doc " + a.Anchor.Path
			if a.Anchor.Section != "" {
				name += "#" + a.Anchor.Section
			} else {
				name += " (whole doc)"
			}
		case "lines":
			name = fmt.Sprintf("lines %s#L%d-L%d", a.Anchor.Path, a.Anchor.StartLine, a.Anchor.EndLine)
		}
		want, ok := contracts[name]
		if !ok {
			continue
		}
		delete(contracts, name)
		if got := string(a.State) + "/" + a.Detail.Reason; got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	for name := range contracts {
		t.Errorf("the tour has no %s anchor", name)
	}
	for _, a := range rep.Anchors {
		if a.Detail.Reason == "declaration_missing" && len(a.Detail.Suggestions) == 0 {
			t.Errorf("%s is lost without a suggestion", a.ID)
		}
	}
}
