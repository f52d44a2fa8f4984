package lsp

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// codeRequestFailed is LSP's RequestFailed (3.17): the request was well
// formed but could not be answered. go.lsp.dev/protocol v1.0.1 lacks it.
const codeRequestFailed jsonrpc2.Code = -32803

// kind says how a method is scheduled.
type kind int

const (
	// inline methods run on the read loop, in wire order: lifecycle and text
	// sync. They must be quick and must not call the client and wait.
	inline kind = iota
	// concurrent methods (queries) take a snapshot on the read loop, then
	// release it (jsonrpc2.Async) and run concurrently with later messages.
	concurrent
)

// route is one method the server implements.
type route struct {
	method string
	kind   kind
	// advertise sets the capability that tells the client to use this
	// method. Initialize builds the capabilities from the routes alone, so
	// nothing is advertised that has no handler.
	advertise func(*protocol.ServerCapabilities)
	handle    func(ctx context.Context, s *server, req *jsonrpc2.Request) (any, error)
}

// notification declares an inline notification handler. Its error is logged,
// never returned: jsonrpc2 closes the connection on a notification error.
func notification[P any](method string, advertise func(*protocol.ServerCapabilities), h func(ctx context.Context, s *server, p *P) error) *route {
	return &route{method: method, kind: inline, advertise: advertise,
		handle: func(ctx context.Context, s *server, req *jsonrpc2.Request) (any, error) {
			var p P
			if err := decodeParams(req, &p); err != nil {
				return nil, err
			}
			return nil, h(ctx, s, &p)
		}}
}

// call declares an inline request handler (lifecycle requests).
func call[P, R any](method string, h func(ctx context.Context, s *server, p *P) (R, error)) *route {
	return &route{method: method, kind: inline,
		handle: func(ctx context.Context, s *server, req *jsonrpc2.Request) (any, error) {
			var p P
			if err := decodeParams(req, &p); err != nil {
				return nil, err
			}
			return h(ctx, s, &p)
		}}
}

// queryCall declares a feature request: params decoded and a snapshot taken
// in wire order (so the answer reflects every edit sent before it), then the
// handler runs concurrently.
func queryCall[P, R any](method string, advertise func(*protocol.ServerCapabilities), h func(ctx context.Context, s *server, snap Snapshot, p *P) (R, error)) *route {
	return &route{method: method, kind: concurrent, advertise: advertise,
		handle: func(ctx context.Context, s *server, req *jsonrpc2.Request) (any, error) {
			var p P
			if err := decodeParams(req, &p); err != nil {
				return nil, err
			}
			snap, release := s.backend.Snapshot()
			defer release()
			goAsync(ctx)
			return h(ctx, s, snap, &p)
		}}
}

func decodeParams(req *jsonrpc2.Request, p any) error {
	raw := req.Params()
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if err := protocol.Unmarshal(raw, p); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params for %s: %v", req.Method(), err)
	}
	return nil
}

// routeTable indexes routes by method; later routes replace earlier ones.
func routeTable(routes ...[]*route) map[string]*route {
	m := make(map[string]*route)
	for _, rs := range routes {
		for _, r := range rs {
			m[r.method] = r
		}
	}
	return m
}

// capabilities derives the server capabilities from the routes, in a fixed
// order so the initialize result is byte-stable.
func capabilities(routes map[string]*route) protocol.ServerCapabilities {
	caps := protocol.ServerCapabilities{PositionEncoding: protocol.PositionEncodingKindUTF16}
	methods := make([]string, 0, len(routes))
	for m := range routes {
		methods = append(methods, m)
	}
	slices.Sort(methods)
	for _, m := range methods {
		if adv := routes[m].advertise; adv != nil {
			adv(&caps)
		}
	}
	return caps
}

// handle is the connection's handler: cancellation, lifecycle gate, routing,
// panic recovery and error mapping, in that order.
//
// Handlers get a context derived from the connection's, not from jsonrpc2's
// per-request context: jsonrpc2 v1.0.1 pools that context and recycles it
// when the handler returns, so a context.WithCancel child of it (whose
// watcher goroutine calls its Done later) panics on a nil parent. The
// request context is kept only to call jsonrpc2.Async.
func (s *server) handle(reqCtx context.Context, req *jsonrpc2.Request) (any, error) {
	method := req.Method()
	if method == protocol.MethodCancelRequest {
		s.cancelRequest(req)
		return nil, nil
	}
	if err := s.admit(method, req.IsCall()); err != nil {
		if !req.IsCall() {
			s.logger.Debug("dropped notification", "method", method, "reason", err)
			return nil, nil
		}
		return nil, err
	}
	r := s.routes[method]
	if r == nil {
		if !req.IsCall() {
			return nil, nil // unknown notifications are ignored (LSP: "$/" ones may be)
		}
		return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", method)
	}
	// The method string borrows the frame; the deferred recover may run after
	// Async has handed the frame back to the reader.
	method = strings.Clone(method)
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	ctx = context.WithValue(ctx, requestCtxKey{}, reqCtx)
	if req.IsCall() {
		id := req.ID()
		ctx = context.WithValue(ctx, requestIDKey{}, id)
		s.inflight.add(id, cancel)
		defer s.inflight.remove(id)
	}
	result, err := s.invoke(ctx, r, method, req)
	if !req.IsCall() {
		if err != nil {
			s.logger.Error("notification failed", "method", method, "error", err)
		}
		return nil, nil
	}
	if err != nil {
		return nil, s.wireError(ctx, method, err)
	}
	return result, nil
}

type (
	requestCtxKey struct{} // the jsonrpc2 request context, for Async
	requestIDKey  struct{} // the jsonrpc2.ID of a request
)

// goAsync releases the read loop so later messages are handled while this
// request runs (jsonrpc2.Async on the original request context).
func goAsync(ctx context.Context) {
	if reqCtx, ok := ctx.Value(requestCtxKey{}).(context.Context); ok {
		jsonrpc2.Async(reqCtx)
	}
}

// inflight maps the ids of running requests to their cancel functions.
type inflight struct {
	mu sync.Mutex
	m  map[jsonrpc2.ID]context.CancelFunc
}

func (f *inflight) add(id jsonrpc2.ID, cancel context.CancelFunc) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.m == nil {
		f.m = make(map[jsonrpc2.ID]context.CancelFunc)
	}
	f.m[id] = cancel
}

func (f *inflight) remove(id jsonrpc2.ID) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.m, id)
}

func (f *inflight) cancel(id jsonrpc2.ID) {
	f.mu.Lock()
	cancel := f.m[id]
	f.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// invoke runs one handler and turns a panic into an InternalError, reported
// to the editor through window/logMessage. Async does not change goroutines,
// so this recover also covers a query's concurrent part.
func (s *server) invoke(ctx context.Context, r *route, method string, req *jsonrpc2.Request) (result any, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.logger.Error("handler panicked", "method", method, "panic", p, "stack", string(debug.Stack()))
			s.logToClient(protocol.MessageTypeError, fmt.Sprintf("clew-lsp: internal error in %s: %v (the server keeps running; please report this)", method, p))
			result, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", method, p)
		}
	}()
	return r.handle(ctx, s, req)
}

// wireError gives every error a JSON-RPC code: jsonrpc2 would send a plain
// error with code 0, which clients treat as malformed.
func (s *server) wireError(ctx context.Context, method string, err error) error {
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ctx.Err())) {
		return protocol.ErrRequestCancelled
	}
	var wire *jsonrpc2.Error
	if errors.As(err, &wire) {
		return err
	}
	s.logger.Info("request failed", "method", method, "error", err)
	return jsonrpc2.NewError(codeRequestFailed, err.Error())
}

// cancelRequest honours $/cancelRequest by cancelling the context of the
// named in-flight request; the request then answers RequestCancelled.
func (s *server) cancelRequest(req *jsonrpc2.Request) {
	var p protocol.CancelParams
	if err := protocol.Unmarshal(req.Params(), &p); err != nil {
		s.logger.Warn("malformed $/cancelRequest", "error", err)
		return
	}
	switch id := p.ID.(type) {
	case protocol.Integer:
		s.inflight.cancel(jsonrpc2.NewNumberID(int64(id)))
	case protocol.String:
		s.inflight.cancel(jsonrpc2.NewStringID(string(id)))
	default:
		s.logger.Warn("malformed $/cancelRequest id", "id", fmt.Sprint(p.ID))
	}
}
