package workspace_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// TestSessionFindingsFollowBuffers: the session's newest snapshot follows
// unsaved buffers, findings carry docs/server.md's codes and severities, and the
// findings of a session with no buffers equal what verify reports.
func TestSessionFindingsFollowBuffers(t *testing.T) {
	r := pinned(t)
	r.Write(map[string]string{"docs/c.md": "<!-- @code function Sum calc/sum.go -->\n<!-- @code function Gone calc/sum.go -->\n<!-- @code functoin X a.go -->\n"})
	r.Commit("more")
	sess := workspace.NewSession(disk.Loader)
	if err := sess.AddFolder(r.Dir); err != nil {
		t.Fatal(err)
	}
	findings := func() map[string][]workspace.Finding {
		snaps := sess.Snapshots()
		if len(snaps) != 1 {
			t.Fatalf("%d folders", len(snaps))
		}
		rep, err := snaps[0].Check(context.Background(), workspace.CheckOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return rep.Findings()
	}
	summary := func(m map[string][]workspace.Finding) string {
		var s []string
		for _, p := range []string{"docs/a.md", "docs/b.md", "docs/c.md"} {
			for _, f := range m[p] {
				s = append(s, p+":"+f.Code+":"+string(f.Severity))
			}
		}
		return strings.Join(s, " ")
	}
	want := "docs/c.md:anchor/unpinned:information docs/c.md:anchor/lost:error docs/c.md:anchor/parse:error"
	if got := summary(findings()); got != want {
		t.Errorf("disk:\n got %s\nwant %s", got, want)
	}
	// Parity with the CLI's report on the same workspace.
	cli := check(t, r.Dir, workspace.CheckOptions{})
	if got, want := summary(cli.Findings()), summary(findings()); got != want {
		t.Errorf("CLI and session disagree:\n%s\n%s", got, want)
	}

	abs := filepath.Join(sess.Snapshots()[0].Root(), "calc", "sum.go")
	sess.SetOverlays(map[string][]byte{abs: []byte(strings.Replace(sumGo, "+=", "*=", 1))})
	got := summary(findings())
	if !strings.Contains(got, "docs/a.md:anchor/stale:error") {
		t.Errorf("an unsaved edit must flip the anchor stale: %s", got)
	}
	f := findings()["docs/a.md"][0]
	doc := r.Read("docs/a.md")
	if doc[f.StartByte:f.EndByte] != strings.TrimSpace(doc) || f.AnchorID != "docs/a.md:1" {
		t.Errorf("finding spans %q (%s)", doc[f.StartByte:f.EndByte], f.AnchorID)
	}
	sess.SetOverlays(map[string][]byte{abs: nil})
	if got := summary(findings()); got != want {
		t.Errorf("closing the buffer must restore the disk view: %s", got)
	}

	// A file created on disk is seen after DiskChanged.
	r.Write(map[string]string{"docs/d.md": "<!-- @code function Sum calc/sum.go -->\n"})
	if err := sess.DiskChanged([]string{filepath.Join(sess.Snapshots()[0].Root(), "docs", "d.md")}); err != nil {
		t.Fatal(err)
	}
	if got := summary(findings()); got != want {
		t.Errorf("unexpected findings after relist: %s", got)
	}
	if _, ok := findings()["docs/d.md"]; !ok {
		t.Error("new doc not seen after DiskChanged")
	}

	// Editor settings apply when the folder has no .clew.yml.
	sess.Configure([]byte(`{"anchors": {"blocking": ["stale"]}}`))
	if got := summary(findings()); !strings.Contains(got, "docs/c.md:anchor/lost:warning") {
		t.Errorf("settings: lost no longer gates, so it is a warning: %s", got)
	}
}
