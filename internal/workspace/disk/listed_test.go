package disk_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// listedTree is a work tree holding every case of the listing: tracked
// files, untracked ones, untracked ones ignored by a .gitignore, by a
// nested one with a negation, by .git/info/exclude and by a directory
// rule, tracked files that a later rule ignores (listed: git tracks them),
// a tracked file deleted from disk (listed), files under the default
// excludes (listed only when tracked), a nested repository, a symlink, a
// write's temporary file and a workspace that is a sub-directory.
func listedTree(t *testing.T) *wstest.Repo {
	t.Helper()
	r := wstest.New(t)
	r.Write(map[string]string{
		".gitignore":          "*.log\nbuild/\n!keep.log\n",
		"a.go":                "package a\n",
		"README.md":           "# top\n",
		"keep.log":            "kept by negation\n",
		"src/.gitignore":      "gen_*.go\n!gen_keep.go\n",
		"src/gen_keep.go":     "package src\n",
		"src/deep/ok.go":      "package deep\n",
		"src/deep/doc.md":     "# deep\n",
		"gen/tracked.md":      "# tracked, then its folder ignored\n",
		"old.md":              "# tracked, then ignored by name\n",
		"gone.md":             "# tracked, then deleted\n",
		"vendor/v/v.go":       "package v\n",
		"vendor/v/README.md":  "# vendored, tracked\n",
		"ws/w.go":             "package ws\n",
		"ws/.gitignore":       "local.md\n",
		"ws/inner/w2.go":      "package inner\n",
		"node_modules/m/x.md": "# tracked under a default exclude\n",
		"r/sub.go":            "package r\n",
		"r/sub/x.go":          "package sub\n",
		"r/sub-x/y.go":        "package subx\n",
		"r/sub0/z.go":         "package sub0\n",
		"r/su/w.go":           "package su\n",
	})
	r.Commit("tracked")
	r.Write(map[string]string{
		".gitignore":             "*.log\nbuild/\n!keep.log\ngen/\nold.md\n",
		"untracked.md":           "# new\n",
		"x.log":                  "ignored\n",
		"build/out.md":           "# ignored folder\n",
		"src/gen_a.go":           "package src\n",
		"src/new.md":             "# new, not ignored\n",
		"src/deep/new.go":        "package deep\n",
		"gen/new.md":             "# untracked in an ignored folder\n",
		"vendor/new.md":          "# untracked under a default exclude\n",
		"nested/.git/HEAD":       "ref: refs/heads/main\n",
		"nested/n.md":            "# another repository's\n",
		".git/info/exclude":      "scratch/\n*.tmp\n",
		"scratch/s.md":           "# excluded folder\n",
		"notes.tmp":              "excluded\n",
		"ws/local.md":            "# ignored in the sub-workspace\n",
		"ws/inner/local.md":      "# ignored too\n",
		"ws/inner/new.md":        "# listed\n",
		"src/.a.md.clew-123.tmp": "a write's leftover\n",
		"r/sub/new.go":           "package sub\n",
		"r/sub-x/new.go":         "package subx\n",
		"r/sub0.go":              "package r\n",
		"r/su/new.go":            "package su\n",
		"r/sub.go0":              "not Go\n",
	})
	r.Remove("gone.md")
	r.Symlink("README.md", "link.md")
	r.Symlink("src", "srclink")
	return r
}

// Listed answers, for any path, what List answers: the same files, with
// no listing of the folder. Every file on disk (ignored ones included),
// every tracked file and paths List never returns are asked, together
// and one at a time.
func TestListedIsList(t *testing.T) {
	r := listedTree(t)
	for _, dir := range []string{r.Dir, filepath.Join(r.Dir, "ws"), filepath.Join(r.Dir, "src")} {
		f, _, err := disk.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		list, err := f.List()
		if err != nil {
			t.Fatal(err)
		}
		var ref []string
		for _, p := range listTwoWalks(t, r.Dir, dir) {
			if !disk.IsTempFile(p) {
				ref = append(ref, p)
			}
		}
		if !reflect.DeepEqual(list, ref) {
			t.Errorf("%s: List\n got %q\nwant %q", dir, list, ref)
		}
		tracked, err := f.Tracked()
		if err != nil {
			t.Fatal(err)
		}
		asked := append(onDisk(t, dir), tracked...)
		asked = append(asked, "", ".", "..", "./a.go", "a.go/", "/a.go", "src/../a.go", "src//new.md", "missing.md", "src", "nested")
		got, err := f.Listed(asked)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, p := range list {
			if slices.Contains(asked, p) {
				want = append(want, p)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Listed\n got %q\nwant %q", dir, got, want)
		}
		for _, p := range asked {
			one, err := f.Listed([]string{p})
			if err != nil {
				t.Fatal(err)
			}
			if in := slices.Contains(list, p); in != (len(one) == 1) || len(one) > 1 {
				t.Errorf("%s: Listed(%q) = %q, List has it: %v", dir, p, one, in)
			}
		}
	}
	// What each case must be, so that Listed and List cannot agree on a
	// wrong answer.
	f, _, err := disk.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	listed := []string{"README.md", "untracked.md", "src/new.md", "src/deep/new.go", "keep.log", "ws/inner/new.md",
		"gen/tracked.md", "old.md", "gone.md", "vendor/v/README.md", "node_modules/m/x.md",
		"r/sub.go", "r/sub/x.go", "r/sub/new.go", "r/sub-x/new.go", "r/sub0.go", "r/sub0/z.go", "r/su/new.go", "r/sub.go0"}
	unlisted := []string{"x.log", "build/out.md", "src/gen_a.go", "gen/new.md", "vendor/new.md", "nested/n.md",
		"scratch/s.md", "notes.tmp", "ws/local.md", "ws/inner/local.md", "src/.a.md.clew-123.tmp", "link.md",
		"srclink/new.md"}
	list, err := f.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range listed {
		if got, _ := f.Listed([]string{p}); len(got) != 1 || !slices.Contains(list, p) {
			t.Errorf("Listed(%q) = %q, List has it: %v; want it listed", p, got, slices.Contains(list, p))
		}
	}
	for _, p := range unlisted {
		if got, _ := f.Listed([]string{p}); len(got) != 0 || slices.Contains(list, p) {
			t.Errorf("Listed(%q) = %q, List has it: %v; want it left out", p, got, slices.Contains(list, p))
		}
	}
}

// A deferred snapshot's docs are the listing's, whatever the includes:
// literal paths (found without the listing), globs, or both.
func TestDeferredDocsAreLoadsDocs(t *testing.T) {
	r := listedTree(t)
	for _, cfg := range []string{
		"docs:\n  include: [\"README.md\"]\n",
		"docs:\n  include: [\"untracked.md\", \"src/new.md\", \"gen/tracked.md\", \"gen/new.md\", \"old.md\", \"gone.md\", \"link.md\", \"missing.md\"]\n",
		"docs:\n  include: [\"vendor/v/README.md\", \"vendor/new.md\", \"nested/n.md\", \"build/out.md\", \"ws/inner/new.md\", \"ws/inner/local.md\", \"README.md\", \"README.md\"]\n",
		"docs:\n  include: [\"README.md\", \"src/new.md\"]\n  exclude: [\"src/**\"]\n",
		"docs:\n  include: [\"README.md\", \"src/*.md\"]\n",
		"docs:\n  include: []\n",
		"",
	} {
		r.Write(map[string]string{".clew.yml": cfg})
		for _, dir := range []string{r.Dir, filepath.Join(r.Dir, "ws")} {
			eager, err := disk.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			_, lazy, err := disk.LoadFilesDeferred(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := lazy.Docs(), eager.Docs(); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, config %q: deferred docs\n got %q\nwant %q", dir, cfg, got, want)
			}
			if err := lazy.ListErr(); err != nil {
				t.Error(err)
			}
		}
	}
}

// onDisk is every file and symlink under dir but .git, as workspace paths.
func onDisk(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" && !strings.Contains(p, "nested") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 5 {
		t.Fatalf("only %q on disk", out)
	}
	return out
}

// A tree deeper than the walk keeps directories open is listed whole,
// and the walk leaves no descriptor open.
func TestListDeepTree(t *testing.T) {
	r := wstest.New(t)
	deep := strings.Repeat("d/", 150)
	r.Write(map[string]string{deep + "tracked.go": "package d\n", "a.go": "package a\n"})
	r.Commit("deep")
	r.Write(map[string]string{deep + "untracked.go": "package d\n", deep[:40] + "mid.go": "package d\n"})
	f, _, err := disk.Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	open := func() int {
		fds, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			return -1
		}
		return len(fds)
	}
	before := open()
	list, err := f.List()
	if err != nil {
		t.Fatal(err)
	}
	if after := open(); after != before {
		t.Errorf("%d descriptors open after List, %d before", after, before)
	}
	want := []string{"a.go", deep + "tracked.go", deep + "untracked.go", deep[:40] + "mid.go"}
	slices.Sort(want)
	if !reflect.DeepEqual(list, want) {
		t.Errorf("List = %q, want %q", list, want)
	}
	if got, _ := f.Listed([]string{deep + "untracked.go", deep + "tracked.go", deep + "nope.go"}); len(got) != 2 {
		t.Errorf("Listed = %q, want the tracked and the untracked file", got)
	}
}
