package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"syscall"

	"github.com/clew-lsp/clew-lsp/internal/lsp"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/gitstate"
)

func runServe(ctx context.Context, args []string, _, stderr io.Writer) int {
	fs := newFlags("serve", "[--stdio]",
		"Speaks the Language Server Protocol on stdin/stdout (the default command).\n"+
			"--stdio is accepted because editors append it.", stderr)
	fs.Bool("stdio", true, "use stdin/stdout (the only transport)")
	if _, code, done := parse(fs, args); done {
		return code
	}
	stdinFile = stdin()
	limitMemory()
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	stopHeapDumps := dumpHeapOnSignal(logger)
	err := serveOn(ctx, stdio{}, logger)
	stopHeapDumps()
	if errors.Is(err, lsp.ErrExitWithoutShutdown) {
		return 1
	}
	if err != nil {
		logger.Error("serve", "error", err)
		return 1
	}
	return 0
}

// serveOn is the server's wiring: the real adapters, the table store, and
// the protocol over rwc (the benchmarks run it in process to profile it).
func serveOn(ctx context.Context, rwc io.ReadWriteCloser, logger *slog.Logger) error {
	backend := lsp.NewWorkspaceBackend(disk.Loader)
	backend.Session().UseSiblings(gitstate.NewSiblings())
	backend.Session().UseTableStore(tableStore())
	return lsp.Serve(ctx, rwc, backend, logger, lsp.WithVersion(versionString()), lsp.WithLogToClient())
}

// serverMemoryLimit is the server's soft memory limit unless GOMEMLIMIT
// says otherwise. What the server keeps between keystrokes (declaration
// tables, memos: fixed-size caches) is well under it on a GOROOT-sized
// workspace; the limit makes the collector return the garbage of a full
// check (every file of a repository-wide pass is read once) instead of
// letting the heap double, which is what GOGC alone allows.
const serverMemoryLimit = 256 << 20

func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serverMemoryLimit)
	}
}

// stdin is made non-blocking so that closing it ends a pending read (Go's
// poller then handles it); a blocking os.Stdin read cannot be interrupted,
// and exit would wait for Serve's grace period.
var stdin = func() *os.File {
	if err := syscall.SetNonblock(0, true); err != nil {
		return os.Stdin
	}
	return os.NewFile(0, "/dev/stdin")
}

// stdio joins stdin and stdout into one connection.
type stdio struct{}

var stdinFile *os.File

func (stdio) Read(p []byte) (int, error)  { return stdinFile.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error {
	return errors.Join(stdinFile.Close(), os.Stdout.Close())
}
