// Command usefulness measures whether the dev context selects what a real
// change touched. For a seeded sample of first-parent, non-merge commits of
// a git repository that change a Go function F and at least one other file,
// it compiles the context at F (its first changed line) over the parent's
// tree and reports, at several budgets, the recall of the other files the
// commit touched and the share of selected tokens that fall in touched
// files — with the same figures for a baseline: F's file plus the files
// mentioning F's identifier, whole, in path order, within the budget.
// See README.md. It runs git (the CLI) and writes the parent trees to a
// temporary directory.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

func main() {
	repo := flag.String("repo", "", "a git directory (bare or not)")
	n := flag.Int("n", 30, "commits in the sample")
	seed := flag.Int64("seed", 1, "sample seed")
	maxFiles := flag.Int("max-files", 12, "skip commits touching more files")
	flag.Parse()
	if *repo == "" {
		fmt.Fprintln(os.Stderr, "usage: usefulness -repo GITDIR [-n 30] [-seed 1]")
		os.Exit(2)
	}
	budgets := []uint64{2000, 8000, 24000}
	cands := candidates(*repo, *maxFiles)
	rand.New(rand.NewSource(*seed)).Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	type agg struct{ recall, share, used float64 }
	ctxAgg := make([]agg, len(budgets))
	baseAgg := make([]agg, len(budgets))
	done := 0
	for _, c := range cands {
		if done == *n {
			break
		}
		r, ok := measure(*repo, c, budgets)
		if !ok {
			continue
		}
		done++
		for i := range budgets {
			ctxAgg[i].recall += r.ctx[i].recall
			ctxAgg[i].share += r.ctx[i].share
			ctxAgg[i].used += r.ctx[i].used
			baseAgg[i].recall += r.base[i].recall
			baseAgg[i].share += r.base[i].share
			baseAgg[i].used += r.base[i].used
		}
		fmt.Fprintf(os.Stderr, "%s %s: ctx %v base %v\n", c.sha[:10], c.file, r.ctx, r.base)
	}
	fmt.Printf("repository %s, %d commits (seed %d)\n\n", filepath.Base(filepath.Dir(*repo))+"/"+filepath.Base(*repo), done, *seed)
	fmt.Println("| budget | context file recall | context tokens in touched files | context mean used | baseline file recall | baseline tokens in touched files | baseline mean used |")
	fmt.Println("| --- | --- | --- | --- | --- | --- | --- |")
	for i, b := range budgets {
		d := float64(max(done, 1))
		fmt.Printf("| %dk | %.0f%% | %.0f%% | %.0f | %.0f%% | %.0f%% | %.0f |\n", b/1000,
			100*ctxAgg[i].recall/d, 100*ctxAgg[i].share/d, ctxAgg[i].used/d,
			100*baseAgg[i].recall/d, 100*baseAgg[i].share/d, baseAgg[i].used/d)
	}
}

type commit struct {
	sha, parent, file string
	others            []string // other files the commit touched (existing at the parent)
	line              int      // first changed line of file, at the parent
}

func git(dir string, args ...string) string {
	out, err := exec.Command("git", append([]string{"--git-dir", dir}, args...)...).Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// candidates: first-parent non-merge commits whose first modified .go file
// (not a test) has a changed line, and that touch another file too.
func candidates(repo string, maxFiles int) []commit {
	var out []commit
	for _, l := range strings.Split(git(repo, "log", "--first-parent", "--no-merges", "--format=%H %P", "HEAD"), "\n") {
		f := strings.Fields(l)
		if len(f) != 2 {
			continue
		}
		var files []string
		for _, row := range strings.Split(git(repo, "diff", "--name-status", "--no-renames", f[1], f[0]), "\n") {
			if cols := strings.Fields(row); len(cols) == 2 && cols[0] == "M" {
				files = append(files, cols[1])
			}
		}
		if len(files) < 2 || len(files) > maxFiles {
			continue
		}
		c := commit{sha: f[0], parent: f[1]}
		for _, p := range files {
			if c.file == "" && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
				c.file = p
			} else {
				c.others = append(c.others, p)
			}
		}
		if c.file == "" {
			continue
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].sha < out[j].sha }) // the sample depends on the seed only
	return out
}

var hunkRE = regexp.MustCompile(`^@@ -(\d+)`)

type score struct{ recall, share, used float64 }

func (s score) String() string { return fmt.Sprintf("%.2f/%.2f/%.0f", s.recall, s.share, s.used) }

type result struct{ ctx, base []score }

func measure(repo string, c commit, budgets []uint64) (result, bool) {
	for _, l := range strings.Split(git(repo, "diff", "-U0", c.parent, c.sha, "--", c.file), "\n") {
		if m := hunkRE.FindStringSubmatch(l); m != nil {
			c.line, _ = strconv.Atoi(m[1])
			c.line = max(c.line, 1)
			break
		}
	}
	if c.line == 0 {
		return result{}, false
	}
	dir, err := os.MkdirTemp("", "usefulness-")
	if err != nil {
		return result{}, false
	}
	defer os.RemoveAll(dir)
	arch := exec.Command("git", "--git-dir", repo, "archive", c.parent)
	tar := exec.Command("tar", "-x", "-C", dir)
	tar.Stdin, _ = arch.StdoutPipe()
	if tar.Start() != nil || arch.Run() != nil || tar.Wait() != nil {
		return result{}, false
	}
	snap, err := disk.Load(dir)
	if err != nil {
		return result{}, false
	}
	touched := map[string]bool{c.file: true}
	for _, o := range c.others {
		touched[o] = true
	}
	var res result
	ident := ""
	for _, b := range budgets {
		b := b
		cc, err := contextmap.Compile(context.Background(), snap, devcontext.Request{
			Position: &devcontext.Position{Path: c.file, Line: c.line}, BudgetTokens: &b})
		if err != nil && len(cc.Seeds) == 0 {
			return result{}, false
		}
		if ident == "" && len(cc.Seeds) > 0 {
			ident = lastName(cc.Seeds[0].URI)
		}
		var in, all uint64
		got := map[string]bool{}
		for _, e := range cc.Selected {
			all += e.CostTokens
			if touched[e.Provenance.Path] {
				in += e.CostTokens
				got[e.Provenance.Path] = true
			}
		}
		res.ctx = append(res.ctx, score{recall(got, c.others), ratio(in, all), float64(all)})
	}
	if ident == "" {
		return result{}, false
	}
	base := baseline(repo, c, ident)
	for _, b := range budgets {
		var in, all uint64
		got := map[string]bool{}
		for _, f := range base {
			t := devcontext.TokensFor(f.size)
			if all+t > b {
				continue
			}
			all += t
			if touched[f.path] {
				in += t
				got[f.path] = true
			}
		}
		res.base = append(res.base, score{recall(got, c.others), ratio(in, all), float64(all)})
	}
	return res, true
}

func lastName(uri string) string {
	s := uri[strings.LastIndex(uri, "/")+1:]
	if i := strings.LastIndex(s, "."); i >= 0 {
		s = s[i+1:]
	}
	return s
}

type sized struct {
	path string
	size int
}

// baseline: F's file, then every tracked file mentioning F's identifier as
// a whole word (git grep -w), in path order.
func baseline(repo string, c commit, ident string) []sized {
	sizes := map[string]int{}
	for _, l := range strings.Split(git(repo, "ls-tree", "-r", "-l", c.parent), "\n") {
		if f := strings.Fields(l); len(f) >= 5 {
			n, _ := strconv.Atoi(f[3])
			sizes[strings.Join(f[4:], " ")] = n
		}
	}
	out := []sized{{c.file, sizes[c.file]}}
	grep := git(repo, "grep", "-l", "-w", "-F", "-e", ident, c.parent)
	var files []string
	for _, l := range strings.Split(grep, "\n") {
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

func recall(got map[string]bool, want []string) float64 {
	if len(want) == 0 {
		return 0
	}
	n := 0
	for _, w := range want {
		if got[w] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

func ratio(a, b uint64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
