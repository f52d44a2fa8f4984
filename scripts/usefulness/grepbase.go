package main

import (
	"sort"
	"strconv"
	"strings"
)

type sized struct {
	path string
	size int
}

// trackedFiles maps the parent's tracked files to their sizes.
func trackedFiles(repo, sha string) map[string]int {
	sizes := map[string]int{}
	for _, l := range strings.Split(git(repo, "ls-tree", "-r", "-l", sha), "\n") {
		if meta, p, ok := strings.Cut(l, "\t"); ok {
			if f := strings.Fields(meta); len(f) == 4 && f[1] == "blob" {
				n, _ := strconv.Atoi(f[3])
				sizes[p] = n
			}
		}
	}
	return sizes
}

// grepBaseline: F's file, then every tracked file mentioning F's
// identifier as a whole word (git grep -w), in path order.
func grepBaseline(repo string, c commit, ident string, sizes map[string]int) []sized {
	out := []sized{{c.file, sizes[c.file]}}
	var files []string
	for _, l := range strings.Split(git(repo, "grep", "-l", "-w", "-F", "-e", ident, c.parent), "\n") {
		if p := strings.TrimPrefix(l, c.parent+":"); p != "" && p != c.file {
			files = append(files, p)
		}
	}
	sort.Strings(files)
	for _, p := range files {
		out = append(out, sized{p, sizes[p]})
	}
	return out
}
