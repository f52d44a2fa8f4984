package symbols

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"syscall"
	"testing"
	"time"
)

// goCorpus is real Go from the toolchain every Go machine has: the non-test
// files of net/http, go/types and encoding/json (about 2.5 MB).
func goCorpus(b *testing.B) [][]byte {
	b.Helper()
	var files [][]byte
	for _, pkg := range []string{"net/http", "go/types", "encoding/json"} {
		paths, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", pkg, "*.go"))
		sort.Strings(paths)
		for _, p := range paths {
			if filepath.Ext(p) != ".go" || len(p) > 8 && p[len(p)-8:] == "_test.go" {
				continue
			}
			src, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			files = append(files, src)
		}
	}
	if len(files) == 0 {
		b.Skip("no GOROOT sources")
	}
	return files
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkTablesVsCursorWalk measures Parse (the declaration table as the
// workspace asks for it) against tree-sitter's own parse plus a cursor walk
// in C over the same files, alternating file by file so load on the machine
// hits both alike. wall-ratio and cpu-ratio are Parse / reference; cpu
// includes the garbage collector's threads.
func BenchmarkTablesVsCursorWalk(b *testing.B) {
	files := goCorpus(b)
	var size int64
	for _, f := range files {
		size += int64(len(f))
	}
	b.SetBytes(size)
	var refWall, oursWall, refCPU, oursCPU time.Duration
	decls := 0
	for b.Loop() {
		for _, f := range files {
			w0, c0 := time.Now(), processCPU()
			if cursorWalk(Go, f) == 0 {
				b.Fatal("empty walk")
			}
			w1, c1 := time.Now(), processCPU()
			decls += len(Parse(Go, f, Options{KeepBodyTokens: true}).Decls)
			w2, c2 := time.Now(), processCPU()
			refWall += w1.Sub(w0)
			oursWall += w2.Sub(w1)
			refCPU += c1 - c0
			oursCPU += c2 - c1
		}
	}
	if decls == 0 {
		b.Fatal("no declarations")
	}
	b.ReportMetric(float64(oursWall)/float64(refWall), "wall-ratio")
	b.ReportMetric(float64(oursCPU)/float64(refCPU), "cpu-ratio")
	b.ReportMetric(float64(size)/1e6/refCPU.Seconds()*float64(b.N), "ref-MB/cpu-s")
	b.ReportMetric(float64(size)/1e6/oursCPU.Seconds()*float64(b.N), "tables-MB/cpu-s")
}
