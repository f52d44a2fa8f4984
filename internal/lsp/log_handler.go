package lsp

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// WithLogToClient sends the server's own log to the editor as
// window/logMessage, each record at its level (Error, Warning, Info, Log for
// debug), instead of to the logger Serve got. Editors show a process's
// stderr as errors, so an info line written there reads as a failure. The
// logger still receives what is logged while no connection is up.
func WithLogToClient() Option {
	return func(c *config) { c.logToClient = true }
}

// clientLog is a slog.Handler that writes records as window/logMessage.
type clientLog struct {
	conn  *atomic.Value // jsonrpc2.Conn, set once the connection exists
	ctx   *atomic.Value // context.Context of the connection
	next  slog.Handler  // before the connection, or when a send fails
	attrs []slog.Attr
	group string
}

func newClientLog(next slog.Handler) *clientLog {
	return &clientLog{conn: &atomic.Value{}, ctx: &atomic.Value{}, next: next}
}

func (h *clientLog) attach(ctx context.Context, conn jsonrpc2.Conn) {
	h.ctx.Store(ctx)
	h.conn.Store(conn)
}

func (h *clientLog) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h *clientLog) Handle(ctx context.Context, r slog.Record) error {
	conn, _ := h.conn.Load().(jsonrpc2.Conn)
	cctx, _ := h.ctx.Load().(context.Context)
	if conn == nil || cctx == nil || cctx.Err() != nil {
		return h.nextHandler().Handle(ctx, r)
	}
	err := conn.Notify(cctx, protocol.MethodWindowLogMessage, &protocol.LogMessageParams{Type: messageType(r.Level), Message: h.format(r)})
	if err != nil {
		return h.nextHandler().Handle(ctx, r)
	}
	return nil
}

func (h *clientLog) nextHandler() slog.Handler {
	n := h.next
	if h.group != "" {
		n = n.WithGroup(h.group)
	}
	if len(h.attrs) > 0 {
		n = n.WithAttrs(h.attrs)
	}
	return n
}

func (h *clientLog) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append(append([]slog.Attr(nil), h.attrs...), as...)
	return &c
}

func (h *clientLog) WithGroup(name string) slog.Handler {
	c := *h
	c.group = name
	return &c
}

// format writes "message key=value …", the editor prefixing time and level.
func (h *clientLog) format(r slog.Record) string {
	var b strings.Builder
	b.WriteString(r.Message)
	write := func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return true
	}
	for _, a := range h.attrs {
		write(a)
	}
	r.Attrs(write)
	return b.String()
}

// messageType maps a slog level to LSP's: debug is Log, the editor's
// quietest.
func messageType(l slog.Level) protocol.MessageType {
	switch {
	case l >= slog.LevelError:
		return protocol.MessageTypeError
	case l >= slog.LevelWarn:
		return protocol.MessageTypeWarning
	case l >= slog.LevelInfo:
		return protocol.MessageTypeInfo
	}
	return protocol.MessageTypeLog
}
