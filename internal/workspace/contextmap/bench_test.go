package contextmap_test

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// Benchmarks of `clew-lsp context` (issue 5). Goals: ≤ 50 ms at a position
// in examples/tour, ≤ 300 ms in a generated 3,000-file workspace.
//
//   - cold: a new snapshot with empty caches (disk.Load, then Context): what
//     one CLI invocation costs after the process started.
//   - snapshot: a new snapshot of the same Load (WithOverlays), sharing the
//     parsed tables and lexical scans: the server after an edit.
//   - warm: the same request again on the same snapshot.

// cpuTime is the process's user and system time: on a shared machine the
// wall clock measures the neighbours too, so the benchmarks report both.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, since time.Duration) {
	b.ReportMetric(float64((cpuTime()-since).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

func benchContext(b *testing.B, dir string, req devcontext.Request) {
	ctx := context.Background()
	run := func(b *testing.B, snap *workspace.Snapshot) devcontext.CompiledContext {
		c, err := contextmap.Compile(ctx, snap, req)
		if err != nil {
			b.Fatal(err)
		}
		return c
	}
	load := func(b *testing.B) *workspace.Snapshot {
		snap, err := disk.Load(dir)
		if err != nil {
			b.Fatal(err)
		}
		return snap
	}
	b.Run("cold", func(b *testing.B) {
		var c devcontext.CompiledContext
		cpu := cpuTime()
		for b.Loop() {
			c = run(b, load(b))
		}
		reportCPU(b, cpu)
		b.ReportMetric(float64(len(c.Selected)), "selected")
	})
	b.Run("snapshot", func(b *testing.B) {
		snap := load(b)
		run(b, snap)
		cpu := cpuTime()
		for b.Loop() {
			run(b, snap.WithOverlays(nil))
		}
		reportCPU(b, cpu)
	})
	b.Run("warm", func(b *testing.B) {
		snap := load(b)
		run(b, snap)
		cpu := cpuTime()
		for b.Loop() {
			run(b, snap)
		}
		reportCPU(b, cpu)
	})
}

// BenchmarkContextTour compiles inside Cache.Lookup in examples/tour.
func BenchmarkContextTour(b *testing.B) {
	r := wstest.New(b)
	r.CopyFrom(tourDir)
	r.Commit("tour")
	benchContext(b, r.Dir, at("resolver/resolve.go", 24))
}

// genContextRepo writes a Go module of nFiles files: packages of 30 files,
// a quarter of the files with a _test.go beside them, ~6 functions a file
// that call functions of their package and, now and then, another
// package's; docs with 200 pinned anchors; AGENTS.md and a README.
func genContextRepo(b testing.TB, nFiles int) *wstest.Repo {
	b.Helper()
	r := wstest.New(b)
	files := map[string]string{
		"go.mod":    "module example.com/gen\n\ngo 1.22\n",
		"AGENTS.md": "# Agents\n\nRun the tests.\n",
		"README.md": "# gen\n\nA generated workspace; Compute0_1 is where it starts.\n",
	}
	const perPkg = 30
	fn := func(i, j int) string { return fmt.Sprintf("Compute%d_%d", i, j) }
	n := 0
	for i := 0; n < nFiles-40; i++ {
		pkg := i / perPkg
		var sb strings.Builder
		fmt.Fprintf(&sb, "package p%d\n\nimport \"fmt\"\n\n", pkg)
		for j := 0; j < 6; j++ {
			fmt.Fprintf(&sb, "// %s computes step %d of file %d.\nfunc %s(x int) int {\n", fn(i, j), j, i, fn(i, j))
			fmt.Fprintf(&sb, "\ty := x*%d + %d\n\tfor k := 0; k < %d; k++ {\n\t\ty += k\n\t}\n", j+1, i, j+2)
			// Calls inside the package, and one across packages per file.
			callee := (i*7 + j*3) % perPkg
			if other := pkg*perPkg + callee; other != i && j%2 == 0 {
				fmt.Fprintf(&sb, "\ty += %s(y)\n", fn(other, (j+1)%6))
			}
			if j == 5 && pkg > 0 {
				fmt.Fprintf(&sb, "\ty += p%d.%s(y)\n", pkg-1, fn((pkg-1)*perPkg, 0))
			}
			fmt.Fprintf(&sb, "\tfmt.Sprint(y)\n\treturn y\n}\n\n")
		}
		files[fmt.Sprintf("pkg/p%d/f%d.go", pkg, i)] = sb.String()
		n++
		if i%4 == 0 {
			files[fmt.Sprintf("pkg/p%d/f%d_test.go", pkg, i)] = fmt.Sprintf(
				"package p%d\n\nimport \"testing\"\n\nfunc Test%s(t *testing.T) {\n\tif %s(1) == 0 {\n\t\tt.Fatal(\"zero\")\n\t}\n}\n",
				pkg, fn(i, 0), fn(i, 0))
			n++
		}
		if i%perPkg == 0 {
			files[fmt.Sprintf("pkg/p%d/AGENTS.md", pkg)] = fmt.Sprintf("# Package p%d\n\nKeep functions pure.\n", pkg)
			n++
		}
	}
	for d := 0; d < 20; d++ {
		var sb strings.Builder
		fmt.Fprintf(&sb, "# Doc %d\n\n", d)
		for k := 0; k < 10; k++ {
			i := d*3 + k/4
			fmt.Fprintf(&sb, "## %s\n\n%s folds the input.\n<!-- @code function %s pkg/p%d/f%d.go -->\n\n", fn(i, k%6), fn(i, k%6), fn(i, k%6), i/perPkg, i)
		}
		files[fmt.Sprintf("docs/d%d.md", d)] = sb.String()
	}
	r.Write(files)
	r.Commit("gen")
	r.ConfirmAll()
	r.Commit("pin")
	return r
}

// BenchmarkContext3000Files compiles inside an anchored function of a
// generated 3,000-file workspace.
func BenchmarkContext3000Files(b *testing.B) {
	r := genContextRepo(b, 3000)
	benchContext(b, r.Dir, at("pkg/p0/f1.go", 8))
}
