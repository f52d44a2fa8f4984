// Command usefulness measures whether the dev context selects what a real
// change touched. For a seeded sample of first-parent, non-merge commits of
// a git repository that modify a code file F and at least one other file,
// it checks out the parent, compiles the context at F's first changed line
// and reports, at several budgets, the recall of the co-changed
// declarations and files and the share of selected tokens that fall in
// touched files — with the same figures, in the same run, for two
// baselines: F's file plus the files mentioning F's identifier (grep), and
// an Aider-style personalised-PageRank repository map. See README.md. It
// runs git (the CLI) and clones the parents into a temporary directory.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

var budgets = []uint64{2000, 8000, 24000}

var verbose bool

// missedAt is the budget whose misses -v prints (0: the largest).
var missedAt uint64

// spendOut, when set (-spend), collects where the context's tokens go.
var spendOut *spendTotals

// systems measured, in table order.
var systems = []string{"context", "grep", "repo map"}

func main() {
	repo := flag.String("repo", "", "a git directory (bare or not)")
	n := flag.Int("n", 30, "commits in the sample")
	seed := flag.Int64("seed", 1, "sample seed")
	maxFiles := flag.Int("max-files", 12, "skip commits modifying more files")
	name := flag.String("name", "", "repository name for the table (default: from -repo)")
	bs := flag.String("budgets", "2000,8000,24000", "token budgets, comma-separated")
	flag.BoolVar(&verbose, "v", false, "also print, per commit, the co-changed declarations and files the context missed (at -missed-at)")
	flag.Uint64Var(&missedAt, "missed-at", 0, "with -v, the budget whose misses are printed (default: the largest)")
	spend := flag.Bool("spend", false, "also print, per budget, where the context's tokens go: by the way entries were reached and by relevance")
	flag.Parse()
	if *repo == "" {
		fmt.Fprintln(os.Stderr, "usage: usefulness -repo GITDIR [-n 30] [-seed 1] [-max-files 12] [-name owner/repo]")
		os.Exit(2)
	}
	budgets = nil
	for _, f := range strings.Split(*bs, ",") {
		b, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil || b == 0 {
			fmt.Fprintf(os.Stderr, "usefulness: bad -budgets %q\n", *bs)
			os.Exit(2)
		}
		budgets = append(budgets, b)
	}
	if *name == "" {
		*name = filepath.Base(*repo)
	}
	cands := candidates(*repo, *maxFiles)
	rand.New(rand.NewSource(*seed)).Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	tot := newTotals()
	if *spend {
		spendOut = newSpendTotals()
	}
	var ctxTime time.Duration
	for _, c := range cands {
		if tot.commits == *n {
			break
		}
		readHunks(*repo, &c)
		r, took, ok := measure(*repo, c)
		if !ok {
			continue
		}
		ctxTime += took
		tot.add(r)
		if spendOut != nil {
			for bi, cc := range r.answers {
				spendOut.add(bi, cc, r.spans, r.want, r.touched)
			}
		}
		fmt.Fprintf(os.Stderr, "%s %s:%d decls %d: %s\n", c.sha[:10], c.file, c.line, r.decls, r)
	}
	head := strings.TrimSpace(git(*repo, "rev-parse", "--short=12", "HEAD"))
	fmt.Printf("%s at `%s`: %d commits (seed %d), %d with co-changed declarations (%d declarations); context compile mean %.0f ms\n\n",
		*name, head, tot.commits, *seed, tot.withDecls, tot.declCount, float64(ctxTime.Milliseconds())/float64(max(3*tot.commits, 1)))
	tot.print(os.Stdout)
	if spendOut != nil {
		spendOut.print(os.Stdout, tot.commits)
	}
}

// score is one system at one budget on one commit.
type score struct {
	declRecall, declBySymbol float64 // share of co-changed declarations selected (any way / as a symbol entry)
	declByOutline            float64 // and given only as a signature line (an outline entry; the map's lines)
	fileRecall, share, used  float64
}

type result struct {
	decls  int
	scores [][]score // system × budget
	// for -spend: the context's answers per budget and what they are scored against
	answers []devcontext.CompiledContext
	want    []decl
	touched map[string]bool
	spans   *spans
}

func (r result) String() string {
	var b strings.Builder
	for s, row := range r.scores {
		fmt.Fprintf(&b, "%s[", systems[s])
		for i, x := range row {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%.2f/%.2f/%.2f/%.0f", x.declRecall, x.fileRecall, x.share, x.used)
		}
		b.WriteString("] ")
	}
	return b.String()
}

// checkout clones the repository (hard-linked objects, a full git
// directory: the context reads history with go-git) and checks out the
// parent, so the context sees the parent's tree and its history only.
func checkout(repo, sha string) (string, error) {
	dir, err := os.MkdirTemp("", "usefulness-")
	if err != nil {
		return "", err
	}
	for _, args := range [][]string{
		{"clone", "-q", "--no-checkout", repo, dir},
		{"-C", dir, "-c", "advice.detachedHead=false", "checkout", "-q", "--detach", sha},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			os.RemoveAll(dir)
			return "", fmt.Errorf("git %v: %v: %s", args, err, out)
		}
	}
	return dir, nil
}

func measure(repo string, c commit) (result, time.Duration, bool) {
	if c.line == 0 {
		return result{}, 0, false
	}
	dir, err := checkout(repo, c.parent)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return result{}, 0, false
	}
	defer os.RemoveAll(dir)
	snap, err := disk.Load(dir)
	if err != nil {
		return result{}, 0, false
	}
	want := changedDecls(snap, c)
	touched := map[string]bool{c.file: true}
	for _, o := range c.others {
		touched[o] = true
	}
	res := result{decls: len(want), scores: make([][]score, len(systems)), want: want, touched: touched, spans: newSpans(snap)}
	ident := ""
	var took time.Duration
	for _, b := range budgets {
		b := b
		t0 := time.Now()
		cc, err := contextmap.Compile(context.Background(), snap, devcontext.Request{
			Position: &devcontext.Position{Path: c.file, Line: c.line}, BudgetTokens: &b})
		took += time.Since(t0)
		if err != nil && len(cc.Seeds) == 0 {
			return result{}, 0, false
		}
		if ident == "" && len(cc.Seeds) > 0 {
			ident = lastName(cc.Seeds[0].URI)
		}
		res.scores[0] = append(res.scores[0], scoreContext(cc, res.spans, want, c.others, touched))
		if spendOut != nil {
			res.answers = append(res.answers, cc)
		}
		if verbose && (b == missedAt || missedAt == 0 && b == budgets[len(budgets)-1]) {
			printMissed(c, cc, res.spans, want)
		}
	}
	if ident == "" {
		return result{}, 0, false
	}
	files := trackedFiles(repo, c.parent)
	base := grepBaseline(repo, c, ident, files)
	rm := buildRepoMap(snap, sortedKeys(files), c.file, ident)
	for _, b := range budgets {
		res.scores[1] = append(res.scores[1], scoreWhole(base, b, want, c.others, touched))
		res.scores[2] = append(res.scores[2], scoreMap(rm, b, want, c.others, touched))
	}
	return res, took, true
}

func scoreContext(cc devcontext.CompiledContext, sp *spans, want []decl, others []string, touched map[string]bool) score {
	var in, all uint64
	got := map[string]bool{}
	for _, e := range cc.Selected {
		all += e.CostTokens
		if p := e.Provenance.Path; touched[p] {
			in += e.CostTokens
			got[p] = true
		}
	}
	s := score{fileRecall: recall(got, others), share: ratio(in, all), used: float64(all)}
	// shown: any entry shows it (in full or as its signature line); own:
	// a symbol or test entry of its own; outline: an outline entry of it.
	s.declRecall, s.declBySymbol = declRecall(want, func(d decl) (bool, bool) {
		shown, own := false, false
		for _, e := range cc.Selected {
			if ok, _ := sp.covers(e, d); ok {
				shown = true
				own = own || (e.Kind == devcontext.KindSymbol || e.Kind == devcontext.KindTest) && e.Title == d.qname
			}
		}
		return shown, own
	})
	s.declByOutline, _ = declRecall(want, func(d decl) (bool, bool) {
		for _, e := range cc.Selected {
			if ok, full := sp.covers(e, d); ok && !full {
				return true, false
			}
		}
		return false, false
	})
	return s
}

func scoreWhole(files []sized, b uint64, want []decl, others []string, touched map[string]bool) score {
	var in, all uint64
	got, whole := map[string]bool{}, map[string]bool{}
	for _, f := range files {
		t := devcontext.TokensFor(f.size)
		if all+t > b && all > 0 {
			continue
		}
		all += t
		whole[f.path] = true
		if touched[f.path] {
			in += t
			got[f.path] = true
		}
	}
	s := score{fileRecall: recall(got, others), share: ratio(in, all), used: float64(all)}
	s.declRecall, _ = declRecall(want, func(d decl) (bool, bool) { return whole[d.path], false })
	return s
}

func scoreMap(m *repoMap, b uint64, want []decl, others []string, touched map[string]bool) score {
	shown, files, used := m.fill(b)
	var in uint64
	got := map[string]bool{}
	for p, t := range files {
		if touched[p] {
			in += t
			got[p] = true
		}
	}
	s := score{fileRecall: recall(got, others), share: ratio(min(in, used), used), used: float64(used)}
	s.declRecall, s.declBySymbol = declRecall(want, func(d decl) (bool, bool) { return shown[d.key()], shown[d.key()] && d.path != m.whole })
	s.declByOutline = s.declBySymbol // the map's own entries are signature lines
	return s
}

// declRecall: the share of want that has(d) selects, and that it selects
// as a declaration of its own (not inside a whole file). -1 when want is empty.
func declRecall(want []decl, has func(decl) (bool, bool)) (float64, float64) {
	if len(want) == 0 {
		return -1, -1
	}
	n, m := 0, 0
	for _, d := range want {
		any, own := has(d)
		if any {
			n++
		}
		if own {
			m++
		}
	}
	return float64(n) / float64(len(want)), float64(m) / float64(len(want))
}

func lastName(uri string) string {
	s := uri[strings.LastIndex(uri, "/")+1:]
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndex(s, "."); i >= 0 {
		s = s[i+1:]
	}
	return s
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

// printMissed lists the co-changed declarations and files the answer left out.
func printMissed(c commit, cc devcontext.CompiledContext, sp *spans, want []decl) {
	inFile := map[string]bool{}
	for _, e := range cc.Selected {
		inFile[e.Provenance.Path] = true
	}
	for _, d := range want {
		shown := false
		for _, e := range cc.Selected {
			if ok, _ := sp.covers(e, d); ok {
				shown = true
				break
			}
		}
		if !shown {
			fmt.Fprintf(os.Stderr, "  missed %s %s (%s)\n", d.path, d.qname, strings.TrimSpace(d.sig))
		}
	}
	for _, o := range c.others {
		if !inFile[o] {
			fmt.Fprintf(os.Stderr, "  missed file %s\n", o)
		}
	}
}
