//go:build unix

package workspace_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// BenchmarkMentionCoverageGOROOT is verify's mention coverage alone on the
// tree BenchmarkVerifyGOROOT builds, cold (no table cache), as verify runs
// it: after the anchor check, on the check's snapshot. Only the coverage
// is timed; `ctags -R --languages=Go -f /dev/null .` runs in the same op.
//
//	CLEW_BENCH_GOROOT=/tmp/goroot go test ./internal/workspace -run XXX -bench MentionCoverageGOROOT -benchtime 1x -cpuprofile /tmp/cpu.out
func BenchmarkMentionCoverageGOROOT(b *testing.B) {
	dir := os.Getenv("CLEW_BENCH_GOROOT")
	if dir == "" {
		b.Skip("set CLEW_BENCH_GOROOT to the tree BenchmarkVerifyGOROOT built")
	}
	var cpu, ctagsCPU, wall time.Duration
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		snap, err := disk.Load(dir)
		if err != nil {
			b.Fatal(err)
		}
		rep, err := snap.Check(context.Background(), workspace.CheckOptions{PartialHinted: true})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		c0, t0 := selfCPU(), time.Now()
		cov := snap.MentionCoverage(rep)
		cpu += selfCPU() - c0
		wall += time.Since(t0)
		b.StopTimer()
		b.Logf("coverage %+v", cov)
		ctagsCPU += ctagsGoCPU(dir)
	}
	reportVsCtags(b, cpu, wall, ctagsCPU)
}
