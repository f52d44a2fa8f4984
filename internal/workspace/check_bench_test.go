//go:build unix

package workspace_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// BenchmarkAnchorsGOROOT is verify's anchor check alone (no mention
// coverage, no table cache: cold) on the tree BenchmarkVerifyGOROOT
// builds, with the hinted Go files parsed in part (what verify does) and
// whole, in process, and `ctags -R --languages=Go -f /dev/null .` in the
// same op. It fails when the two reports' anchors differ.
//
//	CLEW_BENCH_GOROOT=/tmp/goroot go test ./internal/workspace -run XXX -bench AnchorsGOROOT -benchtime 1x -cpuprofile /tmp/cpu.out
func BenchmarkAnchorsGOROOT(b *testing.B) {
	dir := os.Getenv("CLEW_BENCH_GOROOT")
	if dir == "" {
		b.Skip("set CLEW_BENCH_GOROOT to the tree BenchmarkVerifyGOROOT built")
	}
	reports := map[bool][]byte{}
	for _, partial := range []bool{true, false} {
		name := "whole"
		if partial {
			name = "partial"
		}
		b.Run(name, func(b *testing.B) {
			var cpu, ctagsCPU, wall time.Duration
			for b.Loop() {
				c0, t0 := selfCPU(), time.Now()
				snap, err := disk.Load(dir)
				if err != nil {
					b.Fatal(err)
				}
				rep, err := snap.Check(context.Background(), workspace.CheckOptions{PartialHinted: partial})
				if err != nil {
					b.Fatal(err)
				}
				cpu += selfCPU() - c0
				wall += time.Since(t0)
				reports[partial], _ = json.Marshal(rep.Anchors)
				ctagsCPU += ctagsGoCPU(dir)
			}
			reportVsCtags(b, cpu, wall, ctagsCPU)
		})
	}
	if string(reports[true]) != string(reports[false]) {
		b.Fatal("partial and whole tables gave different anchor reports")
	}
}

// ctagsGoCPU runs `ctags -R --languages=Go -f /dev/null .` in dir, the
// GOROOT benchmarks' reference, and returns its cpu time (0 without ctags).
func ctagsGoCPU(dir string) time.Duration {
	cmd := exec.Command("ctags", "-R", "--languages=Go", "-f", "/dev/null", ".")
	cmd.Dir = dir
	if err := cmd.Run(); err != nil {
		return 0
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// reportVsCtags reports per op cpu and wall, and, when ctags ran, its cpu
// and the ratio to it.
func reportVsCtags(b *testing.B, cpu, wall, ctagsCPU time.Duration) {
	n := float64(b.N)
	b.ReportMetric(cpu.Seconds()*1000/n, "cpu-ms")
	b.ReportMetric(wall.Seconds()*1000/n, "wall-ms")
	if ctagsCPU > 0 {
		b.ReportMetric(ctagsCPU.Seconds()*1000/n, "ctags-cpu-ms")
		b.ReportMetric(float64(cpu)/float64(ctagsCPU), "cpu-x-ctags")
	}
}

// selfCPU is this process's user + system time, all threads.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
