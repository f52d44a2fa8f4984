package disk_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// selfCPU is the process's user and system time so far (every thread,
// the collector's included).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkListGOROOT lists the fresh10x workload's trees (built by
// BenchmarkVerifyGOROOT under CLEW_BENCH_GOROOT: a git copy of
// GOROOT/src, and the same with nine more copies) with List, a fresh
// Files each op (nothing memoised), and `git ls-files --others
// --exclude-standard` (git's own walk for untracked files: every
// directory read, every entry checked against the index and the ignore
// rules) in the same ops; cpu-x-git is List's processor time over git's.
//
//	CLEW_BENCH_GOROOT=/tmp/goroot go test ./internal/workspace/disk -run XXX -bench ListGOROOT
func BenchmarkListGOROOT(b *testing.B) {
	keep := os.Getenv("CLEW_BENCH_GOROOT")
	if keep == "" {
		b.Skip("CLEW_BENCH_GOROOT not set (BenchmarkVerifyGOROOT/fresh10x builds the trees)")
	}
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("no git")
	}
	for _, tree := range []string{"1x", "10x"} {
		dir := filepath.Join(keep+"-fresh", tree)
		if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
			b.Skipf("%s: %v (run BenchmarkVerifyGOROOT/fresh10x first)", dir, err)
		}
		b.Run(tree, func(b *testing.B) {
			var list, git, listCPU, gitCPU time.Duration
			n := 0
			for b.Loop() {
				start, cpu := time.Now(), selfCPU()
				f, _, err := disk.Open(dir)
				if err != nil {
					b.Fatal(err)
				}
				files, err := f.List()
				if err != nil {
					b.Fatal(err)
				}
				list += time.Since(start)
				listCPU += selfCPU() - cpu
				n = len(files)
				start = time.Now()
				cmd := exec.Command("git", "ls-files", "--others", "--exclude-standard")
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("git ls-files: %v %s", err, out)
				}
				git += time.Since(start)
				gitCPU += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			per := func(d time.Duration) float64 { return d.Seconds() * 1000 / float64(b.N) }
			b.ReportMetric(float64(n), "files")
			b.ReportMetric(per(list), "list-ms")
			b.ReportMetric(per(listCPU), "list-cpu-ms")
			b.ReportMetric(per(git), "git-ms")
			b.ReportMetric(per(gitCPU), "git-cpu-ms")
			b.ReportMetric(float64(listCPU)/float64(gitCPU), "cpu-x-git")
		})
	}
}
