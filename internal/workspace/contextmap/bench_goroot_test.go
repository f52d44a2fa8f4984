package contextmap_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// Context on a large tree, against `git grep -n` for the seed's name over
// the same files in the same run (the ratio is the figure to trust on a
// shared machine):
//
//   - cold: disk.Load + Compile, what one CLI invocation costs;
//   - cold-cached: the same with the persistent table store filled by an
//     earlier run (a second `clew-lsp context` on the unchanged tree);
//   - warm: other requests (other seeds, one each) on the snapshot that
//     answered the first: the per-snapshot base and index and the parsed
//     tables are there, the world is not;
//   - warm-cached: the same with the persistent store holding the other
//     requests' tables (an earlier run on this machine asked them);
//   - warm-kept: the same with the Load keeping those requests' files'
//     declarations (they were asked before; their worlds are not kept);
//   - edit: the first request on a snapshot with one unsaved edit of the
//     seed's file (the server after a keystroke);
//   - repeat: the same request again (the world is cached).
//
// BenchmarkContextGOROOT uses $(go env GOROOT)/src as it is (no git
// history there, so no co_changed); BenchmarkContext1000Files a generated
// 1,000-file Go module with its history.

func benchLarge(b *testing.B, dir, ident string, first devcontext.Request, others ...devcontext.Request) {
	ctx := context.Background()
	load := func(b *testing.B) *workspace.Snapshot {
		snap, err := disk.Load(dir)
		if err != nil {
			b.Fatal(err)
		}
		return snap
	}
	compile := func(b *testing.B, snap *workspace.Snapshot, r devcontext.Request) {
		if _, err := contextmap.Compile(ctx, snap, r); err != nil {
			b.Fatal(err)
		}
	}
	grep := func(b *testing.B) time.Duration {
		t0 := time.Now()
		cmd := exec.Command("git", "grep", "-n", "--no-index", "-e", ident)
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil || out.Len() == 0 {
			b.Skipf("git grep: %v", err)
		}
		return time.Since(t0)
	}
	ratio := func(b *testing.B, took, ref time.Duration) {
		b.ReportMetric(float64(took.Microseconds())/1000/float64(b.N), "ms/op")
		b.ReportMetric(float64(ref.Microseconds())/1000/float64(b.N), "git-grep-ms/op")
		b.ReportMetric(float64(took)/float64(max(ref, 1)), "x-git-grep")
	}
	// measure times, per op, the call prep returns (prep itself is not
	// timed) beside one git grep, and reports both and the process's cpu.
	measure := func(b *testing.B, prep func(i int) func()) {
		var took, ref time.Duration
		cpu := cpuTime()
		stop := func() {}
		for i := 0; b.Loop(); i++ {
			op := prep(i)
			if i == 0 {
				stop = profileOps(b)
			}
			t0 := time.Now()
			op()
			took += time.Since(t0)
			// The reference runs with no collection of op's garbage under
			// way (its cpu still counts for op): a concurrent mark takes
			// the other core from git grep, so a build leaving more heap
			// read a slower git grep and a better ratio.
			runtime.GC()
			ref += grep(b)
		}
		stop()
		reportCPU(b, cpu)
		ratio(b, took, ref)
	}
	b.Run("cold", func(b *testing.B) {
		measure(b, func(int) func() {
			runtime.GC()
			return func() { compile(b, load(b), first) }
		})
	})
	// cold-cached: a second CLI run on the unchanged tree, the persistent
	// table store filled by the first (what `clew-lsp context` does).
	b.Run("cold-cached", func(b *testing.B) {
		store, err := disk.OpenTableStoreAt(b.TempDir(), disk.TableVersion())
		if err != nil {
			b.Fatal(err)
		}
		loadStored := func(b *testing.B) *workspace.Snapshot {
			snap := load(b)
			snap.UseTableStore(store)
			return snap
		}
		compile(b, loadStored(b), first)
		measure(b, func(int) func() {
			runtime.GC()
			return func() { compile(b, loadStored(b), first) }
		})
	})
	b.Run("warm", func(b *testing.B) {
		snap := load(b)
		compile(b, snap, first)
		measure(b, func(i int) func() {
			return func() { compile(b, snap, others[i%len(others)]) }
		})
	})
	// warm-cached: warm in a process whose persistent store an earlier run
	// filled with these requests' tables (the server on a tree this
	// machine has searched before).
	b.Run("warm-cached", func(b *testing.B) {
		store, err := disk.OpenTableStoreAt(b.TempDir(), disk.TableVersion())
		if err != nil {
			b.Fatal(err)
		}
		fill := load(b)
		fill.UseTableStore(store)
		for _, r := range append([]devcontext.Request{first}, others...) {
			compile(b, fill.WithOverlays(nil), r)
		}
		snap := load(b)
		snap.UseTableStore(store)
		compile(b, snap, first)
		measure(b, func(i int) func() {
			return func() { compile(b, snap, others[i%len(others)]) }
		})
	})
	// warm-kept: a new world for a seed whose files the Load already keeps
	// (an earlier request reached them): the world's assembly alone.
	b.Run("warm-kept", func(b *testing.B) {
		snap := load(b)
		for _, r := range append([]devcontext.Request{first}, others...) {
			compile(b, snap, r)
		}
		measure(b, func(i int) func() {
			if err := contextmap.ForgetWorlds(ctx, snap); err != nil {
				b.Fatal(err)
			}
			return func() { compile(b, snap, others[i%len(others)]) }
		})
	})
	// edit: the first request again on a snapshot with one unsaved edit of
	// the seed's file (the language server after a keystroke): the new
	// snapshot builds its own base; unchanged files' scans and tables are
	// shared by content.
	b.Run("edit", func(b *testing.B) {
		snap := load(b)
		compile(b, snap, first)
		src, err := os.ReadFile(filepath.Join(dir, first.Position.Path))
		if err != nil {
			b.Fatal(err)
		}
		measure(b, func(i int) func() {
			edited := append(slices.Clone(src), fmt.Sprintf("\n// edit %d\n", i)...)
			next := snap.WithOverlays(map[string][]byte{first.Position.Path: edited})
			return func() { compile(b, next, first) }
		})
	})
	b.Run("repeat", func(b *testing.B) {
		snap := load(b)
		compile(b, snap, first)
		measure(b, func(int) func() {
			return func() { compile(b, snap, first) }
		})
	})
}

// profileOps profiles a sub-benchmark's ops from the first on (not the
// setup before them; the later ops' prep is in it, and git grep's wait)
// into $CLEW_BENCH_CPUPROFILE-<sub-benchmark>, when that is set:
//
//	CLEW_BENCH_CPUPROFILE=/tmp/cx go test ./internal/workspace/contextmap -run '^$' -bench 'ContextGOROOT/cold-cached' -benchtime 1x
//
// CLEW_BENCH_MEMPROFILE=PREFIX writes heap profiles at the first op and
// after the last (PREFIX-<sub-benchmark>-start, -end): `go tool pprof
// -sample_index=alloc_space -base START END` is what the ops allocated.
func profileOps(b *testing.B) func() {
	stopMem := memProfileOps(b)
	prefix := os.Getenv("CLEW_BENCH_CPUPROFILE")
	if prefix == "" {
		return stopMem
	}
	name := prefix + "-" + strings.NewReplacer("/", "-").Replace(b.Name())
	f, err := os.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
		stopMem()
	}
}

func memProfileOps(b *testing.B) func() {
	prefix := os.Getenv("CLEW_BENCH_MEMPROFILE")
	if prefix == "" {
		return func() {}
	}
	name := prefix + "-" + strings.NewReplacer("/", "-").Replace(b.Name())
	write := func(suffix string) {
		runtime.GC() // the profile's counts are as of the last collection
		f, err := os.Create(name + suffix)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
			b.Fatal(err)
		}
	}
	write("-start")
	return func() { write("-end") }
}

// lineOfText is the 1-based line of the first occurrence of s in a file.
func lineOfText(b *testing.B, file, s string) int {
	src, err := os.ReadFile(file)
	if err != nil {
		b.Skip(err)
	}
	i := bytes.Index(src, []byte(s))
	if i < 0 {
		b.Skipf("%s not in %s", s, file)
	}
	return bytes.Count(src[:i], []byte("\n")) + 2
}

// BenchmarkContextGOROOT: net/http's Server.ListenAndServe; warm: Serve,
// Shutdown, Close, RegisterOnShutdown.
func BenchmarkContextGOROOT(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip(err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "src")
	file := filepath.Join(dir, "net", "http", "server.go")
	var others []devcontext.Request
	for _, f := range []string{"func (s *Server) Serve(l net.Listener) error {", "func (s *Server) Shutdown(ctx context.Context) error {",
		"func (s *Server) Close() error {", "func (s *Server) RegisterOnShutdown(f func()) {"} {
		others = append(others, at("net/http/server.go", lineOfText(b, file, f)))
	}
	first := at("net/http/server.go", lineOfText(b, file, "func (s *Server) ListenAndServe() error {"))
	benchLarge(b, dir, "ListenAndServe", first, others...)
}

// BenchmarkContext1000Files: an anchored function of a generated 1,000-file
// module, then another function of another package.
func BenchmarkContext1000Files(b *testing.B) {
	r := genContextRepo(b, 1000)
	benchLarge(b, r.Dir, "Compute0_1", at("pkg/p0/f1.go", 8), at("pkg/p0/f2.go", 8), at("pkg/p3/f91.go", 8), at("pkg/p7/f215.go", 8), at("pkg/p20/f601.go", 8))
}
