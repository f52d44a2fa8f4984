package workspace_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
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
//	CLEW_BENCH_GOROOT=/tmp/goroot CLEW_BENCH_CPUPROFILE=/tmp/cpu.out go test ./internal/workspace -run XXX -bench SessionDocEdit -benchtime 200x
func BenchmarkSessionDocEdit(b *testing.B) { benchSessionEdit(b, false) }

// BenchmarkSessionCodeEdit is the same with an unsaved buffer of a hinted
// file edited instead (a statement added to a function body, a new one
// each time).
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
	// Doc edits flip one hex digit of a pin (a different anchor each
	// time), code edits add a different statement each time: every buffer
	// version is new, as when typing. Every other edit restores the text.
	pins := regexp.MustCompile(`sha=v2:`).FindAllIndex(text, -1)
	target := doc
	edit := func(i int) []byte {
		j := pins[(i*37)%len(pins)][1]
		out := append([]byte{}, text...)
		out[j] = "10"[min(1, int(out[j]-'0'))] // still a hex digit, not the same
		return out
	}
	if code {
		// The first anchor's hinted file, a statement before its last brace.
		f := strings.Fields(string(text[strings.Index(string(text), "<!-- @code"):]))
		target = filepath.Join(dir, f[4])
		if text, err = os.ReadFile(target); err != nil {
			b.Fatal(err)
		}
		k := strings.LastIndex(string(text), "\n}")
		edit = func(i int) []byte {
			return []byte(string(text[:k]) + fmt.Sprintf("\n\t_ = %d", i) + string(text[k:]))
		}
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
	// CLEW_BENCH_CPUPROFILE profiles the edits only (-cpuprofile would
	// also hold the first check, which costs as much as hundreds of edits).
	if p := os.Getenv("CLEW_BENCH_CPUPROFILE"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			b.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	cpu0 := cpuTime()
	n := 0
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			check(edit(i))
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
