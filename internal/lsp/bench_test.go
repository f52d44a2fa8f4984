package lsp

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// Benchmarks of the numbers: didChange → publishDiagnostics
// latency over a generated workspace of 1,000 anchors across 200 docs
// (p50/p95 over 200 edits), and initialize → first diagnosis.
//
//	go test ./internal/lsp -run '^$' -bench Latency -benchtime 1x

const (
	benchDocs        = 200
	benchAnchorsPer  = 5
	benchCodeFiles   = 100
	benchFuncsPer    = 10
	benchEditsPerRun = 200
)

func benchFunc(file, n int) string {
	return fmt.Sprintf("// Fn%03d_%d computes a thing.\nfunc Fn%03d_%d(a, b int) int {\n\tx := a*%d + b\n\tif x > %d {\n\t\treturn x - %d\n\t}\n\treturn x + %d\n}\n\n",
		file, n, file, n, n+2, file+1, n+3, file+5)
}

// genBenchRepo writes and pins the workspace.
func genBenchRepo(tb testing.TB) *wstest.Repo {
	r := wstest.New(tb)
	files := map[string]string{}
	for f := range benchCodeFiles {
		var b strings.Builder
		b.WriteString("package pkg\n\n")
		for n := range benchFuncsPer {
			b.WriteString(benchFunc(f, n))
		}
		files[fmt.Sprintf("pkg/f%03d.go", f)] = b.String()
	}
	for d := range benchDocs {
		var b strings.Builder
		fmt.Fprintf(&b, "# Doc %d\n\nIntro prose for doc %d.\n", d, d)
		for k := range benchAnchorsPer {
			i := (d*benchAnchorsPer + k) % (benchCodeFiles * benchFuncsPer)
			f, n := i/benchFuncsPer, i%benchFuncsPer
			fmt.Fprintf(&b, "\n## Section %d\n\nFn%03d_%d does what it says.\n<!-- @code function Fn%03d_%d pkg/f%03d.go -->\n", k, f, n, f, n, f)
		}
		files[fmt.Sprintf("docs/d%03d.md", d)] = b.String()
	}
	r.Write(files)
	r.Commit("bench")
	pinAll(tb, r)
	return r
}

func percentile(ds []time.Duration, p float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

func BenchmarkDidChangeLatency(b *testing.B) {
	for _, delay := range []time.Duration{0, 25 * time.Millisecond, DefaultDiagnosticsDelay} {
		b.Run(fmt.Sprintf("debounce=%v", delay), func(b *testing.B) {
			for range b.N {
				benchLatency(b, delay)
			}
		})
	}
}

func benchLatency(b *testing.B, delay time.Duration) {
	r := genBenchRepo(b)
	root, _ := filepath.EvalSymlinks(r.Dir)
	backend := NewWorkspaceBackend(disk.Loader)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	c := lsptest.Pipe(b, func(ctx context.Context, rwc io.ReadWriteCloser) error {
		return Serve(ctx, rwc, backend, logger, WithDiagnosticsDelay(delay))
	}, lsptest.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	t0 := time.Now()
	if _, err := c.Initialize(ctx, root); err != nil {
		b.Fatal(err)
	}
	if _, err := c.AwaitDiagnosed(ctx, 1); err != nil {
		b.Fatal(err)
	}
	initDur := time.Since(t0)

	// Doc edits: break one anchor's pin in each doc (it turns stale); the
	// clock stops at that doc's publishDiagnostics for the edited version.
	var docLat []time.Duration
	for i := range benchEditsPerRun {
		rel := fmt.Sprintf("docs/d%03d.md", i%benchDocs)
		path := filepath.Join(root, rel)
		text := r.Read(rel)
		mustB(b, c.Open(ctx, path, "markdown", text))
		j := strings.Index(text, "sha=") + len("sha=")
		flip := "0"
		if text[j] == '0' {
			flip = "1"
		}
		edited := text[:j] + flip + text[j+1:]
		start := time.Now()
		mustB(b, c.Change(ctx, path, lsptest.Whole(edited)))
		if _, err := c.Await(ctx, "publish "+rel, func(s lsptest.State) bool {
			p, ok := s.Diagnostics[uri.File(path)]
			v, _ := p.Version.Get()
			return ok && v == 2 && len(p.Diagnostics) == 1
		}); err != nil {
			b.Fatal(err)
		}
		docLat = append(docLat, time.Since(start))
		mustB(b, c.Close(ctx, path))
	}

	// Code edits: change one function's body in an open code file; the
	// clock stops when the doc anchoring it publishes its stale anchor.
	var codeLat []time.Duration
	code := filepath.Join(root, "pkg/f000.go")
	text := r.Read("pkg/f000.go")
	mustB(b, c.Open(ctx, code, "go", text))
	for i := range benchEditsPerRun {
		n := i % benchFuncsPer
		// The last "return x + 5" of function n (each function has one).
		at := strings.Index(text, fmt.Sprintf("func Fn000_%d(", n))
		at += strings.Index(text[at:], "return x + 5")
		edited := text[:at] + fmt.Sprintf("return x + %d", 100+i) + text[at+len("return x + 5"):]
		if edited == text {
			b.Fatalf("edit %d changed nothing", i)
		}
		// Fn000_n is anchored by doc (n / benchAnchorsPer), section n % benchAnchorsPer.
		doc := filepath.Join(root, fmt.Sprintf("docs/d%03d.md", n/benchAnchorsPer))
		before := countPublishes(c.State(), doc)
		start := time.Now()
		mustB(b, c.Change(ctx, code, lsptest.Whole(edited)))
		if _, err := c.Await(ctx, "publish after code edit", func(s lsptest.State) bool { return countPublishes(s, doc) > before }); err != nil {
			b.Fatal(err)
		}
		codeLat = append(codeLat, time.Since(start))
		// Undo, and wait for the doc to clear, so every edit flips a state.
		before = countPublishes(c.State(), doc)
		mustB(b, c.Change(ctx, code, lsptest.Whole(text)))
		if _, err := c.Await(ctx, "publish after undo", func(s lsptest.State) bool { return countPublishes(s, doc) > before }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(initDur.Milliseconds()), "init→diag-ms")
	b.ReportMetric(ms(percentile(docLat, 0.5)), "doc-p50-ms")
	b.ReportMetric(ms(percentile(docLat, 0.95)), "doc-p95-ms")
	b.ReportMetric(ms(percentile(codeLat, 0.5)), "code-p50-ms")
	b.ReportMetric(ms(percentile(codeLat, 0.95)), "code-p95-ms")
	b.Logf("init→first diagnosis %v; doc edits p50 %v p95 %v; code edits p50 %v p95 %v",
		initDur, percentile(docLat, 0.5), percentile(docLat, 0.95), percentile(codeLat, 0.5), percentile(codeLat, 0.95))
}

func mustB(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func countPublishes(s lsptest.State, path string) int {
	n := 0
	for _, p := range s.Publishes {
		if p.URI == uri.File(path) {
			n++
		}
	}
	return n
}

// TestRSSAfterIndexing measures the real binary's memory after it indexed a
// workspace and finished its first diagnosis pass, then answered a lens and
// a completion. Opt-in:
//
//	go build -o /tmp/clew ./cmd/clew-lsp
//	CLEW_BIN=/tmp/clew CLEW_RSS_ROOT=$(go env GOROOT)/src go test ./internal/lsp -run RSS -v
func TestRSSAfterIndexing(t *testing.T) {
	bin, root := os.Getenv("CLEW_BIN"), os.Getenv("CLEW_RSS_ROOT")
	if bin == "" || root == "" {
		t.Skip("set CLEW_BIN and CLEW_RSS_ROOT")
	}
	var pid atomic.Int64
	c := lsptest.Pipe(t, func(ctx context.Context, rwc io.ReadWriteCloser) error {
		cmd := exec.CommandContext(ctx, bin, "serve")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = rwc, rwc, io.Discard
		if err := cmd.Start(); err != nil {
			return err
		}
		pid.Store(int64(cmd.Process.Pid))
		return cmd.Wait()
	}, lsptest.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	t0 := time.Now()
	if _, err := c.Initialize(ctx, root); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AwaitDiagnosed(ctx, 1); err != nil {
		t.Fatal(err)
	}
	first := time.Since(t0)
	rss := func() string {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid.Load()))
		if err != nil {
			return err.Error()
		}
		var out []string
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "VmRSS") || strings.HasPrefix(l, "VmHWM") {
				out = append(out, strings.Join(strings.Fields(l), " "))
			}
		}
		return strings.Join(out, ", ")
	}
	t.Logf("initialize → first diagnosis %v; %s", first, rss())

	// Exercise the queries on a large file and a doc.
	var docs []string
	_ = filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			docs = append(docs, p)
		}
		return nil
	})
	if len(docs) > 0 {
		text, err := os.ReadFile(docs[0])
		mustB(t, err)
		mustB(t, c.Open(ctx, docs[0], "markdown", string(text)+"<!-- @code function "))
		var list protocol.CompletionList
		n := strings.Count(string(text), "\n")
		mustB(t, c.Call(ctx, protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{
			TextDocumentPositionParams: tdp(docs[0], uint32(n), uint32(len("<!-- @code function ")))}, &list))
		t.Logf("completion: %d names (incomplete %v); %s", len(list.Items), list.IsIncomplete, rss())
	}
	big := filepath.Join(root, "src", "net", "http", "server.go")
	if text, err := os.ReadFile(big); err == nil {
		mustB(t, c.Open(ctx, big, "go", string(text)))
		var lenses []protocol.CodeLens
		mustB(t, c.Call(ctx, protocol.MethodTextDocumentCodeLens, &protocol.CodeLensParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(big)}}, &lenses))
		t.Logf("lenses on net/http/server.go: %d; %s", len(lenses), rss())
	}
}
