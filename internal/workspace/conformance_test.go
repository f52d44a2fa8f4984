package workspace_test

// ClewWiki conformance details that the one-line-per-anchor want sections of
// the ladder fixtures cannot express: budget counters, an empty report, and
// confirm (rather than rebind) after a move. Each test replays a fixture of
// testdata/ladder, so the code under test sees exactly the same repository.

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// replay builds the fixture's repository exactly as runLadder does and
// returns it before the final check.
func replay(t *testing.T, name string) *wstest.Repo {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", "ladder", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	r, _ := buildLadderRepo(t, ar)
	return r
}

func applyEdits(t *testing.T, r *wstest.Repo, edits []workspace.DocEdit) {
	t.Helper()
	files, _, err := disk.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range edits {
		if err := files.WriteFile(de.Doc, de.Apply([]byte(r.Read(de.Doc)))); err != nil {
			t.Fatal(err)
		}
	}
}

// TestClewWikiD22NoAnchors: a workspace without anchors gives a complete,
// empty report with a zero budget and no limit.
func TestClewWikiD22NoAnchors(t *testing.T) {
	r := replay(t, "clewwiki-D22-no-anchors")
	rep := check(t, r.Dir, workspace.CheckOptions{})
	if !rep.Complete || len(rep.Anchors) != 0 || len(rep.UncheckedAnchorIDs) != 0 {
		t.Errorf("complete=%v anchors=%d unchecked=%v, want complete, none, none",
			rep.Complete, len(rep.Anchors), rep.UncheckedAnchorIDs)
	}
	if b := rep.Budget; b.FilesRead != 0 || b.BytesRead != 0 || b.Limit != nil {
		t.Errorf("budget files_read=%d bytes_read=%d limit=%v, want 0, 0, null", b.FilesRead, b.BytesRead, b.Limit)
	}
	if rep.Exit != 0 {
		t.Errorf("exit %d, want 0", rep.Exit)
	}
}

// TestClewWikiT43StarvedBudget: after the move, a check with max_files=0
// reads nothing, stops on the files limit and leaves every anchor
// unchecked; a normal check afterwards is complete and finds the move.
func TestClewWikiT43StarvedBudget(t *testing.T) {
	r := replay(t, "clewwiki-T43-swift-move-starved")
	b := workspace.DefaultBudget()
	b.MaxFiles = 0
	rep := check(t, r.Dir, workspace.CheckOptions{Budget: &b})
	if rep.Complete {
		t.Error("starved check reports complete")
	}
	if rep.Budget.Limit == nil || *rep.Budget.Limit != workspace.LimitFiles {
		t.Errorf("limit %v, want files", rep.Budget.Limit)
	}
	if rep.Budget.FilesRead != 0 {
		t.Errorf("files_read %d, want 0", rep.Budget.FilesRead)
	}
	if len(rep.UncheckedAnchorIDs) != len(rep.Anchors) || len(rep.Anchors) == 0 {
		t.Errorf("unchecked %v of %d anchors, want all", rep.UncheckedAnchorIDs, len(rep.Anchors))
	}
	for _, a := range rep.Anchors {
		if a.State != anchors.StateUnchecked {
			t.Errorf("%s %s, want unchecked", a.ID, a.State)
		}
	}

	rep = check(t, r.Dir, workspace.CheckOptions{})
	if !rep.Complete || len(rep.UncheckedAnchorIDs) != 0 {
		t.Fatalf("normal check: complete=%v unchecked=%v", rep.Complete, rep.UncheckedAnchorIDs)
	}
	for _, a := range rep.Anchors {
		if a.Kind == "struct" && (a.State != anchors.StateMovedRenamed || a.Detail.MovedTo != "Sources/Audio/Blending.swift") {
			t.Errorf("struct Mixer: %s %s moved_to=%q, want moved-renamed to Sources/Audio/Blending.swift",
				a.State, a.Detail.Reason, a.Detail.MovedTo)
		}
	}
}

// TestClewWikiD20ConfirmFollowsMove: confirming the moved anchors rewrites
// their path to the new file; the next check settles them fresh in the
// cheap pass, reading only that file.
func TestClewWikiD20ConfirmFollowsMove(t *testing.T) {
	r := replay(t, "clewwiki-T43-swift-move")
	rep := check(t, r.Dir, workspace.CheckOptions{})
	res := rep.Confirm(nil, true)
	if len(res.Refused) != 0 {
		t.Fatalf("confirm refused %v", res.Refused)
	}
	applyEdits(t, r, res.Edits)
	doc := r.Read("docs/mixer.md")
	if strings.Contains(doc, "Sources/Audio/Mixer.swift") || strings.Count(doc, "Sources/Audio/Blending.swift") != 2 {
		t.Errorf("confirmed doc still points at the old file:\n%s", doc)
	}
	rep = check(t, r.Dir, workspace.CheckOptions{})
	for _, a := range rep.Anchors {
		if a.State != anchors.StateFresh || a.Detail.Reason != anchors.ReasonIdentityMatched {
			t.Errorf("%s after confirm: %s %s, want fresh identity_matched", a.ID, a.State, a.Detail.Reason)
		}
	}
	if rep.Budget.FilesRead != 1 {
		t.Errorf("files_read %d after confirm, want 1 (the cheap pass reads only the hinted file)", rep.Budget.FilesRead)
	}
}
