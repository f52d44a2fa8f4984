package workspace_test

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// BenchmarkScanMentions resolves the mentions of 10 docs (200 distinct
// backticked names: 150 declared once, 50 declared nowhere) against a Go
// repository of 2,000 files, from a cold snapshot each time, as `clew-lsp
// suggest` and verify's mention coverage do. In the same loop `git grep
// -l -w` finds the files that hold any of the names (the prefilter alone,
// without parsing), and, when installed, `ctags -R` writes the declaration
// tags of every Go file (the parsing alone, without the names); reported:
// scan-ms, gitgrep-ms, ctags-ms and the ratios.
//
// Run: go test ./internal/workspace -run XXX -bench ScanMentions -benchtime 5x
func BenchmarkScanMentions(b *testing.B) {
	r := wstest.New(b)
	files := map[string]string{}
	for i := 0; i < 2000; i++ {
		var sb strings.Builder
		fmt.Fprintf(&sb, "package p%d\n\n", i/50)
		for j := 0; j < 10; j++ {
			fmt.Fprintf(&sb, "// F%d_%d computes.\nfunc F%d_%d(x int) int {\n\treturn x * %d\n}\n\n", i, j, i, j, j+1)
		}
		files[fmt.Sprintf("pkg%d/f%d.go", i/50, i)] = sb.String()
	}
	var names []string
	for d := 0; d < 10; d++ {
		var sb strings.Builder
		fmt.Fprintf(&sb, "# Doc %d\n\n", d)
		for k := 0; k < 20; k++ {
			name := fmt.Sprintf("F%d_%d", d*97+k*13, k%10)
			if k%4 == 3 {
				name = fmt.Sprintf("Gone%d_%d", d, k)
			}
			names = append(names, name)
			fmt.Fprintf(&sb, "## Part %d\n\nThe function `%s` does things; see also `x` and `go test`.\n\n", k, name)
		}
		files[fmt.Sprintf("docs/d%d.md", d)] = sb.String()
	}
	r.Write(files)
	r.Commit("gen")
	grepArgs := []string{"grep", "-l", "-w", "-F"}
	for _, n := range names {
		grepArgs = append(grepArgs, "-e", n)
	}
	grepArgs = append(grepArgs, "--", "*.go")

	ctags, _ := exec.LookPath("ctags")
	var ts, tg, tc time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		snap, err := disk.Load(r.Dir)
		if err != nil {
			b.Fatal(err)
		}
		scan := snap.ScanMentions(nil, nil)
		ts += time.Since(t0)
		if st := scan.Stats; st.Found != 200 || st.Unique != 150 || st.Unresolved != 50 {
			b.Fatalf("stats %+v", st)
		}
		t1 := time.Now()
		cmd := exec.Command("git", grepArgs...)
		cmd.Dir = r.Dir
		out, err := cmd.Output()
		tg += time.Since(t1)
		if err != nil || strings.Count(string(out), "\n") != 150 {
			b.Fatalf("git grep: %v, %d files", err, strings.Count(string(out), "\n"))
		}
		if ctags != "" {
			t2 := time.Now()
			cmd := exec.Command(ctags, "-R", "-f", "-", "--languages=Go", ".")
			cmd.Dir = r.Dir
			if out, err := cmd.Output(); err != nil || len(out) == 0 {
				b.Fatalf("ctags: %v", err)
			}
			tc += time.Since(t2)
		}
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(ts.Microseconds())/1000/n, "scan-ms/op")
	b.ReportMetric(float64(tg.Microseconds())/1000/n, "gitgrep-ms/op")
	b.ReportMetric(float64(ts)/float64(tg), "ratio")
	if tc > 0 {
		b.ReportMetric(float64(tc.Microseconds())/1000/n, "ctags-ms/op")
		b.ReportMetric(float64(ts)/float64(tc), "ratio-ctags")
	}
}
