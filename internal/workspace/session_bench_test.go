package workspace_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// BenchmarkSessionDocEdit is the server's diagnosis pass without the
// protocol: a session over the tree BenchmarkServeGOROOT (cmd/clew-lsp)
// builds, one doc edit (a pin broken, then restored) and one Check per op.
// It profiles what a keystroke costs:
//
//	CLEW_BENCH_GOROOT=/tmp/goroot go test ./internal/workspace -run XXX -bench SessionDocEdit -cpuprofile /tmp/cpu.out
func BenchmarkSessionDocEdit(b *testing.B) { benchSessionEdit(b, false) }

// BenchmarkSessionCodeEdit is the same with an unsaved buffer of a hinted
// file edited instead (a statement added to a function body).
func BenchmarkSessionCodeEdit(b *testing.B) { benchSessionEdit(b, true) }

func benchSessionEdit(b *testing.B, code bool) {
	dir := os.Getenv("CLEW_BENCH_GOROOT")
	if dir == "" {
		b.Skip("set CLEW_BENCH_GOROOT to the tree BenchmarkServeGOROOT built")
	}
	sess := workspace.NewSession(disk.Loader)
	if err := sess.AddFolder(dir); err != nil {
		b.Fatal(err)
	}
	doc := filepath.Join(dir, "ANCHORS.md")
	text, err := os.ReadFile(doc)
	if err != nil {
		b.Fatal(err)
	}
	j := strings.Index(string(text), "sha=v2:") + len("sha=v2:")
	broken := append([]byte{}, text...)
	broken[j] ^= 1
	target := doc
	if code {
		// The first anchor's hinted file, a statement before its last brace.
		f := strings.Fields(string(text[strings.Index(string(text), "<!-- @code"):]))
		target = filepath.Join(dir, f[4])
		if text, err = os.ReadFile(target); err != nil {
			b.Fatal(err)
		}
		k := strings.LastIndex(string(text), "\n}")
		broken = []byte(string(text[:k]) + "\n\t_ = 1" + string(text[k:]))
	}
	check := func(t []byte) *workspace.Report {
		sess.SetOverlays(map[string][]byte{target: t})
		rep, err := sess.Snapshots()[0].Check(context.Background(), workspace.CheckOptions{})
		if err != nil {
			b.Fatal(err)
		}
		return rep
	}
	first := check(text)
	b.Logf("first check: complete %v, %d anchors", first.Complete, len(first.Anchors))
	cpu0 := cpuTime()
	n := 0
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			check(broken)
		} else {
			check(text)
		}
		n++
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(n), "cpu-ms/op")
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
	b.Logf("memos: %v", sess.Snapshots()[0].MemoSizes())
}

// cpuTime is the process's user+system time: on a shared machine it says
// more than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
