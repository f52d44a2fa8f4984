package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// BenchmarkVerifyGOROOT is issue 15's CLI workload, built here from the Go
// toolchain every Go machine has: a git copy of $GOROOT/src with a doc of
// 1,000 pinned anchors to real declarations, then a commit that breaks 10
// of them (3 moved to another file, 3 moved and renamed, 2 renamed in
// place, 2 deleted). Each op runs the real binary, `clew-lsp verify --check
// --json`, and `ctags -R --languages=Go -f /dev/null .` over the same tree,
// alternately, and reports wall and cpu of both and their ratios, peak RSS,
// and the anchors left unchecked. Sub-benchmarks:
//
//   - history: the full repository, an empty table cache each run (cold);
//   - shallow: a depth-1 clone of it (no history to find pinned bodies in),
//     cold;
//   - warm: the full repository again, the table cache filled by one run
//     before the timed ones (a second verify on an unchanged tree);
//   - fresh10x: 500 anchors that are all fresh, on the repository and on
//     the same repository made 10× larger with unrelated files (nine more
//     copies of GOROOT/src under more/), cold; x1x is the 10× tree's cost
//     over the 1× tree's (flat in repository size is 1);
//   - fresh10x-anchors: the same with the docs narrowed to the anchor doc,
//     so the copies' own docs (and their mentions) are not checked; git
//     status over both trees is the reference for what listing 10× the
//     files costs.
//
// Run: go test ./cmd/clew-lsp -run XXX -bench VerifyGOROOT -benchtime 2x -timeout 60m
func BenchmarkVerifyGOROOT(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("no git")
	}
	bin := buildBinary(b)
	dir, want := gorootWorkload(b)
	shallow := filepath.Join(b.TempDir(), "shallow")
	gitRun(b, "", "clone", "-q", "--depth", "1", "file://"+dir, shallow)
	verify := []string{"verify", ".", "--check", "--json"}
	for _, c := range []struct {
		name, dir string
		warm      bool
	}{{"history", dir, false}, {"shallow", shallow, false}, {"warm", dir, true}} {
		b.Run(c.name, func(b *testing.B) {
			cache := "CLEW_LSP_CACHE_DIR=" + b.TempDir()
			if c.warm {
				timeProcEnv(b, c.dir, []string{cache}, bin, verify...)
			}
			var v, ctags proc
			unchecked := 0
			for b.Loop() {
				env := []string{cache}
				if !c.warm {
					env = []string{"CLEW_LSP_CACHE_DIR=" + b.TempDir()}
				}
				out, p := timeProcEnv(b, c.dir, env, bin, verify...)
				v.add(p)
				unchecked = checkStates(b, out, want)
				ctags.add(runCtags(b, c.dir))
			}
			report(b, "verify", v, ctags)
			b.ReportMetric(float64(unchecked), "unchecked")
		})
	}
	b.Run("fresh10x", func(b *testing.B) {
		one, ten := freshWorkloads(b, dir)
		benchFresh(b, one, ten, bin, verify)
	})
	// fresh10x-anchors: the same trees with the docs narrowed to ANCHORS.md
	// (an untracked .clew.yml for the run), so the nine copies' own docs
	// and their mentions are not checked: what the 500 anchors cost. The
	// reference is `git status` over the same trees (its listing of the
	// 10x tree grows as any listing must).
	b.Run("fresh10x-anchors", func(b *testing.B) {
		one, ten := freshWorkloads(b, dir)
		for _, d := range []string{one, ten} {
			cfg := filepath.Join(d, ".clew.yml")
			if err := os.WriteFile(cfg, []byte("docs:\n  include: [\"ANCHORS.md\"]\n"), 0o644); err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { os.Remove(cfg) })
		}
		benchFresh(b, one, ten, bin, verify)
		var g1, g10 proc
		for range 3 {
			_, p := timeProc(b, one, "git", "status", "--porcelain")
			g1.add(p)
			_, p = timeProc(b, ten, "git", "status", "--porcelain")
			g10.add(p)
		}
		b.ReportMetric(float64(g10.cpu)/float64(max(g1.cpu, time.Millisecond)), "git-status-cpu-10x-over-1x")
		b.ReportMetric(float64(g10.wall)/float64(g1.wall), "git-status-wall-10x-over-1x")
	})
}

// benchFresh times verify on the 1x and the 10x fresh trees alternately
// (each run cold: an empty table cache), ctags over the 1x tree, and
// reports the 10x tree's cost over the 1x tree's (flat is 1).
func benchFresh(b *testing.B, one, ten, bin string, verify []string) {
	var v1, v10, ctags proc
	for b.Loop() {
		for _, w := range []struct {
			dir string
			p   *proc
		}{{one, &v1}, {ten, &v10}} {
			out, p := timeProcEnv(b, w.dir, []string{"CLEW_LSP_CACHE_DIR=" + b.TempDir()}, bin, verify...)
			w.p.add(p)
			checkFresh(b, out, freshAnchors)
		}
		ctags.add(runCtags(b, one))
	}
	report(b, "1x", v1, ctags)
	n := float64(b.N)
	b.ReportMetric(v10.wall.Seconds()*1000/n, "10x-ms")
	b.ReportMetric(v10.cpu.Seconds()*1000/n, "10x-cpu-ms")
	b.ReportMetric(float64(v10.maxRSS)/(1<<20), "10x-MiB")
	b.ReportMetric(float64(v10.cpu)/float64(v1.cpu), "cpu-10x-over-1x")
	b.ReportMetric(float64(v10.wall)/float64(v1.wall), "wall-10x-over-1x")
}

// runCtags times the reference over dir (zero when ctags is missing).
func runCtags(b *testing.B, dir string) proc {
	if _, err := exec.LookPath("ctags"); err != nil {
		return proc{}
	}
	_, p := timeProc(b, dir, "ctags", "-R", "--languages=Go", "-f", "/dev/null", ".")
	return p
}

// report writes a run's totals per op, and its ratios to ctags.
func report(b *testing.B, name string, v, ctags proc) {
	n := float64(b.N)
	b.ReportMetric(v.wall.Seconds()*1000/n, name+"-ms")
	b.ReportMetric(v.cpu.Seconds()*1000/n, name+"-cpu-ms")
	b.ReportMetric(float64(v.maxRSS)/(1<<20), name+"-MiB")
	if ctags.wall > 0 {
		b.ReportMetric(ctags.wall.Seconds()*1000/n, "ctags-ms")
		b.ReportMetric(ctags.cpu.Seconds()*1000/n, "ctags-cpu-ms")
		b.ReportMetric(float64(v.wall)/float64(ctags.wall), "wall-x-ctags")
		b.ReportMetric(float64(v.cpu)/float64(ctags.cpu), "cpu-x-ctags")
	}
}

// freshAnchors is how many anchors the fresh workloads' doc holds.
const freshAnchors = 500

// freshWorkloads are two repositories whose doc holds the first 500 of the
// workload's anchors, all fresh: the workload's first commit, and the same
// with nine more copies of GOROOT/src committed under more/ (ten times the
// files, none of them anchored).
func freshWorkloads(b *testing.B, dir string) (string, string) {
	b.Helper()
	base := b.TempDir()
	if keep := os.Getenv("CLEW_BENCH_GOROOT"); keep != "" {
		base = keep + "-fresh"
		if _, err := os.Stat(filepath.Join(base, "10x", ".git", "clew-bench-done")); err == nil {
			return filepath.Join(base, "1x"), filepath.Join(base, "10x")
		}
		os.RemoveAll(base)
		os.MkdirAll(base, 0o755)
	}
	one, ten := filepath.Join(base, "1x"), filepath.Join(base, "10x")
	gitRun(b, "", "clone", "-q", "file://"+dir, one)
	gitRun(b, one, "checkout", "-q", "-B", "fresh", "HEAD~1")
	doc, err := os.ReadFile(filepath.Join(one, "ANCHORS.md"))
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.SplitAfter(string(doc), "\n")
	os.WriteFile(filepath.Join(one, "ANCHORS.md"), []byte(strings.Join(lines[:2+freshAnchors], "")), 0o644)
	gitRun(b, one, "commit", "-q", "-am", fmt.Sprintf("%d fresh anchors", freshAnchors))
	gitRun(b, "", "clone", "-q", "-b", "fresh", "file://"+one, ten)
	src := filepath.Join(runtime.GOROOT(), "src")
	for k := 1; k <= 9; k++ {
		to := filepath.Join(ten, "more", fmt.Sprintf("copy%d", k))
		os.MkdirAll(filepath.Dir(to), 0o755)
		if out, err := exec.Command("cp", "-r", src, to).CombinedOutput(); err != nil {
			b.Fatalf("cp: %v %s", err, out)
		}
	}
	gitRun(b, ten, "add", "-A")
	gitRun(b, ten, "commit", "-q", "-m", "nine unrelated copies of the tree")
	os.WriteFile(filepath.Join(ten, ".git", "clew-bench-done"), nil, 0o644)
	return one, ten
}

// checkFresh fails unless the report holds n anchors, all fresh.
func checkFresh(b *testing.B, out []byte, n int) {
	b.Helper()
	var rep struct {
		Anchors []struct {
			Line  int    `json:"line"`
			State string `json:"state"`
		} `json:"anchors"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		b.Fatalf("verify --json: %v\n%s", err, out[:min(len(out), 2000)])
	}
	if len(rep.Anchors) != n {
		b.Fatalf("%d anchors reported, want %d", len(rep.Anchors), n)
	}
	for _, a := range rep.Anchors {
		if a.State != string(anchors.StateFresh) {
			b.Errorf("line %d: %s, want fresh", a.Line, a.State)
		}
	}
}

type proc struct {
	wall, cpu time.Duration
	maxRSS    int64
}

func (p *proc) add(q proc) {
	p.wall += q.wall
	p.cpu += q.cpu
	p.maxRSS = max(p.maxRSS, q.maxRSS)
}

// timeProc runs a command in dir and measures it as /usr/bin/time does.
func timeProc(b *testing.B, dir, name string, args ...string) ([]byte, proc) {
	b.Helper()
	return timeProcEnv(b, dir, nil, name, args...)
}

// timeProcEnv is timeProc with variables added to the environment.
func timeProcEnv(b *testing.B, dir string, env []string, name string, args ...string) ([]byte, proc) {
	b.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if cmd.ProcessState == nil {
		b.Fatalf("%s: %v", name, err)
	}
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		b.Fatalf("%s: %v %s", name, err, errb.String())
	}
	p := proc{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		p.maxRSS = ru.Maxrss * 1024
	}
	return out.Bytes(), p
}

// checkStates fails on any verdict that does not start with want (doc line
// → state/reason; a method moved to another file of its type and renamed is
// `renamed` there, so moves and renames want the state only); an unchecked
// anchor is counted instead.
func checkStates(b *testing.B, out []byte, want map[int]string) int {
	b.Helper()
	var rep struct {
		Anchors []struct {
			Line   int    `json:"line"`
			State  string `json:"state"`
			Detail struct {
				Reason string `json:"reason"`
			} `json:"detail"`
		} `json:"anchors"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		b.Fatalf("verify --json: %v\n%s", err, out[:min(len(out), 2000)])
	}
	if len(rep.Anchors) != 1000 {
		b.Fatalf("%d anchors reported", len(rep.Anchors))
	}
	unchecked := 0
	for _, a := range rep.Anchors {
		got := a.State + "/" + a.Detail.Reason
		if a.State == string(anchors.StateUnchecked) {
			unchecked++
			continue
		}
		w, broken := want[a.Line]
		if !broken {
			w = "fresh/"
		}
		if !strings.HasPrefix(got, w) {
			b.Errorf("line %d: %s, want %s", a.Line, got, w)
		}
	}
	return unchecked
}

func buildBinary(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "clew-lsp")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v %s", err, out)
	}
	return bin
}

func gitRun(b *testing.B, dir string, args ...string) {
	b.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.com",
		"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git %v: %v %s", args, err, out)
	}
}

// gorootWorkload builds the repository and returns it with the expected
// verdict prefix of each broken anchor's doc line.
func gorootWorkload(b *testing.B) (string, map[int]string) {
	b.Helper()
	src := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(src); err != nil {
		b.Skip("no GOROOT/src")
	}
	// CLEW_BENCH_GOROOT keeps the built workload in a directory of your
	// choice between runs (it is rebuilt when the directory is empty).
	dir := filepath.Join(b.TempDir(), "goroot")
	if keep := os.Getenv("CLEW_BENCH_GOROOT"); keep != "" {
		dir = keep
		if w, err := os.ReadFile(filepath.Join(dir, ".git", "clew-bench-want.json")); err == nil {
			var want map[int]string
			if json.Unmarshal(w, &want) == nil {
				return dir, want
			}
		}
		os.RemoveAll(dir)
	}
	if out, err := exec.Command("cp", "-r", src, dir).CombinedOutput(); err != nil {
		b.Fatalf("cp: %v %s", err, out)
	}
	type target struct {
		path string
		src  []byte
		d    symbols.Decl
	}
	// Candidates: exported functions, methods and types of non-test files
	// outside testdata, with a body and a name unique in the whole tree
	// (so a moved one has one answer).
	var all []target
	names := map[string]int{}
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if e.IsDir() && e.Name() == "testdata" {
			return filepath.SkipDir
		}
		if e.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		text, err := os.ReadFile(p)
		if err != nil || len(text) > 1000000 { // over max_file_bytes: unchecked by design
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		for _, d := range symbols.Parse(symbols.Go, text, symbols.Options{}).Decls {
			names[d.Name]++
			if d.BodyHash == "" || d.Container != "" && d.Kind != "method" || d.Name[0] < 'A' || d.Name[0] > 'Z' {
				continue
			}
			switch d.Kind {
			case "function", "method", "struct", "interface":
				all = append(all, target{filepath.ToSlash(rel), text, d})
			}
		}
		return nil
	})
	var unique []target
	for _, t := range all {
		if names[t.d.Name] == 1 {
			unique = append(unique, t)
		}
	}
	sort.Slice(unique, func(i, j int) bool {
		if unique[i].path != unique[j].path {
			return unique[i].path < unique[j].path
		}
		return unique[i].d.StartByte < unique[j].d.StartByte
	})
	if len(unique) < 2000 {
		b.Fatalf("only %d candidate declarations", len(unique))
	}
	// 1,000 spread over the tree, at most one per file so edits never overlap.
	var picked []target
	seen := map[string]bool{}
	for i := 0; len(picked) < 1000 && i < len(unique)*3; i++ {
		t := unique[(i*7919)%len(unique)]
		if !seen[t.path] {
			seen[t.path] = true
			picked = append(picked, t)
		}
	}
	if len(picked) < 1000 {
		b.Fatalf("only %d files to anchor", len(picked))
	}
	var doc strings.Builder
	doc.WriteString("# Anchors into the Go tree\n\n")
	lines := map[int]target{}
	line := 3
	for _, t := range picked {
		doc.WriteString(anchors.FormatAnchor(anchors.Binding{Form: anchors.FormSymbol, Kind: t.d.Kind,
			QualifiedName: t.d.QualifiedName, Path: t.path, DeclHash: t.d.DeclHash, BodyHash: t.d.BodyHash}, true) + "\n")
		lines[line] = t
		line++
	}
	os.WriteFile(filepath.Join(dir, "ANCHORS.md"), []byte(doc.String()), 0o644)
	gitRun(b, dir, "init", "-q", "-b", "main")
	gitRun(b, dir, "add", "-A")
	gitRun(b, dir, "commit", "-q", "-m", "tree and anchors")

	// Break 10: every 100th anchor, functions and methods only (a type's
	// methods elsewhere would keep its name alive).
	want := map[int]string{}
	kinds := []string{"moved", "moved", "moved", "moved_and_renamed", "moved_and_renamed", "moved_and_renamed",
		"renamed", "renamed", "deleted", "deleted"}
	k, next := 0, 3
	for ln := 3; k < len(kinds) && ln < 3+len(picked); ln++ {
		t := lines[ln]
		if ln < next || t.d.Kind != "function" && t.d.Kind != "method" {
			continue
		}
		next = ln + 90
		decl := t.src[t.d.StartByte:t.d.EndByte]
		file := filepath.Join(dir, t.path)
		rest := append(append([]byte{}, t.src[:t.d.StartByte]...), t.src[t.d.EndByte:]...)
		renamed := append(append(append([]byte{}, t.src[t.d.StartByte:t.d.NameEndByte]...), "Renamed"...), t.src[t.d.NameEndByte:t.d.EndByte]...)
		moveTo := filepath.Join(dir, filepath.Dir(t.path), fmt.Sprintf("moved_here_%d.go", k))
		pkg := "package " + packageName(t.src) + "\n\n"
		switch kinds[k] {
		case "moved":
			os.WriteFile(file, rest, 0o644)
			os.WriteFile(moveTo, append([]byte(pkg), decl...), 0o644)
			want[ln] = "moved-renamed/"
		case "moved_and_renamed":
			os.WriteFile(file, rest, 0o644)
			os.WriteFile(moveTo, append([]byte(pkg), renamed...), 0o644)
			want[ln] = "moved-renamed/"
		case "renamed":
			os.WriteFile(file, append(append(append([]byte{}, t.src[:t.d.StartByte]...), renamed...), t.src[t.d.EndByte:]...), 0o644)
			want[ln] = "moved-renamed/"
		case "deleted":
			os.WriteFile(file, rest, 0o644)
			want[ln] = "lost/declaration_missing"
		}
		k++
	}
	if k < len(kinds) {
		b.Fatalf("only %d anchors broken", k)
	}
	gitRun(b, dir, "add", "-A")
	gitRun(b, dir, "commit", "-q", "-m", fmt.Sprintf("break %d anchors", k))
	w, _ := json.Marshal(want)
	os.WriteFile(filepath.Join(dir, ".git", "clew-bench-want.json"), w, 0o644)
	return dir, want
}

func packageName(src []byte) string {
	for _, l := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(l, "package ") {
			return strings.Fields(l)[1]
		}
	}
	return "p"
}
