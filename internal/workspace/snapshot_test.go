package workspace_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

const sumGo = "package calc\n\nfunc Sum(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n"

func pinned(t *testing.T) *wstest.Repo {
	t.Helper()
	r := wstest.New(t)
	r.Write(map[string]string{"calc/sum.go": sumGo, "docs/a.md": "<!-- @code function Sum calc/sum.go -->\n",
		"docs/b.md": "<!-- @code lines calc/sum.go#L3-L4 -->\n"})
	r.Commit("init")
	pin(t, r, nil)
	r.Commit("pin")
	return r
}

func states(rep *workspace.Report) string {
	var s []string
	for _, a := range rep.Anchors {
		s = append(s, a.ID+"="+string(a.State)+"/"+a.Detail.Reason)
	}
	return strings.Join(s, " ")
}

// TestOverlayFlipsStaleAndBack: an unsaved buffer replaces the disk for
// the snapshot made with it, and removing the overlay restores the disk.
func TestOverlayFlipsStaleAndBack(t *testing.T) {
	r := pinned(t)
	snap, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rep, _ := snap.Check(ctx, workspace.CheckOptions{})
	if got := states(rep); got != "docs/a.md:1=fresh/identity_matched docs/b.md:1=fresh/identity_matched" {
		t.Fatalf("pinned: %s", got)
	}
	edited := snap.WithOverlays(map[string][]byte{"calc/sum.go": []byte(strings.Replace(sumGo, "+=", "-=", 1))})
	rep, _ = edited.Check(ctx, workspace.CheckOptions{})
	if got := states(rep); got != "docs/a.md:1=stale/body_changed docs/b.md:1=fresh/identity_matched" {
		t.Errorf("overlay: %s", got)
	}
	if edited.ID() <= snap.ID() {
		t.Error("a newer snapshot must have a higher ID")
	}
	back := edited.WithOverlays(map[string][]byte{"calc/sum.go": nil})
	rep, _ = back.Check(ctx, workspace.CheckOptions{})
	if got := states(rep); got != "docs/a.md:1=fresh/identity_matched docs/b.md:1=fresh/identity_matched" {
		t.Errorf("overlay removed: %s", got)
	}
	// The original snapshot is immutable.
	rep, _ = snap.Check(ctx, workspace.CheckOptions{})
	if got := states(rep); !strings.Contains(got, "a.md:1=fresh") {
		t.Errorf("original snapshot changed: %s", got)
	}
}

// TestFileDeletedMidCheck: files listed by the snapshot but deleted before
// they are read make their anchors lost/file_missing; a deleted doc is
// simply gone. Nothing crashes.
func TestFileDeletedMidCheck(t *testing.T) {
	r := pinned(t)
	snap, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	r.Remove("calc/sum.go", "docs/b.md")
	rep, err := snap.Check(context.Background(), workspace.CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := states(rep); got != "docs/a.md:1=lost/file_missing" {
		t.Errorf("got %s", got)
	}
}

// TestStarvedBudget (ClewWiki T-43): with max_files 0 nothing is read, the
// report is incomplete, and no anchor is called lost.
func TestStarvedBudget(t *testing.T) {
	r := pinned(t)
	r.Move("calc/sum.go", "calc/moved.go")
	r.Commit("move")
	snap, _ := disk.Load(r.Dir)
	b := workspace.DefaultBudget()
	b.MaxFiles = 0
	rep, _ := snap.Check(context.Background(), workspace.CheckOptions{Budget: &b})
	if rep.Complete || rep.Budget.Limit == nil || *rep.Budget.Limit != workspace.LimitFiles || rep.Budget.FilesRead != 0 {
		t.Fatalf("report: complete=%v budget=%+v", rep.Complete, rep.Budget)
	}
	if len(rep.UncheckedAnchorIDs) != 2 {
		t.Errorf("unchecked = %v, want both anchors", rep.UncheckedAnchorIDs)
	}
	for _, a := range rep.Anchors {
		if a.State != anchors.StateUnchecked {
			t.Errorf("%s is %s, want unchecked", a.ID, a.State)
		}
	}
	rep, _ = snap.Check(context.Background(), workspace.CheckOptions{})
	if got := states(rep); got != "docs/a.md:1=moved-renamed/moved docs/b.md:1=lost/file_missing" {
		t.Errorf("full check: %s", got)
	}
}

// TestBudgetBoundsTheGivenClock: with CheckOptions.Clock (verify's
// processor time) max_ms bounds that clock, not the wall: a clock that has
// run past max_ms stops the check at once, one that stands still never
// does, whatever the wall says.
func TestBudgetBoundsTheGivenClock(t *testing.T) {
	r := pinned(t)
	r.Move("calc/sum.go", "calc/moved.go")
	r.Commit("move")
	snap, _ := disk.Load(r.Dir)
	b := workspace.DefaultBudget()
	calls := 0
	late := func() time.Duration { // started at 0, then an hour on
		calls++
		if calls == 1 {
			return 0
		}
		return time.Hour
	}
	rep, _ := snap.Check(context.Background(), workspace.CheckOptions{Budget: &b, Clock: late})
	if rep.Complete || rep.Budget.Limit == nil || *rep.Budget.Limit != workspace.LimitTime || len(rep.UncheckedAnchorIDs) != 2 {
		t.Fatalf("a clock past max_ms: complete=%v budget=%+v unchecked=%v", rep.Complete, rep.Budget, rep.UncheckedAnchorIDs)
	}
	b.MaxMS = 1
	still := func() time.Duration { return 5 * time.Second }
	rep, _ = snap.Check(context.Background(), workspace.CheckOptions{Budget: &b, Clock: still})
	if !rep.Complete || states(rep) != "docs/a.md:1=moved-renamed/moved docs/b.md:1=lost/file_missing" {
		t.Errorf("a clock standing still: complete=%v %s", rep.Complete, states(rep))
	}
}

// TestConfigParsing covers the defaults and every kind of refusal.
func TestConfigParsing(t *testing.T) {
	cfg, diags := workspace.ParseConfig([]byte("anchors: {blocking: [stale]}\nbudget: {max_files: 5}\n"))
	if len(diags) != 0 || cfg.Budget.MaxFiles != 5 || cfg.Budget.MaxBytes != 256<<20 || !cfg.IsBlocking("stale", false) || cfg.IsBlocking("lost", false) {
		t.Errorf("cfg %+v diags %+v", cfg, diags)
	}
	if !cfg.IsDoc("README.md") || !cfg.IsDoc("a/b/c.mdx") || cfg.IsDoc("node_modules/x/README.md") || cfg.IsDoc("main.go") {
		t.Error("doc discovery globs")
	}
	for _, bad := range []string{"docs: [", "unknown_key: 1", "anchors: {blocking: [stael]}", "docs: {include: ['[']}", "budget: {max_files: -1}"} {
		cfg, diags := workspace.ParseConfig([]byte(bad))
		if len(diags) == 0 || diags[0].Code != workspace.CodeConfigInvalid {
			t.Errorf("%q: no config/invalid diagnostic", bad)
		}
		if cfg.Budget != workspace.DefaultBudget() {
			t.Errorf("%q: defaults must apply", bad)
		}
	}
}

// TestPlainDirectory: outside git the workspace is walked with the default
// excludes, and a symlink that leaves the workspace is never followed.
func TestPlainDirectory(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	write := func(p, s string) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("calc/sum.go", sumGo)
	write("docs/a.md", "<!-- @code function Sum calc/sum.go -->\n<!-- @code function Secret leak/secret.go -->\n")
	write("node_modules/pkg/README.md", "<!-- @code function Nope x.go -->\n")
	write("vendor/v/README.md", "<!-- @code function Nope x.go -->\n")
	os.WriteFile(filepath.Join(outside, "secret.go"), []byte("package s\n\nfunc Secret() int {\n\treturn 1 + 2 + 3 + 4 + 5\n}\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(dir, "leak")); err != nil {
		t.Fatal(err)
	}
	snap, err := disk.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Git().IsRepo {
		t.Error("a temp dir is not a repository")
	}
	if docs := snap.Docs(); len(docs) != 1 || docs[0] != "docs/a.md" {
		t.Errorf("docs = %v: node_modules and vendor are excluded", docs)
	}
	if _, st := snap.ReadFile("leak/secret.go"); st != anchors.FileMissing {
		t.Errorf("a symlink out of the workspace was followed (status %v)", st)
	}
	rep, _ := snap.Check(context.Background(), workspace.CheckOptions{})
	if got := states(rep); got != "docs/a.md:1=unpinned/identity_matched docs/a.md:2=lost/file_missing" {
		t.Errorf("got %s", got)
	}
}
