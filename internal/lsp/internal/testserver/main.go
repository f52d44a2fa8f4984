// Command testserver runs the clew language server over stdio with a tiny
// in-memory backend, so the editor plugins can be tested before the real
// workspace backend exists. It is temporary: `clew-lsp serve` replaces it.
//
// Usage: testserver [serve] [--stdio]
//
// Its backend knows only the open buffers. Every line containing the marker
// CLEW-TEST-DIAGNOSTIC gets a warning with code "test/marker", which lets an
// editor test check the whole diagnostics path end to end.
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/clew-lsp/clew-lsp/internal/lsp"
)

// Marker is the text that produces a diagnostic.
const Marker = "CLEW-TEST-DIAGNOSTIC"

func main() {
	for _, a := range os.Args[1:] {
		switch a {
		case "serve", "--stdio":
		default:
			fmt.Fprintf(os.Stderr, "testserver: unknown argument %q\nusage: testserver [serve] [--stdio]\n", a)
			os.Exit(2)
		}
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := lsp.Serve(ctx, stdio{}, &backend{files: map[string][]byte{}}, logger, lsp.WithVersion("testserver"))
	if errors.Is(err, lsp.ErrExitWithoutShutdown) {
		os.Exit(1)
	}
	if err != nil {
		logger.Error("serve", "error", err)
		os.Exit(1)
	}
}

// stdin is made non-blocking so that closing it ends a pending read (Go
// then uses its poller); a blocking os.Stdin read cannot be interrupted, and
// Serve would wait its grace period on exit.
var stdin = func() *os.File {
	if err := syscall.SetNonblock(0, true); err != nil {
		return os.Stdin
	}
	return os.NewFile(0, "/dev/stdin")
}()

// stdio joins stdin and stdout into one connection.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error {
	return errors.Join(stdin.Close(), os.Stdout.Close())
}

type backend struct {
	mu    sync.Mutex
	id    uint64
	files map[string][]byte
}

func (b *backend) Load(ctx context.Context, folders []string, _ lsp.Settings, p lsp.Progress) error {
	p.Report(fmt.Sprintf("%d folders", len(folders)), 100)
	return nil
}

func (b *backend) Apply(ctx context.Context, changes []lsp.Change) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, c := range changes {
		switch c.Kind {
		case lsp.Open, lsp.Edit:
			b.files[c.Path] = c.Text
		case lsp.Close:
			delete(b.files, c.Path)
		}
	}
	b.id++
	return nil
}

func (b *backend) Configure(ctx context.Context, _ lsp.Settings) error { return nil }

func (b *backend) Snapshot() (lsp.Snapshot, func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	files := make(map[string][]byte, len(b.files))
	for k, v := range b.files {
		files[k] = v
	}
	return snapshot{id: b.id, files: files}, func() {}
}

type snapshot struct {
	id    uint64
	files map[string][]byte
}

func (s snapshot) ID() uint64 { return s.id }

func (s snapshot) Diagnose(ctx context.Context) (map[string]lsp.FileDiagnostics, error) {
	out := map[string]lsp.FileDiagnostics{}
	for path, text := range s.files {
		var items []lsp.Diagnostic
		for off := 0; ; {
			i := bytes.Index(text[off:], []byte(Marker))
			if i < 0 {
				break
			}
			items = append(items, lsp.Diagnostic{
				Start: off + i, End: off + i + len(Marker),
				Severity: lsp.SeverityWarning, Code: "test/marker", Message: "test diagnostic",
			})
			off += i + len(Marker)
		}
		if items != nil {
			out[path] = lsp.FileDiagnostics{Text: text, Items: items}
		}
	}
	return out, ctx.Err()
}
