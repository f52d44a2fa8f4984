package lsp

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"go.lsp.dev/protocol"
)

// MethodDiagnosed is the server's custom notification after every diagnosis
// pass that got to publish (params: {"snapshot": N}). Tests and scripts wait
// for it instead of sleeping; editors ignore it ("$/" methods are optional).
const MethodDiagnosed = "$/clew/diagnosed"

// DiagnosedParams are the params of MethodDiagnosed.
type DiagnosedParams struct {
	Snapshot uint64 `json:"snapshot"`
}

// publisher turns snapshots into publishDiagnostics:
//   - a change cancels the pass in progress, whose snapshot is already
//     stale; a change that finds the publisher idle (no pass computing, no
//     timer pending) is diagnosed at once, however soon after the previous
//     publish, and a change that finds a pass computing or the timer
//     pending (re)starts the debounce timer: waiting only ever coalesces a
//     burst and never delays an edit that nothing else is working on;
//   - only the newest pass publishes: a pass whose context was cancelled, or
//     whose snapshot is older than the last published one, is dropped;
//   - a file is sent only when its diagnostics differ from what was last
//     sent, and a file that had some and has none left is sent empty.
type publisher struct {
	s     *server
	delay time.Duration
	wg    sync.WaitGroup // running passes

	mu        sync.Mutex // guards the fields below; never held while writing
	ready     bool       // Backend.Load has finished
	stopped   bool
	timer     *time.Timer
	cancel    context.CancelFunc // cancels the current pass
	pending   bool               // the timer is set and has not fired
	running   int                // passes computing (publishing is not counted)
	published map[string][]byte  // path → encoded diagnostics last sent
	lastID    uint64             // snapshot of the last published pass

	// sendMu keeps the sends of successive passes in order without holding
	// mu during I/O, so a slow client never stalls the read loop's schedule.
	sendMu sync.Mutex
}

func newPublisher(s *server, delay time.Duration) *publisher {
	return &publisher{s: s, delay: delay, published: make(map[string][]byte)}
}

// start allows passes once the workspace is indexed and runs the first one.
func (p *publisher) start() {
	p.mu.Lock()
	p.ready = true
	p.mu.Unlock()
	p.scheduleAfter(0)
}

// schedule is called after every change: the current pass is superseded.
func (p *publisher) schedule() {
	p.mu.Lock()
	d := debounce(p.running, p.pending, p.delay)
	p.mu.Unlock()
	p.scheduleAfter(d)
}

// debounce is how long a change waits before its pass: nothing when no
// pass is computing and none is pending (the change is alone: waiting
// would only add latency), the delay otherwise (the change is part of a
// burst, which is diagnosed once, after its last change). How long ago
// the previous change came does not matter: a pass that has published is
// done, and an edit after it is as alone as the first one.
func debounce(running int, pending bool, delay time.Duration) time.Duration {
	if running == 0 && !pending {
		return 0
	}
	return delay
}

func (p *publisher) scheduleAfter(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cancel != nil {
		p.cancel()
		p.cancel = nil
	}
	if p.stopped || !p.ready {
		return
	}
	p.pending = true
	if p.timer == nil {
		p.timer = time.AfterFunc(d, p.run)
	} else {
		p.timer.Reset(d)
	}
}

// stop cancels everything; nothing is published afterwards.
func (p *publisher) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	if p.timer != nil {
		p.timer.Stop()
	}
	if p.cancel != nil {
		p.cancel()
		p.cancel = nil
	}
}

// wait returns when no pass is running; call it after stop.
func (p *publisher) wait() { p.wg.Wait() }

// run is one diagnosis pass over the newest snapshot.
func (p *publisher) run() {
	p.mu.Lock()
	p.pending = false
	if p.stopped || !p.ready {
		p.mu.Unlock()
		return
	}
	if p.cancel != nil {
		p.cancel() // a newer pass supersedes any still running
	}
	ctx, cancel := context.WithCancel(p.s.ctx)
	p.cancel = cancel
	p.wg.Add(1)
	p.running++
	p.mu.Unlock()
	defer p.wg.Done()
	// The pass stops counting as running once it has computed, before it
	// publishes: a client that sends its next edit the moment it sees the
	// publish must find the publisher idle, not racing this pass's exit.
	computing := true
	doneComputing := func() {
		if computing {
			computing = false
			p.mu.Lock()
			p.running--
			p.mu.Unlock()
		}
	}
	defer doneComputing()
	defer cancel()

	snap, release := p.s.backend.Snapshot()
	defer release()
	results, err := p.diagnose(ctx, snap)
	if err != nil {
		if ctx.Err() == nil {
			p.s.logger.Error("diagnosis failed", "snapshot", snap.ID(), "error", err)
			p.s.sendStatus(StatusError, "diagnosis failed: "+err.Error(), StatusCounts{})
		}
		return
	}
	var st passStatus
	st.state, st.message, st.counts = p.s.statusAfterPass(ctx, snap)
	doneComputing()
	p.publish(ctx, snap.ID(), results, st)
}

// passStatus is the clew/status a pass sends after its diagnostics.
type passStatus struct {
	state, message string
	counts         StatusCounts
}

// diagnose calls the Backend, turning a panic into an error: a background
// panic would otherwise take the whole server down.
func (p *publisher) diagnose(ctx context.Context, snap Snapshot) (results map[string]FileDiagnostics, err error) {
	defer func() {
		if r := recover(); r != nil {
			p.s.logger.Error("diagnosis panicked", "panic", r, "stack", string(debug.Stack()))
			p.s.logToClient(protocol.MessageTypeError, fmt.Sprintf("clew-lsp: internal error while diagnosing: %v", r))
			err = fmt.Errorf("diagnosis panicked: %v", r)
		}
	}()
	return snap.Diagnose(ctx)
}

func (p *publisher) publish(ctx context.Context, id uint64, results map[string]FileDiagnostics, st passStatus) {
	p.mu.Lock()
	if ctx.Err() != nil || p.stopped || id < p.lastID {
		p.mu.Unlock()
		return
	}
	p.lastID = id
	var sends []*protocol.PublishDiagnosticsParams
	for _, path := range slices.Sorted(maps.Keys(results)) {
		fd := results[path]
		if len(fd.Items) == 0 {
			continue // handled as "none" below
		}
		diags := toDiagnostics(fd)
		enc, err := protocol.Marshal(diags)
		if err != nil {
			p.s.logger.Error("cannot encode diagnostics", "path", path, "error", err)
			continue
		}
		if bytes.Equal(p.published[path], enc) {
			continue
		}
		p.published[path] = enc
		pd := &protocol.PublishDiagnosticsParams{URI: uriOf(path), Diagnostics: diags}
		if fd.Version != 0 {
			pd.Version = protocol.NewOptional(fd.Version)
		}
		sends = append(sends, pd)
	}
	for _, path := range slices.Sorted(maps.Keys(p.published)) {
		if len(results[path].Items) == 0 {
			delete(p.published, path)
			sends = append(sends, &protocol.PublishDiagnosticsParams{URI: uriOf(path), Diagnostics: []protocol.Diagnostic{}})
		}
	}
	p.sendMu.Lock()
	p.mu.Unlock()
	defer p.sendMu.Unlock()

	for _, pd := range sends {
		if err := p.s.conn.Notify(p.s.ctx, protocol.MethodTextDocumentPublishDiagnostics, pd); err != nil {
			p.s.logger.Warn("publishDiagnostics not sent", "uri", string(pd.URI), "error", err)
		}
	}
	if len(sends) > 0 {
		p.s.refreshLenses()
	}
	p.s.sendStatus(st.state, st.message, st.counts)
	if err := p.s.conn.Notify(p.s.ctx, MethodDiagnosed, &DiagnosedParams{Snapshot: id}); err != nil {
		p.s.logger.Debug("diagnosed notification not sent", "error", err)
	}
}

// refreshLenses asks the client to re-request code lenses after a pass
// changed what is stale: a code file's lens ("1 stale") is computed from
// docs the editor may not be showing. It is a request, so it runs on its
// own goroutine; clients that do not support it are never asked.
func (s *server) refreshLenses() {
	w := s.clientCaps().Workspace
	if w == nil || w.CodeLens == nil || w.CodeLens.RefreshSupport == nil || !*w.CodeLens.RefreshSupport {
		return
	}
	go func() {
		if _, err := s.conn.Call(s.ctx, protocol.MethodWorkspaceCodeLensRefresh, nil, nil); err != nil {
			s.logger.Debug("codeLens/refresh not answered", "error", err)
		}
	}()
}
