package workspace_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// Without history (a depth-1 clone: one commit, no pinned bodies to find)
// the rename search of a Go anchor parses only the files that list its
// pinned body hash. Every ladder fixture, re-committed as a repository of
// one commit, gets the same verdicts with that filter as when every file
// is parsed: state, reason, where it was found and what it became. The
// suggestions of a lost anchor rank the declarations the search indexed,
// so they are left out of the comparison.
func TestNoHistoryBodyFilterKeepsEveryVerdict(t *testing.T) {
	paths, err := filepath.Glob("testdata/ladder/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	renamed := 0
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) {
			_, r, _, opt := openLadder(t, p)
			one := wstest.New(t)
			one.Write(workTree(t, r.Dir))
			one.Commit("one commit")
			opt.PartialHinted = true
			restore := workspace.SetGoBodyFilter(false)
			all := check(t, one.Dir, opt)
			restore()
			filtered := check(t, one.Dir, opt)
			if len(all.Anchors) != len(filtered.Anchors) {
				t.Fatalf("%d anchors parsing every file, %d filtered", len(all.Anchors), len(filtered.Anchors))
			}
			for i := range all.Anchors {
				w, g := all.Anchors[i], filtered.Anchors[i]
				wd, gd := w.Detail, g.Detail
				wd.Suggestions, gd.Suggestions = nil, nil
				if w.State != g.State || !reflect.DeepEqual(wd, gd) || !reflect.DeepEqual(w.Found, g.Found) {
					t.Errorf("%s: every file parsed says %s %+v, filtered %s %+v", w.ID, w.State, wd, g.State, gd)
				}
				if strings.HasSuffix(w.Path, ".go") && w.Detail.RenamedTo != "" {
					renamed++
				}
			}
		})
	}
	if renamed < 2 {
		t.Errorf("only %d Go renames found without history: the comparison shows little", renamed)
	}
}

// workTree reads every regular file of dir outside .git.
func workTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
