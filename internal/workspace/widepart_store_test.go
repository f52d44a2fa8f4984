package workspace_test

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// fullPassAgain checks dir after a change the stored pass cannot answer:
// the report is a check's without a store, and the pass runs in full
// (nothing is taken from the store). It returns that report.
func fullPassAgain(t *testing.T, dir string, store workspace.TableStore, opt workspace.CheckOptions, what string) *workspace.Report {
	t.Helper()
	time.Sleep(2 * workspace.RacyWindow) // the change's stat is old enough to trust
	taken := workspace.WidePartsTaken()
	want := checkWith(t, dir, nil, opt)
	sameReport(t, what, checkWith(t, dir, store, opt), want)
	if workspace.WidePartsTaken() != taken {
		t.Fatalf("%s: the stored pass was taken", what)
	}
	return want
}

// newStore is an empty persistent store of its own.
func newStore(t *testing.T) *disk.TableStore {
	t.Helper()
	store, err := disk.OpenTableStoreAt(t.TempDir(), "test-version")
	if err != nil {
		t.Fatal(err)
	}
	return store
}

// loadWith loads dir afresh (a new process, as far as memory goes) with
// store (nil: none).
func loadWith(t testing.TB, dir string, store workspace.TableStore) *workspace.Snapshot {
	t.Helper()
	snap, err := disk.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if store != nil {
		snap.UseTableStore(store)
	}
	return snap
}

// checkWith loads dir afresh (a new process, as far as memory goes) and
// checks it with store (nil: none).
func checkWith(t *testing.T, dir string, store workspace.TableStore, opt workspace.CheckOptions) *workspace.Report {
	t.Helper()
	rep, err := loadWith(t, dir, store).Check(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// sameReport compares what a user reads of two reports: every anchor's
// verdict with its detail and suggestions, the files skipped, what the
// budget counted, completeness.
func sameReport(t *testing.T, what string, got, want *workspace.Report) {
	t.Helper()
	if !reflect.DeepEqual(got.Anchors, want.Anchors) || !reflect.DeepEqual(got.Skipped, want.Skipped) ||
		got.Complete != want.Complete || !reflect.DeepEqual(got.UncheckedAnchorIDs, want.UncheckedAnchorIDs) ||
		got.Budget.FilesRead != want.Budget.FilesRead || got.Budget.BytesRead != want.Budget.BytesRead {
		t.Errorf("%s: the report differs from a check without a store:\n%s\nwant\n%s", what, describe(got), describe(want))
	}
}

// A later process on an unchanged tree answers the repository-wide pass
// from the stored one, with the report of a check that reads every
// candidate; a candidate changed in a way its size and modification time
// do not show, or a new one, runs the pass in full again; a damaged entry
// is ignored. Every ladder fixture whose anchors need the pass is checked.
func TestStoredWidePartAnswersAsAFullPass(t *testing.T) {
	defer workspace.SetWidePartWriteEvery(0)()
	paths, err := filepath.Glob("testdata/ladder/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	exercised := 0
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) {
			_, r, _, opt := openLadder(t, p)
			store := newStore(t)
			time.Sleep(2 * workspace.RacyWindow) // the files' stats are old enough to trust
			want := checkWith(t, r.Dir, nil, opt)
			sameReport(t, "cold", checkWith(t, r.Dir, store, opt), want)
			if _, ok := store.Get(workspace.WidePartKey(r.Dir)); !ok {
				return // no repository-wide pass (or none complete): nothing stored
			}
			exercised++
			taken := workspace.WidePartsTaken()
			sameReport(t, "warm", checkWith(t, r.Dir, store, opt), want)
			if workspace.WidePartsTaken() != taken+1 {
				t.Fatalf("the warm check did not take the stored pass")
			}

			// A candidate rewritten with the same size and its old times
			// put back: its status-change time moved.
			data, _ := store.Get(workspace.WidePartKey(r.Dir))
			cands, ok := workspace.WidePartPaths(data, r.Dir)
			victim := ""
			for _, c := range cands {
				if r.Read(c) != "" {
					victim = c
					break
				}
			}
			if !ok || victim == "" {
				t.Fatalf("the stored pass lists no candidate with content: %v", cands)
			}
			full := filepath.Join(r.Dir, victim)
			info, err := os.Stat(full)
			if err != nil {
				t.Fatal(err)
			}
			b := []byte(r.Read(victim))
			b[len(b)-1] ^= 1 // same size, other bytes
			if err := os.WriteFile(full, b, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(full, info.ModTime(), info.ModTime()); err != nil {
				t.Fatal(err)
			}
			want = fullPassAgain(t, r.Dir, store, opt, "a candidate changed in place")
			taken = workspace.WidePartsTaken()
			sameReport(t, "after the change, warm", checkWith(t, r.Dir, store, opt), want)
			if workspace.WidePartsTaken() != taken+1 {
				t.Fatalf("the pass after the change was not stored again")
			}

			// A new candidate: a copy of one, in a folder of its own.
			r.Write(map[string]string{"zz_new/" + path.Base(victim): r.Read(victim)})
			want = fullPassAgain(t, r.Dir, store, opt, "a new candidate")

			// A damaged entry (the store's own check passes: it is written
			// through Put) is ignored.
			data, _ = store.Get(workspace.WidePartKey(r.Dir))
			for _, bad := range [][]byte{data[:len(data)/2], append(append([]byte{}, data...), 0), []byte("junk")} {
				store.Put(workspace.WidePartKey(r.Dir), bad)
				taken = workspace.WidePartsTaken()
				sameReport(t, "damaged entry", checkWith(t, r.Dir, store, opt), want)
				if workspace.WidePartsTaken() != taken {
					t.Fatalf("a damaged entry was taken")
				}
			}
		})
	}
	if exercised < 5 {
		t.Errorf("only %d fixtures stored a repository-wide pass: the comparison shows little", exercised)
	}
}

// A server's pass answers from what its earlier passes of the same Load
// read (the memo), which may be older than a file on disk whose change
// the watcher has not reported yet. Such a pass must not be stored under
// the file's new stat: a later process would take answers of content the
// disk no longer holds.
func TestStoredWidePartIsNeverAnOlderRead(t *testing.T) {
	defer workspace.SetWidePartWriteEvery(0)()
	_, r, _, opt := openLadder(t, "testdata/ladder/clewwiki-T15-ts-move.txtar")
	store := newStore(t)
	after := r.Read("src/lib/text.ts")
	before := strings.ReplaceAll(after, "normalise", "normalizz")
	extra := "export const unrelated = 1;\n"
	r.Write(map[string]string{"src/lib/text.ts": before, "src/other/extra.ts": extra})
	time.Sleep(3 * workspace.RacyWindow)

	// The server's first pass (a buffer open: nothing is stored), then the
	// file changes on disk, then a pass with another key (the buffer
	// closed) before the watcher's event arrives.
	first := loadWith(t, r.Dir, store).WithOverlays(map[string][]byte{"src/other/extra.ts": []byte(extra)})
	if _, err := first.Check(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	r.Write(map[string]string{"src/lib/text.ts": after})
	time.Sleep(3 * workspace.RacyWindow)
	second := first.WithOverlays(map[string][]byte{"src/other/extra.ts": nil})
	if _, err := second.Check(context.Background(), opt); err != nil {
		t.Fatal(err)
	}

	want := checkWith(t, r.Dir, nil, opt)
	sameReport(t, "a later process after the server's passes", checkWith(t, r.Dir, store, opt), want)
}

// A pass in which a parse gave up (its time bound, on a loaded machine)
// is not stored: the file's answer was not had, and a later process must
// parse it again rather than take "nothing declared here".
func TestStoredWidePartIsNeverAParseThatGaveUp(t *testing.T) {
	defer workspace.SetWidePartWriteEvery(0)()
	_, r, _, opt := openLadder(t, "testdata/ladder/clewwiki-T15-ts-move.txtar")
	store := newStore(t)
	time.Sleep(2 * workspace.RacyWindow)
	want := checkWith(t, r.Dir, nil, opt)
	restore := workspace.SetGiveUpIn("src/lib/text.ts") // where the anchors moved to
	cut := checkWith(t, r.Dir, store, opt)
	restore()
	if describe(cut) == describe(want) {
		t.Fatal("a parse that gave up changed nothing: the test shows nothing")
	}
	if _, ok := store.Get(workspace.WidePartKey(r.Dir)); ok {
		t.Fatal("a pass whose parse gave up was stored")
	}
	sameReport(t, "the next process", checkWith(t, r.Dir, store, opt), want)
}
