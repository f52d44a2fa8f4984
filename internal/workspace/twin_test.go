package workspace_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// TestTwinWithoutHistory replays the twin-preexisting fixture in a plain
// directory (no git): history cannot tell the twin from the moved code, so
// today's rule stands — the anchor moves to the twin — and the detail says
// that history could not rule the twin out.
func TestTwinWithoutHistory(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/ladder/twin-preexisting.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(files map[string]string) {
		for p, c := range files {
			full := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(wstest.Section(ar, "before/"))
	for name, c := range wstest.Section(ar, "docs/") {
		write(map[string]string{"docs/" + name: c})
	}
	files, _, err := disk.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	res := check(t, dir, workspace.CheckOptions{}).Confirm(nil, true)
	for _, de := range res.Edits {
		b, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(de.Doc)))
		if err := files.WriteFile(de.Doc, de.Apply(b)); err != nil {
			t.Fatal(err)
		}
	}
	write(wstest.Section(ar, "after/"))

	rep := check(t, dir, workspace.CheckOptions{})
	got := map[int]workspace.AnchorReport{}
	for _, a := range rep.Anchors {
		got[a.Line] = a
	}
	parse := got[2]
	if parse.State != anchors.StateMovedRenamed || parse.Detail.MovedTo != "examples/parse.go" || parse.Detail.Note != anchors.NoteNoHistory {
		t.Errorf("Parse without history: %s %+v", parse.State, parse.Detail)
	}
	if !strings.Contains(parse.Detail.Note, "twin is not ruled out") {
		t.Errorf("note %q", parse.Detail.Note)
	}
	if h := got[8]; h.State != anchors.StateMovedRenamed || h.Detail.MovedTo != "pkg/helper.go" {
		t.Errorf("Helper: %s %+v", h.State, h.Detail)
	}
}
