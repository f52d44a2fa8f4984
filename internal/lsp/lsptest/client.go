// Package lsptest is an in-process LSP client for tests: it drives a server
// over a net.Pipe, records what the server sends (diagnostics per URI, log
// messages, progress, registrations, the $/clew/diagnosed signal), answers
// the server's own requests, and lets a test wait for a state instead of
// sleeping.
//
// The connection is an in-memory duplex whose writes never block (see pipe).
//
// It does not import the server: a test passes the function that serves one
// end of the pipe, so server-internal tests can use it too.
package lsptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// MethodDiagnosed mirrors lsp.MethodDiagnosed (not imported, see package doc).
const MethodDiagnosed = "$/clew/diagnosed"

// MethodStatus mirrors lsp.MethodStatus.
const MethodStatus = "clew/status"

// Status is one clew/status notification as the client decodes it.
type Status struct {
	State        string         `json:"state"`
	Version      string         `json:"version"`
	Message      string         `json:"message"`
	Anchors      map[string]int `json:"anchors"`
	Claims       map[string]int `json:"claims"`
	ConfigErrors int            `json:"configErrors"`
}

// ServeFunc serves one connection until it ends.
type ServeFunc func(ctx context.Context, rwc io.ReadWriteCloser) error

// Options configure the client.
type Options struct {
	// Settings answers workspace/configuration for the "clew" section.
	Settings json.RawMessage
	// Capabilities replaces the default client capabilities, which claim
	// work-done progress, workspace/configuration and dynamic registration.
	Capabilities *protocol.ClientCapabilities
}

// Client is a fake editor. All methods are safe for concurrent use.
type Client struct {
	t         testing.TB
	conn      jsonrpc2.Conn
	raw       io.ReadWriteCloser // for writing malformed frames
	opts      Options
	stopped   chan struct{} // closed when the server returns
	serverErr error         // its return value, set before stopped closes

	mu            sync.Mutex
	changed       chan struct{} // closed and replaced whenever something is recorded
	diags         map[uri.URI]protocol.PublishDiagnosticsParams
	publishes     []protocol.PublishDiagnosticsParams
	logs          []protocol.LogMessageParams
	progress      []json.RawMessage
	diagnosed     []uint64
	statuses      []Status
	registrations []protocol.Registration
	lensRefreshes int
	configPulls   int
	errs          []ErrorResponse // every error response the server sent
	edits         []protocol.ApplyWorkspaceEditParams
	versions      map[uri.URI]int32
}

// Pipe starts serve on one end of an in-memory connection and returns a client on
// the other. The connection is torn down when the test ends.
func Pipe(t testing.TB, serve ServeFunc, opts Options) *Client {
	t.Helper()
	cliEnd, srvEnd := duplex()
	ctx, cancel := context.WithCancel(context.Background())
	c := &Client{
		t:        t,
		raw:      cliEnd,
		opts:     opts,
		stopped:  make(chan struct{}),
		changed:  make(chan struct{}),
		diags:    make(map[uri.URI]protocol.PublishDiagnosticsParams),
		versions: make(map[uri.URI]int32),
	}
	go func() {
		c.serverErr = serve(ctx, srvEnd)
		close(c.stopped)
	}()
	tap := &frameTap{ReadWriteCloser: cliEnd, onError: c.recordError}
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewHeaderStream(tap), jsonrpc2.WithCodec(codec{}))
	c.conn.Go(ctx, c.handle)
	t.Cleanup(func() {
		cancel()
		_ = cliEnd.Close()
		select {
		case <-c.stopped:
		case <-time.After(5 * time.Second):
			t.Errorf("lsptest: server did not stop within 5s of the connection closing")
		}
	})
	return c
}

// ServerDone delivers the server's return value once it stops.
func (c *Client) ServerDone() <-chan error {
	ch := make(chan error, 1)
	go func() {
		<-c.stopped
		ch <- c.serverErr
	}()
	return ch
}

// Call sends a request and decodes its result into result (may be nil).
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

// Cancel sends $/cancelRequest for a request id.
func (c *Client) Cancel(ctx context.Context, id int64) error {
	return c.Notify(ctx, protocol.MethodCancelRequest, &protocol.CancelParams{ID: protocol.Integer(int32(id))})
}

// Notify sends a notification.
func (c *Client) Notify(ctx context.Context, method string, params any) error {
	return c.conn.Notify(ctx, method, params)
}

// CloseConn closes the client's end of the pipe, as an editor that crashes.
func (c *Client) CloseConn() { _ = c.raw.Close() }

// WriteRaw writes bytes straight to the server, bypassing framing.
func (c *Client) WriteRaw(b []byte) error {
	_, err := c.raw.Write(b)
	return err
}

// Initialize sends initialize then initialized, with the given folders.
func (c *Client) Initialize(ctx context.Context, folders ...string) (*protocol.InitializeResult, error) {
	caps := defaultCapabilities()
	if c.opts.Capabilities != nil {
		caps = *c.opts.Capabilities
	}
	params := &protocol.InitializeParams{
		ClientInfo:   protocol.ClientInfo{Name: "lsptest"},
		Capabilities: caps,
	}
	var wf []protocol.WorkspaceFolder
	for _, f := range folders {
		wf = append(wf, protocol.WorkspaceFolder{URI: uri.File(f), Name: f})
	}
	if wf != nil {
		params.WorkspaceFolders = protocol.NewNullable(wf)
	}
	var res protocol.InitializeResult
	if err := c.Call(ctx, protocol.MethodInitialize, params, &res); err != nil {
		return nil, err
	}
	return &res, c.Notify(ctx, protocol.MethodInitialized, &protocol.InitializedParams{})
}

func defaultCapabilities() protocol.ClientCapabilities {
	t := true
	return protocol.ClientCapabilities{
		Workspace: &protocol.WorkspaceClientCapabilities{
			Configuration:          &t,
			DidChangeConfiguration: &protocol.DidChangeConfigurationClientCapabilities{DynamicRegistration: &t},
			WorkspaceFolders:       &t,
			CodeLens:               &protocol.CodeLensWorkspaceClientCapabilities{RefreshSupport: &t},
		},
		Window: &protocol.WindowClientCapabilities{WorkDoneProgress: &t},
	}
}

// Shutdown sends shutdown and exit and returns the server's return value.
func (c *Client) Shutdown(ctx context.Context) error {
	if err := c.Call(ctx, protocol.MethodShutdown, nil, nil); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := c.Notify(ctx, protocol.MethodExit, nil); err != nil {
		return fmt.Errorf("exit: %w", err)
	}
	select {
	case <-c.stopped:
		return c.serverErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Sync makes a round trip. The server handles notifications in wire order
// before it reads the next message, so once any reply arrives every earlier
// notification has been applied. The method does not exist on purpose.
func (c *Client) Sync(ctx context.Context) error {
	err := c.Call(ctx, "$/lsptest/sync", nil, nil)
	var w *jsonrpc2.Error
	if errors.As(err, &w) {
		return nil // MethodNotFound, or refused by the lifecycle: still a round trip
	}
	return err
}

// Open sends didOpen for path with version 1.
func (c *Client) Open(ctx context.Context, path, languageID, text string) error {
	u := uri.File(path)
	c.mu.Lock()
	c.versions[u] = 1
	c.mu.Unlock()
	return c.Notify(ctx, protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: protocol.LanguageKind(languageID), Version: 1, Text: text},
	})
}

// Change sends didChange with the next version.
func (c *Client) Change(ctx context.Context, path string, changes ...protocol.TextDocumentContentChangeEvent) error {
	u := uri.File(path)
	c.mu.Lock()
	c.versions[u]++
	v := c.versions[u]
	c.mu.Unlock()
	return c.Notify(ctx, protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: v},
		ContentChanges: changes,
	})
}

// Close sends didClose.
func (c *Client) Close(ctx context.Context, path string) error {
	return c.Notify(ctx, protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(path)},
	})
}

// Replace is an incremental change of a UTF-16 range.
func Replace(startLine, startCol, endLine, endCol uint32, text string) protocol.TextDocumentContentChangeEvent {
	return &protocol.TextDocumentContentChangePartial{
		Range: protocol.Range{
			Start: protocol.Position{Line: startLine, Character: startCol},
			End:   protocol.Position{Line: endLine, Character: endCol},
		},
		Text: text,
	}
}

// Whole is a full-text change.
func Whole(text string) protocol.TextDocumentContentChangeEvent {
	return &protocol.TextDocumentContentChangeWholeDocument{Text: text}
}

// State is what the client has recorded, as seen by Await conditions.
type State struct {
	// Diagnostics is the last publishDiagnostics per URI; a cleared file
	// has an entry with no diagnostics.
	Diagnostics map[uri.URI]protocol.PublishDiagnosticsParams
	// Publishes is every publishDiagnostics in arrival order.
	Publishes []protocol.PublishDiagnosticsParams
	// Diagnosed lists the snapshot of each $/clew/diagnosed, in order.
	Diagnosed []uint64
	// Statuses is every clew/status, in order.
	Statuses      []Status
	Logs          []protocol.LogMessageParams
	Progress      []json.RawMessage // the value of each $/progress
	Registrations []protocol.Registration
	// LensRefreshes counts workspace/codeLens/refresh requests.
	LensRefreshes int
	ConfigPulls   int
	// Errors is every error response the server sent, including those to
	// malformed input that the connection itself drops.
	Errors []ErrorResponse
	// Edits is every workspace/applyEdit the server asked for, in order.
	// The client answers applied: true and changes nothing itself.
	Edits []protocol.ApplyWorkspaceEditParams
}

// State returns a copy of what has been recorded.
func (c *Client) State() State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stateLocked()
}

func (c *Client) stateLocked() State {
	d := make(map[uri.URI]protocol.PublishDiagnosticsParams, len(c.diags))
	for k, v := range c.diags {
		d[k] = v
	}
	return State{
		Diagnostics:   d,
		Publishes:     slices.Clone(c.publishes),
		Diagnosed:     slices.Clone(c.diagnosed),
		Statuses:      slices.Clone(c.statuses),
		Logs:          slices.Clone(c.logs),
		Progress:      slices.Clone(c.progress),
		Registrations: slices.Clone(c.registrations),
		LensRefreshes: c.lensRefreshes,
		ConfigPulls:   c.configPulls,
		Errors:        slices.Clone(c.errs),
		Edits:         slices.Clone(c.edits),
	}
}

// Await blocks until cond holds for the recorded state, re-checking after
// every message from the server, or fails when ctx ends.
func (c *Client) Await(ctx context.Context, what string, cond func(State) bool) (State, error) {
	for {
		c.mu.Lock()
		st := c.stateLocked()
		ch := c.changed
		c.mu.Unlock()
		if cond(st) {
			return st, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return st, fmt.Errorf("lsptest: gave up waiting for %s: %w", what, ctx.Err())
		}
	}
}

// AwaitDiagnosed waits for a $/clew/diagnosed with a snapshot >= min.
func (c *Client) AwaitDiagnosed(ctx context.Context, min uint64) (State, error) {
	return c.Await(ctx, fmt.Sprintf("$/clew/diagnosed for snapshot >= %d", min), func(s State) bool {
		return len(s.Diagnosed) > 0 && s.Diagnosed[len(s.Diagnosed)-1] >= min
	})
}

// Diagnostics returns the current diagnostics of a path.
func (c *Client) Diagnostics(path string) []protocol.Diagnostic {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.diags[uri.File(path)].Diagnostics
}

func (c *Client) record(f func()) {
	c.mu.Lock()
	f()
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

func (c *Client) recordError(e ErrorResponse) {
	c.record(func() { c.errs = append(c.errs, e) })
}

// handle answers the server's requests and records its notifications.
func (c *Client) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	params := req.Params()
	switch req.Method() {
	case protocol.MethodTextDocumentPublishDiagnostics:
		var p protocol.PublishDiagnosticsParams
		if err := protocol.Unmarshal(params, &p); err != nil {
			c.t.Errorf("lsptest: bad publishDiagnostics: %v", err)
			return nil, nil
		}
		c.record(func() {
			c.diags[p.URI] = p
			c.publishes = append(c.publishes, p)
		})
	case MethodDiagnosed:
		var p struct {
			Snapshot uint64 `json:"snapshot"`
		}
		if err := json.Unmarshal(params, &p); err != nil {
			c.t.Errorf("lsptest: bad %s: %v", MethodDiagnosed, err)
		}
		c.record(func() { c.diagnosed = append(c.diagnosed, p.Snapshot) })
	case MethodStatus:
		var p Status
		if err := json.Unmarshal(params, &p); err != nil {
			c.t.Errorf("lsptest: bad %s: %v", MethodStatus, err)
		}
		c.record(func() { c.statuses = append(c.statuses, p) })
	case protocol.MethodWindowLogMessage, protocol.MethodWindowShowMessage:
		var p protocol.LogMessageParams
		_ = protocol.Unmarshal(params, &p)
		c.record(func() { c.logs = append(c.logs, p) })
	case protocol.MethodProgress:
		var p struct {
			Value json.RawMessage `json:"value"`
		}
		_ = json.Unmarshal(params, &p)
		c.record(func() { c.progress = append(c.progress, p.Value) })
	case protocol.MethodWindowWorkDoneProgressCreate:
		return nil, nil
	case protocol.MethodWorkspaceCodeLensRefresh:
		c.record(func() { c.lensRefreshes++ })
		return nil, nil
	case protocol.MethodClientRegisterCapability:
		var p protocol.RegistrationParams
		if err := protocol.Unmarshal(params, &p); err != nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
		}
		c.record(func() { c.registrations = append(c.registrations, p.Registrations...) })
		return nil, nil
	case protocol.MethodWorkspaceApplyEdit:
		var p protocol.ApplyWorkspaceEditParams
		if err := protocol.Unmarshal(params, &p); err != nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
		}
		c.record(func() { c.edits = append(c.edits, p) })
		return &protocol.ApplyWorkspaceEditResult{Applied: true}, nil
	case protocol.MethodWorkspaceConfiguration:
		var p protocol.ConfigurationParams
		if err := protocol.Unmarshal(params, &p); err != nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
		}
		out := make([]json.RawMessage, len(p.Items))
		for i, it := range p.Items {
			out[i] = json.RawMessage("null")
			if it.Section != nil && *it.Section == "clew" && c.opts.Settings != nil {
				out[i] = c.opts.Settings
			}
		}
		c.record(func() { c.configPulls++ })
		b, _ := json.Marshal(out)
		return jsonrpc2.RawMessage(b), nil
	default:
		if req.IsCall() {
			return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "lsptest: method not found: %s", req.Method())
		}
	}
	return nil, nil
}

// codec is the union-aware payload codec (go.lsp.dev/protocol's is unexported).
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	if raw, ok := v.(jsonrpc2.RawMessage); ok {
		return raw, nil
	}
	return protocol.Marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}
