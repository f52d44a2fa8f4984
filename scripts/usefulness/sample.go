package main

import (
	"os/exec"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// commit is one sampled change: F is its first modified code file (not a
// test), the seed is compiled at F's first changed line at the parent.
type commit struct {
	sha, parent, file string
	others            []string // other files the commit modified
	line              int      // first changed line of file, at the parent
	hunks             map[string][]hunk
}

// hunk is a changed range of the parent's lines: count 0 is an insertion
// after line start.
type hunk struct{ start, count int }

func git(dir string, args ...string) string {
	out, err := exec.Command("git", append([]string{"--git-dir", dir}, args...)...).Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// codeLanguage reports a language with declaration tables that is code
// (not a key/value format such as YAML).
func codeLanguage(p string) bool {
	lang, ok := symbols.LanguageForPath(p)
	return ok && !symbols.IsKeyLanguage(lang)
}

// testPath is the usual test-file convention of Go, Python and JS/TS.
func testPath(p string) bool {
	base := path.Base(p)
	if strings.HasSuffix(base, "_test.go") || strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") ||
		strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") || base == "conftest.py" {
		return true
	}
	for _, d := range strings.Split(path.Dir(p), "/") {
		if d == "test" || d == "tests" || d == "__tests__" || d == "testdata" {
			return true
		}
	}
	return false
}

// candidates lists first-parent non-merge commits that modify 2..maxFiles
// files, one of them a non-test code file, in one git log; sorted by sha
// so the sample depends on the seed only.
func candidates(repo string, maxFiles int) []commit {
	var out []commit
	var cur *commit
	var files []string
	flush := func() {
		if cur == nil || len(files) < 2 || len(files) > maxFiles {
			return
		}
		for _, p := range files {
			if cur.file == "" && codeLanguage(p) && !testPath(p) {
				cur.file = p
			} else {
				cur.others = append(cur.others, p)
			}
		}
		if cur.file != "" {
			out = append(out, *cur)
		}
	}
	log := git(repo, "log", "--first-parent", "--no-merges", "--no-renames", "--name-status", "--format=@%H %P", "HEAD")
	for _, l := range strings.Split(log, "\n") {
		if rest, ok := strings.CutPrefix(l, "@"); ok {
			flush()
			cur, files = nil, nil
			if f := strings.Fields(rest); len(f) == 2 {
				cur = &commit{sha: f[0], parent: f[1]}
			}
			continue
		}
		if cols := strings.Split(l, "\t"); len(cols) == 2 && cols[0] == "M" {
			files = append(files, cols[1])
		}
	}
	flush()
	sort.Slice(out, func(i, j int) bool { return out[i].sha < out[j].sha })
	return out
}

var (
	hunkRE = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))?`)
	fileRE = regexp.MustCompile(`^--- a/(.*)$`)
)

// readHunks fills c.hunks (per modified file, the parent's changed lines)
// and c.line.
func readHunks(repo string, c *commit) {
	c.hunks = map[string][]hunk{}
	cur := ""
	for _, l := range strings.Split(git(repo, "diff", "-U0", "--no-renames", c.parent, c.sha), "\n") {
		if m := fileRE.FindStringSubmatch(l); m != nil {
			cur = m[1]
			continue
		}
		if strings.HasPrefix(l, "--- ") {
			cur = ""
			continue
		}
		m := hunkRE.FindStringSubmatch(l)
		if m == nil || cur == "" {
			continue
		}
		start, _ := strconv.Atoi(m[1])
		count := 1
		if m[2] != "" {
			count, _ = strconv.Atoi(m[2])
		}
		c.hunks[cur] = append(c.hunks[cur], hunk{start, count})
		if cur == c.file && c.line == 0 {
			c.line = max(start, 1)
		}
	}
}
