package disk_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// The one-walk listing must list exactly what the earlier two walks did:
// go-git's ReadPatterns over the whole work tree, then a listing that
// asks that matcher about every untracked file and directory. The tree
// mixes tracked and untracked files, nested .gitignore files with
// negations and directory-only rules, .git/info/exclude, a nested
// repository, the default excludes, and a workspace that is a
// sub-directory of the work tree.
func TestListOneWalkMatchesTwoWalks(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{
		".gitignore":              "*.log\nbuild/\n!keep.log\n# comment\n\n/rootonly.txt\n",
		"a.go":                    "package a\n",
		"keep.log":                "kept by negation\n",
		"x.log":                   "ignored\n",
		"rootonly.txt":            "ignored at the top only\n",
		"src/rootonly.txt":        "not ignored here\n",
		"src/.gitignore":          "gen_*.go\n!gen_keep.go\ntmp\n",
		"src/gen_a.go":            "package src\n",
		"src/gen_keep.go":         "package src\n",
		"src/tmp/t.go":            "package tmp\n",
		"src/deep/.gitignore":     "*.md\n",
		"src/deep/doc.md":         "# ignored doc\n",
		"src/deep/ok.go":          "package deep\n",
		"src/deep/tmp":            "a file named tmp is ignored too\n",
		"build/out.go":            "package build\n",
		"sub/build/x.go":          "package build\n",
		"node_modules/m/index.js": "x\n",
		"vendor/v/v.go":           "package v\n",
		"nested/.git/HEAD":        "ref: refs/heads/main\n",
		"nested/n.go":             "package n\n",
		"ws/.gitignore":           "local.txt\n",
		"ws/local.txt":            "ignored in the sub-workspace\n",
		"ws/w.go":                 "package ws\n",
		"ws/inner/w2.go":          "package inner\n",
		"ws/inner/local.txt":      "ignored too\n",
		"ign/.gitignore":          "!never.go\n",
		"ign/never.go":            "package ign\n",
	})
	r.Commit("tracked")
	// Untracked and ignored files added after the commit, and an exclude.
	r.Write(map[string]string{
		"untracked.go":       "package a\n",
		"src/gen_b.go":       "package src\n",
		"src/new.txt":        "new\n",
		"ws/inner/new.go":    "package inner\n",
		".git/info/exclude":  "ign/\n*.tmp\n",
		"scratch.tmp":        "excluded\n",
		"ws/inner/again.tmp": "excluded\n",
		"src/deep/extra.md":  "# ignored\n",
	})
	for _, dir := range []string{r.Dir, filepath.Join(r.Dir, "ws"), filepath.Join(r.Dir, "src")} {
		f, _, err := disk.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.List()
		if err != nil {
			t.Fatal(err)
		}
		want := listTwoWalks(t, r.Dir, dir)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", dir, got, want)
		}
		if len(got) < 3 {
			t.Errorf("%s: only %q listed", dir, got)
		}
	}
}

// listTwoWalks is the listing as it was computed before the one-walk
// lister: tracked files (from the index, through Files.Tracked) plus a
// walk of the folder asking one matcher built from every .gitignore.
func listTwoWalks(t *testing.T, top, dir string) []string {
	t.Helper()
	f, _, err := disk.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	tracked, err := f.Tracked()
	if err != nil {
		t.Fatal(err)
	}
	patterns, _ := gitignore.ReadPatterns(osfs.New(top), nil)
	m := gitignore.NewMatcher(patterns)
	rel, _ := filepath.Rel(top, dir)
	var prefix []string
	if rel != "." {
		prefix = strings.Split(filepath.ToSlash(rel), "/")
	}
	ignored := func(p string, isDir bool) bool {
		return m.Match(append(append([]string(nil), prefix...), strings.Split(p, "/")...), isDir)
	}
	seen := map[string]bool{}
	out := []string{}
	for _, p := range tracked {
		seen[p] = true
		out = append(out, p)
	}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if d.IsDir() {
			if disk.DefaultExcludes[d.Name()] || ignored(rel, true) {
				return filepath.SkipDir
			}
			if _, err := os.Lstat(filepath.Join(p, ".git")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || seen[rel] || ignored(rel, false) {
			return nil
		}
		seen[rel] = true
		out = append(out, rel)
		return nil
	})
	sort.Strings(out)
	return out
}
