package lsp

import (
	"maps"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
)

// lastReady waits for a ready clew/status that satisfies cond and returns it.
func (f *fixture) lastReady(what string, cond func(lsptest.Status) bool) (lsptest.Status, []lsptest.Status) {
	f.t.Helper()
	var got lsptest.Status
	st, err := f.c.Await(f.ctx, what, func(s lsptest.State) bool {
		if n := len(s.Statuses); n > 0 && s.Statuses[n-1].State == StatusReady && cond(s.Statuses[n-1]) {
			got = s.Statuses[n-1]
			return true
		}
		return false
	})
	if err != nil {
		f.t.Fatalf("%v; statuses %+v", err, st.Statuses)
	}
	return got, st.Statuses
}

// TestStatusNotification: clew/status says starting, then indexing, then
// ready with the server's version and the anchors counted by state; a code
// change that makes a passage stale is counted after the next pass.
func TestStatusNotification(t *testing.T) {
	f := newFixtureServing(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": guideMD},
		lsptest.Options{}, WithVersion("1.2.3-test"))
	f.init()
	ready, all := f.lastReady("ready status", func(lsptest.Status) bool { return true })
	if all[0].State != StatusStarting || all[1].State != StatusIndexing || all[1].Message != "indexing 1 folder" {
		t.Errorf("first statuses %+v, want starting then indexing", all[:2])
	}
	for _, s := range all {
		if s.Version != "1.2.3-test" {
			t.Errorf("status %+v: version %q", s, s.Version)
		}
	}
	if !maps.Equal(ready.Anchors, map[string]int{"fresh": 2}) || len(ready.Claims) != 0 || ready.ConfigErrors != 0 {
		t.Errorf("ready status %+v, want 2 fresh anchors, no claims", ready)
	}
	if ready.Message != "2 anchors: 2 fresh" {
		t.Errorf("message %q", ready.Message)
	}

	f.open("lib/resolve.go")
	f.edit("lib/resolve.go", strings.Replace(resolveGo, "sum*2 + 1", "sum*3 + 1", 1))
	stale, _ := f.lastReady("a stale anchor counted", func(s lsptest.Status) bool { return s.Anchors["stale"] == 1 })
	if stale.Anchors["fresh"] != 1 || stale.Message != "2 anchors: 1 fresh · 1 stale" {
		t.Errorf("after the change: %+v", stale)
	}
}

// TestStatusCountsConfigErrors: a broken .clew.yml is counted and said.
func TestStatusCountsConfigErrors(t *testing.T) {
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": guideMD,
		".clew.yml": "bogus_key: 1\n"}, lsptest.Options{})
	f.init()
	got, _ := f.lastReady("ready status", func(lsptest.Status) bool { return true })
	if got.ConfigErrors != 1 || !strings.HasSuffix(got.Message, "; 1 config error") {
		t.Errorf("status %+v, want one config error in the counts and the message", got)
	}
}
