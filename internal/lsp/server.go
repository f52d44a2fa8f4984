// Package lsp is clew-lsp's language server: the only package that knows LSP
// and JSON-RPC (go.lsp.dev/protocol and go.lsp.dev/jsonrpc2 v1.0.1).
//
// It decodes messages, keeps the editor's buffers in step with incremental
// edits, hands whole contents to the Backend (the workspace façade), converts
// the Backend's byte offsets to UTF-16 positions, and publishes diagnostics.
// It holds no analysis logic and never writes a file.
//
// Scheduling: lifecycle and text-sync notifications
// run inline on the read loop, in wire order; queries take a snapshot inline
// and then go asynchronous. Notification handlers log their errors and never
// return them, because jsonrpc2 closes the connection on such an error.
package lsp

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// ErrExitWithoutShutdown is returned by Serve when the client sent exit
// without shutdown first; LSP asks the process to exit with status 1 then.
var ErrExitWithoutShutdown = errors.New("lsp: exit before shutdown")

// DefaultDiagnosticsDelay is how long the server waits after a change that
// is part of a burst (one that comes while a pass computes or while this
// delay already runs for an earlier change) before diagnosing. A change
// that finds nothing running or pending is diagnosed at once, however soon
// after the previous publish: the goal is a p95 of 50 ms from didChange to
// publishDiagnostics, and a pass is cancelled by the next change anyway, so
// the wait only coalesces bursts (an edit applied in many changes).
const DefaultDiagnosticsDelay = 25 * time.Millisecond

// Option configures Serve.
type Option func(*config)

type config struct {
	diagnosticsDelay time.Duration
	version          string
	logToClient      bool
	extraRoutes      []*route // tests plug handlers in here
}

// WithDiagnosticsDelay sets the debounce between the last change and the
// diagnosis pass. Tests set it low.
func WithDiagnosticsDelay(d time.Duration) Option {
	return func(c *config) { c.diagnosticsDelay = d }
}

// WithVersion sets the version reported in serverInfo.
func WithVersion(v string) Option {
	return func(c *config) { c.version = v }
}

// withRoutes adds or replaces handlers (tests, and features until they have
// their own files).
func withRoutes(rs ...*route) Option {
	return func(c *config) { c.extraRoutes = append(c.extraRoutes, rs...) }
}

// lifecycle states of the connection.
type state int

const (
	stateNew         state = iota // before initialize
	stateInitialized              // after initialize
	stateShutdown                 // after shutdown; only exit is accepted
)

// server is the state of one connection.
type server struct {
	cfg     config
	backend Backend
	logger  *slog.Logger
	routes  map[string]*route

	conn     jsonrpc2.Conn
	ctx      context.Context // the connection's lifetime; background work runs under it
	inflight inflight        // running requests, for $/cancelRequest
	bg       sync.WaitGroup  // background goroutines, waited for before Serve returns
	diags    *publisher
	disk     diskWatch // file watching (watch.go)
	status   statusState

	mu           sync.Mutex // guards the fields below
	state        state
	client       protocol.ClientCapabilities
	folders      []string
	initOptions  Settings
	exited       chan struct{}
	exitOnce     sync.Once
	shutdownSeen bool

	docsMu sync.Mutex
	docs   map[string]*document // open editor buffers by path

	loadMu sync.Mutex // keeps Backend.Load and Backend.Configure apart

	configMu      sync.Mutex // guards the two fields below
	configPending *pendingConfig
	configWorking bool
}

// Serve runs the language server on rwc until the client sends exit, the
// connection closes, or ctx is cancelled. It returns nil after a clean
// shutdown/exit or end of input, ErrExitWithoutShutdown when exit came
// first, and the transport error otherwise. logger receives the server's own
// log (stderr in production); nil discards it.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, backend Backend, logger *slog.Logger, opts ...Option) error {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &server{
		cfg:     config{diagnosticsDelay: DefaultDiagnosticsDelay},
		backend: backend,
		logger:  logger,
		exited:  make(chan struct{}),
		docs:    make(map[string]*document),
	}
	for _, o := range opts {
		o(&s.cfg)
	}
	var clog *clientLog
	if s.cfg.logToClient {
		clog = newClientLog(logger.Handler())
		s.logger = slog.New(clog)
	}
	s.routes = routeTable(lifecycleRoutes(), textSyncRoutes(), configRoutes(), workspaceFolderRoutes(backend), featureRoutes(backend), s.cfg.extraRoutes)
	s.diags = newPublisher(s, s.cfg.diagnosticsDelay)
	return s.serve(ctx, rwc, clog)
}

func (s *server) serve(ctx context.Context, rwc io.ReadWriteCloser, clog *clientLog) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.ctx = ctx
	s.conn = jsonrpc2.NewConn(newStream(rwc, s.logger), jsonrpc2.WithCodec(codec{}))
	if clog != nil {
		clog.attach(ctx, s.conn)
	}
	s.conn.Go(ctx, s.handle)

	select {
	case <-s.conn.Done():
	case <-s.exited:
	case <-ctx.Done():
	}
	// Cancel first: in-flight requests and background work see it and return,
	// which lets Close (it waits for them) finish.
	cancel()
	s.diags.stop()
	closeErr := s.closeConn()
	s.bg.Wait()
	s.diags.wait()

	s.mu.Lock()
	exitedEarly := !s.shutdownSeen && isClosed(s.exited)
	s.mu.Unlock()
	switch {
	case exitedEarly:
		return ErrExitWithoutShutdown
	case s.conn.Err() != nil:
		return s.conn.Err()
	case closeErr != nil && !isClosed(s.exited):
		return closeErr
	}
	return nil
}

// closeGrace bounds how long Serve waits for the connection to close.
const closeGrace = time.Second

// closeConn closes the connection, giving up after closeGrace. Close waits
// for the reader, and a read from os.Stdin cannot be interrupted by closing
// it, so without the bound an editor waiting for the process to exit after
// "exit" would wait forever. The reader is left behind; the process is
// about to end anyway.
func (s *server) closeConn() error {
	done := make(chan error, 1)
	go func() { done <- s.conn.Close() }()
	select {
	case err := <-done:
		return err
	case <-time.After(closeGrace):
		s.logger.Debug("connection reader did not stop; not waiting for it")
		return nil
	}
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// goBackground runs f under the connection's lifetime, recovering a panic so
// one failed background job cannot kill the server.
func (s *server) goBackground(name string, f func(ctx context.Context)) {
	s.bg.Go(func() {
		defer s.recoverBackground(name)
		f(s.ctx)
	})
}
