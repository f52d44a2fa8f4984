package workspace_test

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
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
			// Partial, then partial with a persistent store, cold and
			// warm (the declaration ranges and what was kept for the
			// suggestions come from the store).
			store, err := disk.OpenTableStoreAt(t.TempDir(), "test-version")
			if err != nil {
				t.Fatal(err)
			}
			// Then through a bundle (verify's: one entry per root), cold
			// and warm.
			bundled, err := disk.OpenTableStoreAt(t.TempDir(), "test-version")
			if err != nil {
				t.Fatal(err)
			}
			for _, run := range []string{"partial", "cold store", "warm store", "cold bundle", "warm bundle"} {
				var part *workspace.Report
				switch run {
				case "partial":
					part = check(t, r.Dir, opt)
				case "cold store", "warm store":
					part = checkWithStore(t, r.Dir, opt, store)
				default:
					b := workspace.NewBundleStore(bundled, r.Dir)
					part = checkWithStore(t, r.Dir, opt, b)
					b.Flush()
					// The bundle, and beside it the root's stored
					// repository-wide pass (a per-root entry of its own).
					var es []string
					for _, e := range entries(t, bundled) {
						if keyOf(t, e) != workspace.WidePartKey(r.Dir) {
							es = append(es, e)
						}
					}
					if len(es) > 1 {
						t.Errorf("%s: %d entries in the store besides the stored pass, want one bundle", run, len(es))
					}
				}
				if len(whole.Anchors) != len(part.Anchors) {
					t.Fatalf("%s: %d anchors with whole tables, %d with partial ones", run, len(whole.Anchors), len(part.Anchors))
				}
				for i := range whole.Anchors {
					w, g := whole.Anchors[i], part.Anchors[i]
					if w.State != g.State || !reflect.DeepEqual(w.Detail, g.Detail) || !reflect.DeepEqual(w.Found, g.Found) {
						t.Errorf("%s: %s: whole tables say %s %+v, partial ones %s %+v", run, w.ID, w.State, w.Detail, g.State, g.Detail)
					}
				}
			}
		})
	}
}

// checkWithStore is check with a persistent table store.
func checkWithStore(t *testing.T, dir string, opt workspace.CheckOptions, store workspace.TableStore) *workspace.Report {
	t.Helper()
	snap, err := disk.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	snap.UseTableStore(store)
	rep, err := snap.Check(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
