package lsp

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"go.lsp.dev/protocol"
)

var progressSeq atomic.Int64

// workDone reports one long task as LSP work-done progress. With a client
// that does not support it, every method is a no-op, so callers need not
// check.
type workDone struct {
	s     *server
	token protocol.ProgressToken // nil: progress disabled

	mu      sync.Mutex
	lastPct int
	lastMsg string
	ended   bool
}

var _ Progress = (*workDone)(nil)

// beginProgress creates a server-initiated progress token and sends begin.
// It calls the client, so it must not run on the read loop.
func (s *server) beginProgress(ctx context.Context, title string) *workDone {
	w := &workDone{s: s, lastPct: -1}
	win := s.clientCaps().Window
	if win == nil || win.WorkDoneProgress == nil || !*win.WorkDoneProgress {
		return w
	}
	token := protocol.String(fmt.Sprintf("clew-%d", progressSeq.Add(1)))
	if _, err := s.conn.Call(ctx, protocol.MethodWindowWorkDoneProgressCreate, &protocol.WorkDoneProgressCreateParams{Token: token}, nil); err != nil {
		s.logger.Warn("window/workDoneProgress/create failed", "error", err)
		return w
	}
	w.token = token
	w.send(&protocol.WorkDoneProgressBegin{Kind: "begin", Title: title, Percentage: ptr(uint32(0))})
	return w
}

// Report implements Progress. Repeats of the same state are not sent.
func (w *workDone) Report(message string, percentage int) {
	if w.token == nil {
		return
	}
	w.mu.Lock()
	if w.ended || (message == w.lastMsg && percentage == w.lastPct) {
		w.mu.Unlock()
		return
	}
	w.lastMsg, w.lastPct = message, percentage
	w.mu.Unlock()
	r := &protocol.WorkDoneProgressReport{Kind: "report"}
	if message != "" {
		r.Message = ptr(message)
	}
	if percentage >= 0 {
		r.Percentage = ptr(uint32(min(percentage, 100)))
	}
	w.send(r)
}

func (w *workDone) end(message string) {
	if w.token == nil {
		return
	}
	w.mu.Lock()
	if w.ended {
		w.mu.Unlock()
		return
	}
	w.ended = true
	w.mu.Unlock()
	w.send(&protocol.WorkDoneProgressEnd{Kind: "end", Message: ptr(message)})
}

func (w *workDone) send(value any) {
	raw, err := protocol.Marshal(value)
	if err != nil {
		w.s.logger.Error("cannot encode progress", "error", err)
		return
	}
	err = w.s.conn.Notify(w.s.ctx, protocol.MethodProgress, &protocol.ProgressParams{Token: w.token, Value: protocol.LSPAny(raw)})
	if err != nil {
		w.s.logger.Debug("$/progress not sent", "error", err)
	}
}
