package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// `clew-lsp verify --check` against one `git grep -c -E .` pass over the
// same tracked files, both timed in the same loop. Reported per op:
// verify-ms, gitgrep-ms and ratio.
//
// Shapes:
//   - multivac: a law shaped like multivac's own (119 rows, 806 legs —
//     present 57%, unique 33%, absent 7%, count, two each — long prose
//     statements, each leg naming one file, a few braces, exclusions,
//     escaped slashes and one `i` flag) over a brain==code repository of
//     650 files. Goal: ratio ≤ 1.5.
//   - wide: 1,000 legs over directory globs (`src/**/*.ts`,
//     `{src,pkg}/**/*.ts !…`, `*:**.md`, …), each with its own regex, every
//     mode, over 3,000 files. Goal: ratio ≤ 2.
//   - sibling: the multivac law over a sibling read at origin/main (blobs
//     through go-git from a packed repository, as a clone is); git grep
//     runs in the sibling's work tree.
//
// Run: go test ./cmd/clew-lsp -run XXX -bench Claims -benchtime 20x

// benchRepo is a generated code base: its files and, per kind, the
// indexes of the files of that kind (so legs can name files that hold
// what they look for).
type benchRepo struct {
	files map[string]string
	ts    []int    // index of every .ts file
	core  []int    // of src/core/*.ts
	sql   []int    // of the .sql files
	docs  []int    // of docs/*.md
	paths []string // sorted
}

// benchCode writes n files: TypeScript sources (80 functions each),
// SQL migrations, tests and docs.
func benchCode(n int) *benchRepo {
	br := &benchRepo{files: map[string]string{}}
	dirs := []string{"src/core", "src/lib", "src/api", "pkg/util", "src/core", "docs", "test", "db/migrations", "src/lib", "pkg/util"}
	for i := 0; i < n; i++ {
		dir := dirs[i%len(dirs)]
		switch dir {
		case "docs":
			br.docs = append(br.docs, i)
			br.files[fmt.Sprintf("%s/page%04d.md", dir, i)] = fmt.Sprintf("# Page %d\n\nThe symbol Widget%d is documented here.\n\nSee the guide for the rest.\n", i, i)
		case "db/migrations":
			br.sql = append(br.sql, i)
			br.files[fmt.Sprintf("%s/%04d.sql", dir, i)] = fmt.Sprintf("-- migration %d\nCREATE TABLE t%d (\n  id bigint PRIMARY KEY\n);\nGRANT\nSELECT ON t%d TO app_role;\n", i, i, i)
		case "test":
			var b strings.Builder
			fmt.Fprintf(&b, "import { fn%d_0 } from '../src/x';\n", i)
			for j := 0; j < 20; j++ {
				fmt.Fprintf(&b, "test('case %d of %d', () => { expect(fn%d_%d(1)).toBe(%d); });\n", j, i, i, j, j+1)
			}
			br.files[fmt.Sprintf("%s/file%04d.test.ts", dir, i)] = b.String()
		default:
			br.ts = append(br.ts, i)
			if dir == "src/core" {
				br.core = append(br.core, i)
			}
			var b strings.Builder
			fmt.Fprintf(&b, "// file %d\nimport { helper } from './helper';\n", i)
			for j := 0; j < 80; j++ {
				fmt.Fprintf(&b, "export function fn%d_%d(x: number): number { return helper(x) + %d; }\n", i, j, j)
			}
			fmt.Fprintf(&b, "export const Widget%d = { limits: true, path: \"a/b\" };\n", i)
			br.files[fmt.Sprintf("%s/file%04d.ts", dir, i)] = b.String()
		}
	}
	br.paths = wstest.Keys(br.files)
	sort.Strings(br.paths)
	return br
}

func (br *benchRepo) tsPath(i int) string {
	for _, p := range br.paths {
		if strings.HasSuffix(p, fmt.Sprintf("/file%04d.ts", i)) && !strings.HasSuffix(p, ".test.ts") {
			return p
		}
	}
	panic(i)
}

// statement is a long prose cell, as multivac's law has (about 2 KB).
func statement(r int) string {
	return strings.Repeat(fmt.Sprintf("The engine keeps claim %d honest, amended on review; ", r), 36)
}

// multivacLaw: 119 rows and 806 legs with multivac's mode mix, each leg
// over one file of key.
func multivacLaw(key string, br *benchRepo) string {
	var law strings.Builder
	law.WriteString(lawHeader)
	g := 0
	for r := 0; r < 119; r++ {
		fmt.Fprintf(&law, "| MV-%03d | %s | published | active | 2026-01-01 | x |\n", r, statement(r))
		legs := 6
		if r < 92 {
			legs = 7 // 119×6 + 92 = 806
		}
		for k := 0; k < legs; k++ {
			i := br.ts[(g*37)%len(br.ts)]
			file := br.tsPath(i)
			var spec string
			switch b := g % 100; {
			case g == 400 || g == 800:
				spec = fmt.Sprintf("%s:src/core/*.ts /limits: true/ each", key)
			case g == 3: // the one `i` flag
				spec = fmt.Sprintf("%s:%s /EXPORT FUNCTION FN%d_%d\\(/i", key, file, i, g%80)
			case b < 57 && g%30 == 7:
				spec = fmt.Sprintf("%s:%s /path: \"a\\/b\"/", key, file) // an escaped slash
			case b < 57 && g%60 == 11:
				spec = fmt.Sprintf("%s:{%s,lib/none.ts} /return helper\\(x\\) \\+ %d;/", key, file, g%80) // braces
			case b < 57:
				spec = fmt.Sprintf("%s:%s /export function fn%d_%d\\(/", key, file, i, g%80)
			case b < 90:
				spec = fmt.Sprintf("%s:%s /export const Widget%d =/ unique", key, file, i)
			case b < 97 && g%12 == 2:
				spec = fmt.Sprintf("%s:src/**/*.ts !%s:src/api/** !test/** /eval[[:space:]]*\\(/ absent", key, key) // exclusions
			case b < 97:
				spec = fmt.Sprintf("%s:%s /console\\.log\\(/ absent", key, file)
			default:
				spec = fmt.Sprintf("%s:%s /return helper\\(x\\)/ count=80", key, file)
			}
			fmt.Fprintf(&law, "<!-- @anchor MV-%03d %s -->\n", r, spec)
			g++
		}
	}
	return law.String()
}

// wideLaw: 100 rows × 10 legs over directory globs, each with its own
// regex, every mode.
func wideLaw(br *benchRepo) string {
	var law strings.Builder
	law.WriteString(lawHeader)
	for r := 0; r < 100; r++ {
		fmt.Fprintf(&law, "| MV-%03d | statement %d | published | active | 2026-01-01 | x |\n", r, r)
		for k := 0; k < 10; k++ {
			g := r*10 + k
			var spec string
			switch k {
			case 0:
				spec = fmt.Sprintf("brain:src/**/*.ts /export function fn[[:digit:]]+_%d\\(/", g%80)
			case 1:
				spec = fmt.Sprintf("brain:{src,pkg}/**/*.ts !brain:src/api/** /legacy_call_%d\\(/ absent", g)
			case 2:
				i := br.core[g%len(br.core)]
				spec = fmt.Sprintf("brain:src/core/** /export const Widget%d =/ unique", i)
			case 3:
				i := br.sql[g%len(br.sql)]
				spec = fmt.Sprintf("brain:db/migrations/*.sql /grant[^;]*on[[:space:]]+t%d[^[:digit:]]/i unique", i)
			case 4:
				spec = "brain:src/core/*.ts /limits: true/ each"
			case 5:
				spec = fmt.Sprintf("brain:src/**/*.ts !src/lib/** /DEBUG_%d/ each!", g)
			case 6:
				spec = fmt.Sprintf("*:**.md !docs/page000[0-4].md /password_%d=/ absent", g)
			case 7:
				spec = fmt.Sprintf("brain:src/*/file*.{ts,tsx} /helper\\(x\\) \\+ %d;/", g%80)
			case 8:
				spec = fmt.Sprintf("brain:pkg/**/*.ts /fn[[:digit:]]+_%d\\(x: number\\)/ present", g%80)
			default:
				spec = fmt.Sprintf("brain:docs/*.md /widget%d is/i", br.docs[g%len(br.docs)])
			}
			fmt.Fprintf(&law, "<!-- @anchor MV-%03d %s -->\n", r, spec)
		}
	}
	return law.String()
}

func benchVerifyVsGitGrep(b *testing.B, verifyDir, grepDir, claims string) {
	b.Helper()
	var out strings.Builder
	if code := run(context.Background(), []string{"verify", verifyDir, "--check"}, &out, io.Discard); code != 0 {
		b.Fatalf("the generated law must hold: exit %d\n%s", code, out.String()[max(0, out.Len()-3000):])
	}
	if !strings.Contains(out.String(), claims) {
		b.Fatalf("report lacks %q:\n%s", claims, out.String())
	}
	grep := func() {
		cmd := exec.Command("git", "-C", grepDir, "grep", "-c", "-E", ".")
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
	// The same run as a process of its own, start included: what a user
	// or a CI job pays, where the in-process run above has the binary's
	// one-time setup already done.
	proc := func() {
		cmd := exec.Command(os.Args[0], "--", "verify", verifyDir, "--check")
		cmd.Env = append(os.Environ(), cliEnv+"=1")
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
	var tv, tg, cv, cg, tp, cp time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		self0 := selfCPU()
		t0 := time.Now()
		// Labelled so a -cpuprofile can be cut to the verify runs
		// (go tool pprof -tagfocus=run=verify), goroutines included.
		pprof.Do(context.Background(), pprof.Labels("run", "verify"), func(ctx context.Context) {
			run(ctx, []string{"verify", verifyDir, "--check"}, io.Discard, io.Discard)
		})
		t1 := time.Now()
		self1, kids1 := selfCPU(), childCPU()
		grep()
		tg += time.Since(t1)
		tv += t1.Sub(t0)
		cv += self1 - self0
		cg += childCPU() - kids1
		kids2, t2 := childCPU(), time.Now()
		proc()
		tp += time.Since(t2)
		cp += childCPU() - kids2
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(tv.Microseconds())/1000/n, "verify-ms/op")
	b.ReportMetric(float64(tg.Microseconds())/1000/n, "gitgrep-ms/op")
	b.ReportMetric(float64(tv)/float64(tg), "ratio")
	// CPU time (user + system, all threads) is what a loaded machine
	// distorts least: the wall ratio is the goal, this one says whether a
	// change did less work.
	b.ReportMetric(float64(cv.Microseconds())/1000/n, "verify-cpu-ms/op")
	b.ReportMetric(float64(cg.Microseconds())/1000/n, "gitgrep-cpu-ms/op")
	b.ReportMetric(float64(cv)/float64(cg), "cpu-ratio")
	b.ReportMetric(float64(tp.Microseconds())/1000/n, "process-ms/op")
	b.ReportMetric(float64(cp.Microseconds())/1000/n, "process-cpu-ms/op")
	b.ReportMetric(float64(tp)/float64(tg), "process-ratio")
	b.ReportMetric(float64(cp)/float64(cg), "process-cpu-ratio")
}

// benchDir is where a shape's repository is built: a temporary directory,
// or, with CLEW_BENCH_CLAIMS_DIR set, that directory's sub-directory
// named for the shape, kept after the run so the same command can be
// timed from a shell (hyperfine, /usr/bin/time -v) side by side with
// git grep. An existing one is replaced.
func benchDir(b *testing.B, shape string) string {
	b.Helper()
	keep := os.Getenv("CLEW_BENCH_CLAIMS_DIR")
	if keep == "" {
		return b.TempDir()
	}
	dir := filepath.Join(keep, shape)
	if err := os.RemoveAll(dir); err != nil {
		b.Fatal(err)
	}
	return dir
}

func BenchmarkClaimsVerify(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not installed: no yardstick")
	}
	const multivacClaims = "119 claims · 119 anchored (100%)"

	b.Run("multivac", func(b *testing.B) {
		code := benchCode(649) // + the law's two files: 651
		r := wstest.NewAt(b, benchDir(b, "multivac"))
		r.Write(code.files)
		r.Write(map[string]string{".multivac/config.yml": "repos: {brain: .}\n", ".multivac/invariants.md": multivacLaw("brain", code)})
		r.Commit("init")
		benchVerifyVsGitGrep(b, r.Dir, r.Dir, multivacClaims)
	})
	b.Run("wide", func(b *testing.B) {
		code := benchCode(3000)
		r := wstest.NewAt(b, benchDir(b, "wide"))
		r.Write(code.files)
		r.Write(map[string]string{".multivac/config.yml": "repos: {brain: .}\n", ".multivac/invariants.md": wideLaw(code)})
		r.Commit("init")
		benchVerifyVsGitGrep(b, r.Dir, r.Dir, "100 claims · 100 anchored (100%)")
	})
	b.Run("sibling", func(b *testing.B) {
		code := benchCode(650)
		root := benchDir(b, "sibling")
		api := wstest.NewAt(b, filepath.Join(root, "api"))
		api.Write(code.files)
		api.Commit("init")
		api.Publish()
		// A cloned sibling keeps its objects in a pack, not loose.
		if err := exec.Command("git", "-C", api.Dir, "repack", "-adq").Run(); err != nil {
			b.Fatal(err)
		}
		brain := wstest.NewAt(b, filepath.Join(root, "brain"))
		brain.Write(map[string]string{".multivac/config.yml": "repos: {api: ../api}\n", ".multivac/invariants.md": multivacLaw("api", code)})
		brain.Commit("init")
		benchVerifyVsGitGrep(b, brain.Dir, api.Dir, multivacClaims)
	})
}

// The multivac-shaped law really has multivac's shape.
func TestBenchLawShape(t *testing.T) {
	law := multivacLaw("brain", benchCode(649))
	modes := map[string]int{}
	for _, l := range strings.Split(law, "\n") {
		if !strings.HasPrefix(l, "<!-- @anchor") {
			continue
		}
		f := strings.Fields(strings.TrimSuffix(l, " -->"))
		last := f[len(f)-1]
		switch {
		case strings.HasPrefix(last, "count="):
			modes["count"]++
		case last == "unique" || last == "absent" || last == "each":
			modes[last]++
		default:
			modes["present"]++
		}
	}
	total := 0
	for _, n := range modes {
		total += n
	}
	if total != 806 || modes["present"] < 400 || modes["unique"] < 230 || modes["absent"] < 40 || modes["count"] < 10 || modes["each"] != 2 {
		t.Errorf("%d legs, modes %v", total, modes)
	}
	if n := len(law); n < 200_000 {
		t.Errorf("law is %d bytes; multivac's is about 250 KB", n)
	}
}
