package lsp

import (
	"context"
	"fmt"
	"testing"

	"go.lsp.dev/jsonrpc2"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
)

// echo is a test request that answers its params.
var echo = call("test/echo", func(ctx context.Context, s *server, p *map[string]any) (any, error) {
	return *p, nil
})

func frame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// TestMalformedFrames sends each kind of broken input, then checks that the
// right error came back and that a valid request is still answered.
func TestMalformedFrames(t *testing.T) {
	tests := []struct {
		name   string
		raw    string
		code   jsonrpc2.Code
		id     string
		glued  bool // the raw bytes already contain the follow-up request
		noResp bool
	}{
		{name: "body is not JSON", raw: frame(`{"jsonrpc":"2.0","id":1,"method":`), code: jsonrpc2.ParseError, id: "null"},
		{name: "body is garbage text", raw: frame(`hello there`), code: jsonrpc2.ParseError, id: "null"},
		{name: "non-numeric Content-Length", raw: "Content-Length: abc\r\n\r\n{}", code: jsonrpc2.ParseError, id: "null"},
		{name: "negative Content-Length", raw: "Content-Length: -4\r\n\r\n", code: jsonrpc2.ParseError, id: "null"},
		{name: "huge Content-Length", raw: "Content-Length: 99999999999\r\n\r\n", code: jsonrpc2.ParseError, id: "null"},
		{name: "no Content-Length", raw: "Content-Type: application/json\r\n\r\n", code: jsonrpc2.ParseError, id: "null"},
		{name: "header line without colon", raw: "Content-Length 12\r\n\r\n", code: jsonrpc2.ParseError, id: "null"},
		{name: "valid JSON, not a request", raw: frame(`{"jsonrpc":"2.0","id":7,"method":5}`), code: jsonrpc2.InvalidRequest, id: "7"},
		{name: "a bare number", raw: frame(`42`), code: jsonrpc2.InvalidRequest, id: "null"},
		{name: "method with result", raw: frame(`{"jsonrpc":"2.0","id":"x","method":"a","result":1}`), code: jsonrpc2.InvalidRequest, id: `"x"`},
		{
			name:  "body without header glued to the next frame",
			raw:   `{"jsonrpc":"2.0","id":3,"method":"test/echo"}` + frame(`{"jsonrpc":"2.0","id":99,"method":"test/echo","params":{"glued":true}}`),
			code:  jsonrpc2.ParseError,
			id:    "null",
			glued: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, lsptest.Options{}, withRoutes(echo))
			e.start()
			must(t, e.client.WriteRaw([]byte(tt.raw)))
			st, err := e.client.Await(e.ctx, "error response", func(s lsptest.State) bool { return len(s.Errors) > 0 })
			must(t, err)
			if got := st.Errors[0]; got.Code != tt.code || got.ID != tt.id {
				t.Errorf("error response = %+v, want code %d id %s", got, tt.code, tt.id)
			}
			if tt.glued {
				// The glued request must have been recovered and answered.
				if _, err := e.client.Await(e.ctx, "no second error", func(s lsptest.State) bool { return len(s.Errors) == 1 }); err != nil {
					t.Fatal(err)
				}
			}
			var res map[string]any
			if err := e.client.Call(e.ctx, "test/echo", map[string]any{"alive": true}, &res); err != nil {
				t.Fatalf("request after malformed frame: %v", err)
			}
			if res["alive"] != true {
				t.Errorf("echo = %v", res)
			}
			if st := e.client.State(); len(st.Errors) != 1 {
				t.Errorf("want exactly one error response, got %+v", st.Errors)
			}
		})
	}
}

// TestMalformedBodyWithNewlinesGivesOneError: after a bad header, a
// multi-line body must not produce one error per line.
func TestMalformedBodyWithNewlinesGivesOneError(t *testing.T) {
	e := newEnv(t, lsptest.Options{}, withRoutes(echo))
	e.start()
	must(t, e.client.WriteRaw([]byte("Content-Length: x\r\n\r\n{\n  \"a\": 1,\n  \"b\": 2\n}\n")))
	if err := e.client.Call(e.ctx, "test/echo", map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	if st := e.client.State(); len(st.Errors) != 1 {
		t.Errorf("want one error response, got %+v", st.Errors)
	}
}

func TestStreamReadsHeadersLeniently(t *testing.T) {
	// Lower-case names, extra fields and stray blank lines are all fine.
	e := newEnv(t, lsptest.Options{}, withRoutes(echo))
	e.start()
	body := `{"jsonrpc":"2.0","method":"$/unknown"}`
	must(t, e.client.WriteRaw([]byte(fmt.Sprintf("\r\ncontent-length: %d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n%s", len(body), body))))
	if err := e.client.Call(e.ctx, "test/echo", map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	if st := e.client.State(); len(st.Errors) != 0 {
		t.Errorf("unexpected error responses %+v", st.Errors)
	}
}
