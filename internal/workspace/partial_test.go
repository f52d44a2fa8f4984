package workspace_test

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Parsing only part of the hinted Go files (CheckOptions.PartialHinted,
// what verify does) changes no verdict: every ladder fixture, checked with
// and without it, gives the same anchor reports, suggestions and found
// bindings included. go-partial-suggestions.txtar is the fixture whose
// suggestions come from declarations of a hinted file that no anchor names.
func TestPartialHintedMatchesWhole(t *testing.T) {
	paths, err := filepath.Glob("testdata/ladder/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) {
			_, r, _, opt := openLadder(t, p)
			whole := check(t, r.Dir, opt)
			opt.PartialHinted = true
			part := check(t, r.Dir, opt)
			if len(whole.Anchors) != len(part.Anchors) {
				t.Fatalf("%d anchors with whole tables, %d with partial ones", len(whole.Anchors), len(part.Anchors))
			}
			for i := range whole.Anchors {
				w, g := whole.Anchors[i], part.Anchors[i]
				if w.State != g.State || !reflect.DeepEqual(w.Detail, g.Detail) || !reflect.DeepEqual(w.Found, g.Found) {
					t.Errorf("%s: whole tables say %s %+v, partial ones %s %+v", w.ID, w.State, w.Detail, g.State, g.Detail)
				}
			}
		})
	}
}
