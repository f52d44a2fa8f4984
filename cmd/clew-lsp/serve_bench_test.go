package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf16"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
)

// BenchmarkServeGOROOT is issue 15's editing workload: the workspace of
// BenchmarkVerifyGOROOT (a git copy of $GOROOT/src, ANCHORS.md with 1,000
// pinned anchors, 10 broken), served by the real binary over stdio. An LSP
// client opens ANCHORS.md, waits for the first diagnosis, then sends edits
// one at a time and stops the clock at the publishDiagnostics that shows
// the edit's effect:
//
//   - doc edits: one hex digit of a fresh anchor's pin flipped (the anchor
//     turns stale), then flipped back (fresh again) — a different anchor
//     each time;
//   - code edits: a statement added at the end of an anchored function in an
//     open, unsaved buffer of its hinted file (the anchor turns stale), then
//     the buffer restored — rotating over 20 files (CLEW_BENCH_CODEFILES=N:
//     N files), a different statement each time, so every added version is
//     new (a restored one is the file's text, whose table is cached; an
//     added one is parsed incrementally from the file's previous added
//     version when the server still keeps that tree: with N ≤ 4).
//
// Edits go out as range changes, as editors send them to a server that
// asks for incremental sync (CLEW_BENCH_WHOLE=1: whole texts instead).
// It reports p50/p95 of both, the server's resident memory (VmRSS, and the
// peak VmHWM) after the first diagnosis and after the edits, and, as the
// same-run reference, one `verify --check` of the same tree: *-x-verify is
// the edit's p95 over that check's wall time.
//
//	CLEW_BENCH_GOROOT=/tmp/goroot go test ./cmd/clew-lsp -run XXX -bench ServeGOROOT -benchtime 1x -timeout 60m
//
// CLEW_BENCH_EDITS sets the number of edits (default 200, half of each kind);
// CLEW_BENCH_PAUSE=MS waits that long after each publish before the next
// edit (default 0: back to back, a burst faster than any typist, which the
// server's 25 ms debounce coalesces: an edit less than 25 ms after the
// previous one waits out the debounce; with MS ≥ 25 every edit is a lone
// keystroke, diagnosed at once);
// CLEW_BENCH_BIN a binary to measure instead of the one built here.
// The server's memory is read after the first diagnosis, after 100, 200,
// 500, 1,000, 2,000 and 5,000 edits (those the run reaches) and at the
// end: VmRSS and VmHWM, then (Unix, the real binary) the Go heap's figures
// after a collection, which the benchmark asks for with SIGUSR1 (the
// server runs with CLEW_LSP_HEAP_PROFILE, heapdump.go); the heap profiles
// are kept in CLEW_BENCH_HEAPDIR when it is set
// (`go tool pprof -sample_index=inuse_space -diff_base heap.1.pprof BIN heap.5.pprof`).
// CLEW_BENCH_INPROC=1 runs the server inside the benchmark's process (the
// same wiring as `serve`, without its memory limit, which would count the
// client's memory too), and
// CLEW_BENCH_CPUPROFILE=FILE then profiles the edits alone, protocol and
// publishing included; the figures then also hold the client's share.
func BenchmarkServeGOROOT(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("no git")
	}
	edits := 200
	if n, err := strconv.Atoi(os.Getenv("CLEW_BENCH_EDITS")); err == nil && n >= 2 {
		edits = n
	}
	// CLEW_BENCH_BIN measures another build (an older commit's, say).
	bin := os.Getenv("CLEW_BENCH_BIN")
	if bin == "" {
		bin = buildBinary(b)
	}
	inproc := os.Getenv("CLEW_BENCH_INPROC") == "1"
	dir, want := gorootWorkload(b)
	for b.Loop() {
		s := startServer(b, bin, dir, inproc)
		s.benchEdits(b, want, edits)
		_, ref := timeProc(b, dir, bin, "verify", ".", "--check", "--json")
		b.ReportMetric(ref.wall.Seconds()*1000, "verify-ms")
		b.ReportMetric(ms(percentile(s.docLat, 0.95))/(ref.wall.Seconds()*1000), "doc-p95-x-verify")
		b.ReportMetric(ms(percentile(s.codeLat, 0.95))/(ref.wall.Seconds()*1000), "code-p95-x-verify")
	}
}

type benchServer struct {
	c       *lsptest.Client
	pid     atomic.Int64
	dir     string
	doc     string // absolute path of ANCHORS.md
	docText string
	docLat  []time.Duration
	codeLat []time.Duration
	profile string // in process: where to write the edits' cpu profile
	heap    string // the real binary: CLEW_LSP_HEAP_PROFILE's prefix
	dumps   int    // heap dumps asked for so far
}

func startServer(b *testing.B, bin, dir string, inproc bool) *benchServer {
	s := &benchServer{dir: dir, doc: filepath.Join(dir, "ANCHORS.md")}
	if inproc {
		s.pid.Store(int64(os.Getpid()))
		s.profile = os.Getenv("CLEW_BENCH_CPUPROFILE")
		s.c = lsptest.Pipe(b, func(ctx context.Context, rwc io.ReadWriteCloser) error {
			return serveOn(ctx, rwc, slog.New(slog.DiscardHandler))
		}, lsptest.Options{})
		return s
	}
	heapDir := os.Getenv("CLEW_BENCH_HEAPDIR")
	if heapDir == "" {
		heapDir = b.TempDir()
	}
	benchMust(b, os.MkdirAll(heapDir, 0o755))
	s.heap = filepath.Join(heapDir, "heap")
	s.c = lsptest.Pipe(b, func(ctx context.Context, rwc io.ReadWriteCloser) error {
		cmd := exec.CommandContext(ctx, bin, "serve")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), HeapProfileEnv+"="+s.heap)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = rwc, rwc, io.Discard
		// Stdin is copied from the in-memory pipe, which stays open after
		// the server exits: do not wait for that copy.
		cmd.WaitDelay = 2 * time.Second
		// CLEW_BENCH_SERVER_LOG keeps the server's stderr (a crash's trace).
		if p := os.Getenv("CLEW_BENCH_SERVER_LOG"); p != "" {
			if f, err := os.Create(p); err == nil {
				defer f.Close()
				cmd.Stderr = f
			}
		}
		if err := cmd.Start(); err != nil {
			return err
		}
		s.pid.Store(int64(cmd.Process.Pid))
		return cmd.Wait()
	}, lsptest.Options{})
	return s
}

// benchEdits runs the whole session and reports its metrics.
func (s *benchServer) benchEdits(b *testing.B, want map[int]string, edits int) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Minute)
	defer cancel()
	t0 := time.Now()
	if _, err := s.c.Initialize(ctx, s.dir); err != nil {
		b.Fatal(err)
	}
	text, err := os.ReadFile(s.doc)
	if err != nil {
		b.Fatal(err)
	}
	s.docText = string(text)
	benchMust(b, s.c.Open(ctx, s.doc, "markdown", s.docText))
	base := s.awaitDoc(b, ctx, "first diagnosis", func(n int) bool { return n > 0 })
	first := time.Since(t0)
	rssFirst, _ := s.rss(b)
	heapFirst := s.checkpoint(b, 0)
	b.Logf("first diagnosis after %v: %d diagnostics in ANCHORS.md", first, base)

	lines := strings.SplitAfter(s.docText, "\n")
	var fresh []int // 0-based doc lines of fresh anchors
	for i, l := range lines {
		if strings.Contains(l, "sha=") && want[i+1] == "" {
			fresh = append(fresh, i)
		}
	}
	// CLEW_BENCH_CODEFILES=N: code edits rotate over N files (default 20);
	// CLEW_BENCH_CODEFILE=PATH: only in PATH (one with a function anchor,
	// say runtime/proc.go, 240 KB: typing in a large file).
	files := 20
	if n, err := strconv.Atoi(os.Getenv("CLEW_BENCH_CODEFILES")); err == nil && n > 0 {
		files = n
	}
	code := s.codeTargets(b, lines, fresh, files)
	var names []string
	for _, t := range code {
		rel, _ := filepath.Rel(s.dir, t.path)
		names = append(names, fmt.Sprintf("%s (%d KB)", rel, len(t.text)/1024))
	}
	b.Logf("code edits rotate over %s", strings.Join(names, ", "))
	for _, t := range code {
		benchMust(b, s.c.Open(ctx, t.path, "go", t.text))
	}
	if s.profile != "" {
		f, err := os.Create(s.profile)
		benchMust(b, err)
		benchMust(b, pprof.StartCPUProfile(f))
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	// CLEW_BENCH_MEMPROFILE=FILE (in process) writes the heap profile
	// before the edits to FILE.base and after them to FILE: `go tool pprof
	// -sample_index=alloc_space -diff_base FILE.base BIN FILE` is what the
	// edits allocated.
	if mp := os.Getenv("CLEW_BENCH_MEMPROFILE"); mp != "" && inprocPID(s) {
		writeHeap(b, mp+".base")
		defer writeHeap(b, mp)
	}
	// cpu to the publish; what a pass does after it (the status) falls to
	// the next edit.
	cpu0 := s.cpu()
	var docCPU, codeCPU time.Duration
	// Editors send what changed (the server asks for incremental sync);
	// CLEW_BENCH_WHOLE=1 sends whole texts, as the benchmark did before.
	whole := os.Getenv("CLEW_BENCH_WHOLE") == "1"
	pause := time.Duration(0)
	if ms, err := strconv.Atoi(os.Getenv("CLEW_BENCH_PAUSE")); err == nil && ms > 0 {
		pause = time.Duration(ms) * time.Millisecond
	}
	for i := 0; i < edits; i++ {
		if i > 0 && (slices.Contains([]int{100, 200, 500, 1000, 2000, 5000}, i)) {
			c := s.cpu()
			s.checkpoint(b, i)
			cpu0 += s.cpu() - c // the dump's collection is not an edit's
		}
		time.Sleep(pause)
		if i%4 < 2 {
			// Doc: break a pin (i%4 == 0), then unbreak it (i%4 == 1).
			ln := fresh[(i/4*37)%len(fresh)]
			next, n := flipPin(lines, ln), base+1
			ch := pinDigitChange(lines[ln], true)
			if i%4 == 1 {
				next, n = s.docText, base
				ch = pinDigitChange(lines[ln], false)
			}
			ch.Range.Start.Line, ch.Range.End.Line = uint32(ln), uint32(ln)
			var ev protocol.TextDocumentContentChangeEvent = ch
			if whole {
				ev = lsptest.Whole(next)
			}
			start, c0 := time.Now(), s.cpu()
			benchMust(b, s.c.Change(ctx, s.doc, ev))
			s.awaitDoc(b, ctx, fmt.Sprintf("doc edit %d", i), func(got int) bool { return got == n })
			s.docLat = append(s.docLat, time.Since(start))
			docCPU += s.cpu() - c0
			continue
		}
		// Code: add a statement to an anchored function, then restore.
		t := code[(i/4)%len(code)]
		next, n := t.text, base
		stmt := fmt.Sprintf("\t_ = %d\n", i-(i%4-2)) // the one edit i%4 == 2 added
		ln, col := position(t.text, t.close)
		ev := lsptest.Replace(ln, col, ln+1, 0, "") // restore: drop the added line
		if i%4 == 2 {
			next, n = t.text[:t.close]+stmt+t.text[t.close:], base+1
			ev = lsptest.Replace(ln, col, ln, col, stmt)
		}
		if whole {
			ev = lsptest.Whole(next)
		}
		start, c0 := time.Now(), s.cpu()
		benchMust(b, s.c.Change(ctx, t.path, ev))
		s.awaitDoc(b, ctx, fmt.Sprintf("code edit %d", i), func(got int) bool { return got == n })
		s.codeLat = append(s.codeLat, time.Since(start))
		codeCPU += s.cpu() - c0
	}
	cpuPerEdit := float64((s.cpu() - cpu0).Microseconds()) / 1000 / float64(edits)
	rssEnd, hwmEnd := s.rss(b)
	heapEnd := s.checkpoint(b, edits)
	b.Logf("after %d edits: VmRSS %.0f MiB, VmHWM %.0f MiB; doc p50 %v p95 %v; code p50 %v p95 %v", edits, rssEnd, hwmEnd,
		percentile(s.docLat, 0.5), percentile(s.docLat, 0.95), percentile(s.codeLat, 0.5), percentile(s.codeLat, 0.95))
	b.ReportMetric(first.Seconds()*1000, "first-diag-ms")
	b.ReportMetric(ms(percentile(s.docLat, 0.5)), "doc-p50-ms")
	b.ReportMetric(ms(percentile(s.docLat, 0.95)), "doc-p95-ms")
	b.ReportMetric(ms(percentile(s.codeLat, 0.5)), "code-p50-ms")
	b.ReportMetric(ms(percentile(s.codeLat, 0.95)), "code-p95-ms")
	b.ReportMetric(cpuPerEdit, "cpu-ms/edit")
	b.ReportMetric(ms(docCPU)/float64(max(1, len(s.docLat))), "doc-cpu-ms")
	b.ReportMetric(ms(codeCPU)/float64(max(1, len(s.codeLat))), "code-cpu-ms")
	b.ReportMetric(rssFirst, "rss-first-MiB")
	b.ReportMetric(rssEnd, "rss-end-MiB")
	b.ReportMetric(hwmEnd, "hwm-end-MiB")
	b.ReportMetric(rssEnd-rssFirst, "rss-growth-MiB")
	if heapEnd.NumGC > 0 {
		b.ReportMetric(mib(heapFirst.HeapAlloc), "heap-first-MiB")
		b.ReportMetric(mib(heapEnd.HeapAlloc), "heap-end-MiB")
	}
	// The figures go out now: a benchmark's log is printed only at its end.
	fmt.Fprintf(os.Stderr, "ServeGOROOT: first diagnosis %v, VmRSS %.0f MiB; after %d edits VmRSS %.0f MiB, VmHWM %.0f MiB, %.1f cpu-ms/edit; doc p50 %v p95 %v; code p50 %v p95 %v\n",
		first, rssFirst, edits, rssEnd, hwmEnd, cpuPerEdit, percentile(s.docLat, 0.5), percentile(s.docLat, 0.95), percentile(s.codeLat, 0.5), percentile(s.codeLat, 0.95))
	// shutdown and exit, then close the connection: the copy of the
	// in-memory pipe to the server's stdin ends only then.
	sctx, scancel := context.WithTimeout(ctx, 30*time.Second)
	defer scancel()
	_ = s.c.Call(sctx, "shutdown", nil, nil)
	_ = s.c.Notify(sctx, "exit", nil)
	s.c.CloseConn()
}

// checkpoint logs the server's memory after n edits (to stderr at once,
// since a benchmark's log is printed only at its end): VmRSS and VmHWM,
// then, when the server writes heap dumps, the live Go heap after a
// collection it makes on SIGUSR1. It returns the heap's figures (zero
// without dumps).
func (s *benchServer) checkpoint(b *testing.B, n int) heapStats {
	rss, hwm := s.rss(b)
	line := fmt.Sprintf("ServeGOROOT: after %d edits: VmRSS %.0f MiB, VmHWM %.0f MiB", n, rss, hwm)
	if len(s.docLat) > 0 {
		line += fmt.Sprintf("; so far doc p50 %v p95 %v, code p50 %v p95 %v", percentile(s.docLat, 0.5), percentile(s.docLat, 0.95),
			percentile(s.codeLat, 0.5), percentile(s.codeLat, 0.95))
	}
	st, ok := s.heapDump(b)
	if ok {
		line += fmt.Sprintf("; Go heap after a collection: live %.1f MiB (%d objects), in use %.1f MiB, idle %.1f MiB (%.1f released), sys %.1f MiB, %d collections",
			mib(st.HeapAlloc), st.HeapObjects, mib(st.HeapInuse), mib(st.HeapIdle), mib(st.HeapReleased), mib(st.Sys), st.NumGC)
	}
	fmt.Fprintln(os.Stderr, line)
	return st
}

// heapDump asks the server for a heap dump (SIGUSR1) and reads its
// figures; false in process, off Unix, or when none came within a minute.
func (s *benchServer) heapDump(b *testing.B) (heapStats, bool) {
	if inprocPID(s) || s.heap == "" || heapDumpSignal == nil {
		return heapStats{}, false
	}
	p, err := os.FindProcess(int(s.pid.Load()))
	if err != nil || p.Signal(heapDumpSignal) != nil {
		return heapStats{}, false
	}
	s.dumps++
	path := fmt.Sprintf("%s.%d.json", s.heap, s.dumps)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		var st heapStats
		if json.Unmarshal(data, &st) != nil {
			b.Logf("heap dump %s: %s", path, data)
			return heapStats{}, false
		}
		return st, true
	}
	b.Logf("no heap dump %s after a minute", path)
	return heapStats{}, false
}

func mib(n uint64) float64 { return float64(n) / (1 << 20) }

// awaitDoc waits for the publish of ANCHORS.md whose diagnostic count
// satisfies ok, and returns that count.
func (s *benchServer) awaitDoc(b *testing.B, ctx context.Context, what string, ok func(int) bool) int {
	b.Helper()
	u := uri.File(s.doc)
	st, err := s.c.Await(ctx, what, func(st lsptest.State) bool {
		p, has := st.Diagnostics[u]
		return has && ok(len(p.Diagnostics))
	})
	if err != nil {
		b.Logf("so far: doc edits %v, code edits %v; ANCHORS.md has %d diagnostics", s.docLat, s.codeLat, len(st.Diagnostics[u].Diagnostics))
		b.Fatal(err)
	}
	return len(st.Diagnostics[u].Diagnostics)
}

// cpu is the server's user + system time so far: /proc's count for the
// binary, the process's own in process (the client's share included).
func (s *benchServer) cpu() time.Duration {
	if s.pid.Load() == int64(os.Getpid()) {
		return selfCPU()
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.pid.Load()))
	if err != nil {
		return 0
	}
	// Fields 14 and 15 (utime, stime, in clock ticks of 1/100 s) follow
	// the command name, which is in parentheses.
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.Atoi(f[11])
	st, _ := strconv.Atoi(f[12])
	return time.Duration(ut+st) * 10 * time.Millisecond
}

// rss reads the server's VmRSS and VmHWM in MiB.
func (s *benchServer) rss(b *testing.B) (rss, hwm float64) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.pid.Load()))
	if err != nil {
		b.Logf("no /proc: %v", err)
		return 0, 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case "VmRSS:":
			rss = kb / 1024
		case "VmHWM:":
			hwm = kb / 1024
		}
	}
	return rss, hwm
}

// codeTarget is an anchored function in its hinted file: close is the
// offset of the function's closing brace.
type codeTarget struct {
	path, text string
	close      int
}

// codeTargets picks n fresh function anchors spread over the doc.
func (s *benchServer) codeTargets(b *testing.B, lines []string, fresh []int, n int) []codeTarget {
	var out []codeTarget
	for k := 0; len(out) < n && k < len(fresh); k++ {
		f := strings.Fields(lines[fresh[(k*53)%len(fresh)]])
		// <!-- @code function Name path sha=... -->
		if len(f) < 5 || f[2] != "function" {
			continue
		}
		name, rel := f[3], f[4]
		if only := os.Getenv("CLEW_BENCH_CODEFILE"); only != "" && rel != only {
			continue
		}
		text, err := os.ReadFile(filepath.Join(s.dir, rel))
		if err != nil {
			continue
		}
		for _, d := range symbols.Parse(symbols.Go, text, symbols.Options{}).Decls {
			if d.QualifiedName == name && d.Kind == "function" && text[d.EndByte-1] == '}' {
				if !slices.ContainsFunc(out, func(t codeTarget) bool { return t.path == filepath.Join(s.dir, rel) }) {
					out = append(out, codeTarget{filepath.Join(s.dir, rel), string(text), int(d.EndByte) - 1})
				}
				break
			}
		}
	}
	if len(out) == 0 {
		b.Fatal("no function anchors to edit")
	}
	return out
}

// flipPin returns the doc with one hex digit of line ln's pin changed.
func flipPin(lines []string, ln int) string {
	l := lines[ln]
	j := strings.Index(l, "sha=") + len("sha=")
	if strings.HasPrefix(l[j:], "v2:") {
		j += len("v2:")
	}
	c := byte('0')
	if l[j] == '0' {
		c = '1'
	}
	out := slices.Clone(lines)
	out[ln] = l[:j] + string(c) + l[j+1:]
	return strings.Join(out, "")
}

// pinDigitChange is the range change of flipPin on line l (broken) or
// back (restored); its line is the caller's to set.
func pinDigitChange(l string, broken bool) *protocol.TextDocumentContentChangePartial {
	j := strings.Index(l, "sha=") + len("sha=")
	if strings.HasPrefix(l[j:], "v2:") {
		j += len("v2:")
	}
	c := l[j]
	if broken {
		c = '0'
		if l[j] == '0' {
			c = '1'
		}
	}
	col := uint32(utf16Len(l[:j]))
	return lsptest.Replace(0, col, 0, col+1, string(c)).(*protocol.TextDocumentContentChangePartial)
}

// position is the LSP position (line, UTF-16 column) of byte offset off.
func position(text string, off int) (line, col uint32) {
	start := strings.LastIndexByte(text[:off], '\n') + 1
	return uint32(strings.Count(text[:off], "\n")), uint32(utf16Len(text[start:off]))
}

func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

func inprocPID(s *benchServer) bool { return s.pid.Load() == int64(os.Getpid()) }

func writeHeap(b *testing.B, path string) {
	f, err := os.Create(path)
	benchMust(b, err)
	defer f.Close()
	benchMust(b, pprof.Lookup("allocs").WriteTo(f, 0))
}

func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func benchMust(b *testing.B, err error) {
	b.Helper()
	if err != nil {
		b.Fatal(err)
	}
}
