package lsp

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
)

// lockedBuffer is a bytes.Buffer safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestLogToClientKeepsLevels: with WithLogToClient, the server's info log
// reaches the editor as an Info logMessage (not on stderr, which editors
// show as errors), a warning as a Warning, and debug records stay out at
// the Info level.
func TestLogToClientKeepsLevels(t *testing.T) {
	var stderr lockedBuffer
	logger := slog.New(slog.NewTextHandler(&stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	c := lsptest.Pipe(t, func(ctx context.Context, rwc io.ReadWriteCloser) error {
		return Serve(ctx, rwc, newFake(), logger, WithDiagnosticsDelay(time.Millisecond), WithLogToClient())
	}, lsptest.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := c.Initialize(ctx, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	// A $/cancelRequest whose id is neither a number nor a string is logged
	// as a warning.
	must(t, c.Notify(ctx, protocol.MethodCancelRequest, map[string]any{"id": true}))
	st, err := c.Await(ctx, "info and warning logs", func(s lsptest.State) bool {
		var info, warn bool
		for _, l := range s.Logs {
			info = info || (l.Type == protocol.MessageTypeInfo && strings.HasPrefix(l.Message, "initialize client=lsptest"))
			warn = warn || (l.Type == protocol.MessageTypeWarning && strings.HasPrefix(l.Message, "malformed $/cancelRequest"))
		}
		return info && warn
	})
	if err != nil {
		t.Fatalf("%v; logs %+v", err, st.Logs)
	}
	for _, l := range st.Logs {
		if l.Type == protocol.MessageTypeError {
			t.Errorf("nothing failed, yet an error log: %+v", l)
		}
	}
	if s := stderr.String(); strings.Contains(s, "initialize") || strings.Contains(s, "cancelRequest") {
		t.Errorf("records went to stderr too:\n%s", s)
	}
}
