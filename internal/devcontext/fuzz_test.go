package devcontext

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseRequest(t *testing.T) {
	r, err := ParseRequest([]byte(`{"position":{"path":"./a/b.go","line":3,"column":2},"uris":["clew://x"],"paths":["lib/"],
		"intent":"budget","budget_tokens":500,"max_depth":0,"floor":0,"all_blocking_claims":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if *r.BudgetTokens != 500 || *r.MaxDepth != 0 || *r.Floor != 0 || !r.AllBlockingClaims || r.Position.Line != 3 {
		t.Fatalf("%+v", r)
	}
	for _, bad := range []string{
		``, `null`, `[]`, `{"budget":1}`, `{"budget_tokens":0}`, `{"floor":1.01}`, `{"floor":-1}`, `{"max_depth":-1}`,
		`{"paths":["../x"]}`, `{"paths":["/abs"]}`, `{"position":{"path":"a.go","line":0}}`, `{} {}`, `{"uris":[""]}`,
		`{"position":{"path":"a.go","line":1,"extra":1}}`, `{"budget_tokens":-5}`, `{"URIs":["x"]}`, `{"position":{"Path":"a.go","line":1}}`,
	} {
		if _, err := ParseRequest([]byte(bad)); !errors.Is(err, ErrInvalidRequest) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	ex, err := ParseExplainRequest([]byte(`{"uri":"clew://adr/adr-1","budget_tokens":10}`))
	if err != nil || ex.URI != "clew://adr/adr-1" || *ex.BudgetTokens != 10 {
		t.Fatalf("%+v %v", ex, err)
	}
	for _, bad := range []string{`{"budget_tokens":10}`, `{"uri":"x","nope":1}`} {
		if _, err := ParseExplainRequest([]byte(bad)); !errors.Is(err, ErrInvalidRequest) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// FuzzParseRequest: never panics; what it accepts re-encodes to a request
// it accepts again, equal to the first, and compiles without panicking.
func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{`{}`, `{"budget_tokens":1}`, `{"position":{"path":"internal/lsp/server.go","line":50}}`,
		`{"uris":["clew://adr/adr-0002"],"floor":0.5,"max_depth":2}`, `{"paths":["./internal/"],"intent":"load the workspace"}`,
		`{"all_blocking_claims":true}`, `{"floor":1e309}`, `{"budget_tokens":18446744073709551615}`} {
		f.Add([]byte(s))
	}
	w := newTour().world()
	p := Prepare(w)
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRequest(data)
		if err != nil {
			if !errors.Is(err, ErrInvalidRequest) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		b := mustJSON(t, r)
		r2, err := ParseRequest(b)
		if err != nil {
			t.Fatalf("re-encoded request rejected: %s: %v", b, err)
		}
		if !reflect.DeepEqual(r, r2) {
			t.Fatalf("round trip changed the request: %+v vs %+v", r, r2)
		}
		if _, err := p.Compile(r); err != nil && !errors.Is(err, ErrUnknownTarget) && !errors.Is(err, ErrInvalidRequest) {
			t.Fatalf("compile: %v", err)
		}
	})
}
