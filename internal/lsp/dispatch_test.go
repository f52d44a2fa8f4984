package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
)

func wireCode(t *testing.T, err error) jsonrpc2.Code {
	t.Helper()
	var w *jsonrpc2.Error
	if !errors.As(err, &w) {
		t.Fatalf("error %v (%T) is not a JSON-RPC error", err, err)
	}
	return w.Code
}

func TestCapabilitiesFollowRoutes(t *testing.T) {
	decode := func(res *protocol.InitializeResult) map[string]any {
		b, err := protocol.Marshal(res.Capabilities)
		must(t, err)
		var m map[string]any
		must(t, json.Unmarshal(b, &m))
		return m
	}

	e := newEnv(t, lsptest.Options{})
	res, err := e.client.Initialize(e.ctx, e.root)
	must(t, err)
	caps := decode(res)
	want := map[string]any{
		"positionEncoding": "utf-16",
		"textDocumentSync": map[string]any{"openClose": true, "change": float64(2), "save": map[string]any{"includeText": false}},
	}
	if a, b := mustJSON(t, caps), mustJSON(t, want); a != b {
		t.Errorf("capabilities = %s\nwant %s", a, b)
	}
	if res.ServerInfo.Name != "clew-lsp" {
		t.Errorf("serverInfo = %+v", res.ServerInfo)
	}

	// Registering a handler is what advertises it.
	hover := queryCall(protocol.MethodTextDocumentHover,
		func(c *protocol.ServerCapabilities) { c.HoverProvider = protocol.Boolean(true) },
		func(ctx context.Context, s *server, snap Snapshot, p *protocol.HoverParams) (*protocol.Hover, error) {
			return nil, nil
		})
	e2 := newEnv(t, lsptest.Options{}, withRoutes(hover))
	res2, err := e2.client.Initialize(e2.ctx, e2.root)
	must(t, err)
	if decode(res2)["hoverProvider"] != true {
		t.Errorf("hover handler registered but not advertised: %v", decode(res2))
	}
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	must(t, err)
	return string(b)
}

func TestRequestBeforeInitialize(t *testing.T) {
	e := newEnv(t, lsptest.Options{}, withRoutes(echo))
	err := e.client.Call(e.ctx, "test/echo", map[string]any{}, nil)
	if wireCode(t, err) != jsonrpc2.ServerNotInitialized {
		t.Errorf("got %v, want ServerNotInitialized", err)
	}
	e.start()
	err = e.client.Call(e.ctx, protocol.MethodInitialize, &protocol.InitializeParams{}, nil)
	if wireCode(t, err) != jsonrpc2.InvalidRequest {
		t.Errorf("second initialize: got %v, want InvalidRequest", err)
	}
}

func TestUnknownMethod(t *testing.T) {
	e := newEnv(t, lsptest.Options{}, withRoutes(echo))
	e.start()
	err := e.client.Call(e.ctx, "textDocument/noSuchThing", map[string]any{}, nil)
	if wireCode(t, err) != jsonrpc2.MethodNotFound {
		t.Errorf("got %v, want MethodNotFound", err)
	}
	must(t, e.client.Notify(e.ctx, "$/noSuchNotification", map[string]any{}))
	must(t, e.client.Notify(e.ctx, "custom/noSuchNotification", nil))
	must(t, e.client.Call(e.ctx, "test/echo", map[string]any{}, nil))
}

func TestInvalidParams(t *testing.T) {
	e := newEnv(t, lsptest.Options{}, withRoutes(echo))
	e.start()
	err := e.client.Call(e.ctx, "test/echo", []int{1, 2}, nil)
	if wireCode(t, err) != jsonrpc2.InvalidParams {
		t.Errorf("got %v, want InvalidParams", err)
	}
	// A notification with bad params is logged, never fatal.
	must(t, e.client.Notify(e.ctx, protocol.MethodTextDocumentDidOpen, []int{1}))
	must(t, e.client.Call(e.ctx, "test/echo", map[string]any{}, nil))
}

func TestHandlerErrorsHaveCodes(t *testing.T) {
	failing := call("test/fail", func(ctx context.Context, s *server, p *struct{}) (any, error) {
		return nil, errors.New("document not found")
	})
	e := newEnv(t, lsptest.Options{}, withRoutes(failing))
	e.start()
	err := e.client.Call(e.ctx, "test/fail", nil, nil)
	if wireCode(t, err) != codeRequestFailed || !strings.Contains(err.Error(), "document not found") {
		t.Errorf("got %v, want RequestFailed with the message", err)
	}
}

func TestPanicIsRecovered(t *testing.T) {
	boom := queryCall("test/panic", nil, func(ctx context.Context, s *server, snap Snapshot, p *struct{}) (any, error) {
		panic("kaboom")
	})
	boomInline := call("test/panicInline", func(ctx context.Context, s *server, p *struct{}) (any, error) {
		panic("inline kaboom")
	})
	boomNote := notification("test/panicNote", nil, func(ctx context.Context, s *server, p *struct{}) error {
		panic("note kaboom")
	})
	e := newEnv(t, lsptest.Options{}, withRoutes(echo, boom, boomInline, boomNote))
	e.start()

	for _, m := range []string{"test/panic", "test/panicInline"} {
		err := e.client.Call(e.ctx, m, nil, nil)
		if wireCode(t, err) != jsonrpc2.InternalError {
			t.Errorf("%s: got %v, want InternalError", m, err)
		}
	}
	must(t, e.client.Notify(e.ctx, "test/panicNote", nil))
	st, err := e.client.Await(e.ctx, "three error logs", func(s lsptest.State) bool {
		n := 0
		for _, l := range s.Logs {
			if l.Type == protocol.MessageTypeError && strings.Contains(l.Message, "kaboom") {
				n++
			}
		}
		return n == 3
	})
	if err != nil {
		t.Fatalf("%v; logs: %+v", err, st.Logs)
	}
	must(t, e.client.Call(e.ctx, "test/echo", map[string]any{}, nil))
}

func TestDiagnosePanicIsRecovered(t *testing.T) {
	e := newEnv(t, lsptest.Options{}, withRoutes(echo))
	e.backend.onDiag = func(ctx context.Context, id uint64) error {
		if id == 1 {
			panic("diagnose kaboom")
		}
		return nil
	}
	e.start()
	must(t, e.client.Open(e.ctx, e.path("a.md"), "markdown", "BAD"))
	if _, err := e.client.Await(e.ctx, "error log", func(s lsptest.State) bool {
		return len(s.Logs) > 0 && strings.Contains(s.Logs[0].Message, "diagnose kaboom")
	}); err != nil {
		t.Fatal(err)
	}
	must(t, e.client.Change(e.ctx, e.path("a.md"), lsptest.Whole("BAD BAD")))
	e.settle()
	if n := len(e.client.Diagnostics(e.path("a.md"))); n != 2 {
		t.Errorf("after recovery: %d diagnostics, want 2", n)
	}
}

func TestCancelRequest(t *testing.T) {
	started := make(chan jsonrpc2.ID, 1)
	block := queryCall("test/block", nil, func(ctx context.Context, s *server, snap Snapshot, p *struct{}) (any, error) {
		id, _ := ctx.Value(requestIDKey{}).(jsonrpc2.ID)
		started <- id
		<-ctx.Done()
		return nil, ctx.Err()
	})
	e := newEnv(t, lsptest.Options{}, withRoutes(echo, block))
	e.start()

	errc := make(chan error, 1)
	go func() { errc <- e.client.Call(e.ctx, "test/block", nil, nil) }()
	var id jsonrpc2.ID
	select {
	case id = <-started:
	case <-e.ctx.Done():
		t.Fatal("handler never started")
	}
	// The blocked query went async: the server still answers others.
	must(t, e.client.Call(e.ctx, "test/echo", map[string]any{}, nil))
	n, _ := id.Number()
	must(t, e.client.Cancel(e.ctx, n))
	select {
	case err := <-errc:
		if wireCode(t, err) != protocol.CodeRequestCancelled {
			t.Errorf("got %v, want RequestCancelled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancelled request never answered")
	}
	// Cancelling an unknown or finished id is harmless.
	must(t, e.client.Cancel(e.ctx, 12345))
	must(t, e.client.Call(e.ctx, "test/echo", map[string]any{}, nil))
}
