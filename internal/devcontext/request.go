package devcontext

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"
)

// Request is what Compile is asked (docs/context.md). Every field is
// optional; the knobs are pointers so "omitted" (default) and "0" (for the
// budget: an error) stay distinct.
type Request struct {
	Position          *Position `json:"position,omitempty"`
	URIs              []string  `json:"uris,omitempty"`
	Paths             []string  `json:"paths,omitempty"`
	Intent            string    `json:"intent,omitempty"`
	BudgetTokens      *uint64   `json:"budget_tokens,omitempty"`
	MaxDepth          *int      `json:"max_depth,omitempty"`
	Floor             *float64  `json:"floor,omitempty"`
	AllBlockingClaims bool      `json:"all_blocking_claims,omitempty"`
}

// Position is the cursor: a repository-relative path and a 1-based line and
// column. Column 0 means "somewhere on the line". The workspace layer turns
// LSP's 0-based UTF-16 positions into the units of the world's Ranges.
type Position struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Column int    `json:"column,omitempty"`
}

// ExplainRequest is a URI plus the request to judge it under, flattened.
type ExplainRequest struct {
	URI string `json:"uri"`
	Request
}

// Errors. Both mean the request, not the world, is at fault; ExitCode maps
// them onto the CLI's exit codes (docs/json.md).
var (
	ErrInvalidRequest = errors.New("invalid request")
	ErrUnknownTarget  = errors.New("unknown target")
)

// Exit codes of `clew-lsp context` (docs/json.md, docs/context.md).
const (
	ExitOK            = 0
	ExitInvalid       = 2
	ExitOverBudget    = 10
	ExitUnknownTarget = 12
)

// ExitCode maps a Compile result onto the CLI's exit code. An over-budget
// answer is still an answer: the caller prints it and exits 10.
func ExitCode(c CompiledContext, err error) int {
	switch {
	case errors.Is(err, ErrUnknownTarget):
		return ExitUnknownTarget
	case err != nil:
		return ExitInvalid
	case c.Budget.OverBudget:
		return ExitOverBudget
	}
	return ExitOK
}

func invalid(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidRequest, fmt.Sprintf(format, a...))
}

func unknown(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrUnknownTarget, fmt.Sprintf(format, a...))
}

// ParseRequest decodes one JSON object, rejecting unknown fields and trailing
// data, and validates it.
func ParseRequest(data []byte) (Request, error) {
	var r Request
	if err := decodeStrict(data, &r); err != nil {
		return Request{}, err
	}
	if _, err := r.settings(); err != nil {
		return Request{}, err
	}
	return r.canonical(), nil
}

// canonical drops empty lists, so a parsed request equals its re-encoding.
func (r Request) canonical() Request {
	if len(r.URIs) == 0 {
		r.URIs = nil
	}
	if len(r.Paths) == 0 {
		r.Paths = nil
	}
	return r
}

// ParseExplainRequest is ParseRequest for Explain: a required uri beside the
// same fields.
func ParseExplainRequest(data []byte) (ExplainRequest, error) {
	var r ExplainRequest
	if err := decodeStrict(data, &r); err != nil {
		return ExplainRequest{}, err
	}
	if strings.TrimSpace(r.URI) == "" {
		return ExplainRequest{}, invalid("uri is required")
	}
	if _, err := r.Request.settings(); err != nil {
		return ExplainRequest{}, err
	}
	r.Request = r.Request.canonical()
	return r, nil
}

// Field names a request may carry, exactly: encoding/json alone would also
// accept "URIs" or "Budget_Tokens", and a misspelt knob must not be silently
// taken for another.
var (
	requestFields  = []string{"position", "uris", "paths", "intent", "budget_tokens", "max_depth", "floor", "all_blocking_claims"}
	positionFields = []string{"path", "line", "column"}
)

func decodeStrict(data []byte, v any) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return invalid("a request is one JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return invalid("%v", err)
	}
	if dec.More() {
		return invalid("trailing data after the request object")
	}
	allowed := requestFields
	if _, ok := v.(*ExplainRequest); ok {
		allowed = append([]string{"uri"}, requestFields...)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &raw); err != nil {
		return invalid("%v", err)
	}
	if err := exactKeys(raw, allowed); err != nil {
		return err
	}
	if pos, ok := raw["position"]; ok && !bytes.Equal(bytes.TrimSpace(pos), []byte("null")) {
		var p map[string]json.RawMessage
		if err := json.Unmarshal(pos, &p); err != nil {
			return invalid("position: %v", err)
		}
		return exactKeys(p, positionFields)
	}
	return nil
}

func exactKeys(m map[string]json.RawMessage, allowed []string) error {
	for k := range m {
		if !slices.Contains(allowed, k) {
			return invalid("unknown field %q", k)
		}
	}
	return nil
}

// settings are a request's knobs with defaults applied and validated.
type settings struct {
	limit    uint64
	maxDepth int
	floor    float64
	paths    []string // normalised requested paths
}

func (r Request) settings() (settings, error) {
	s := settings{limit: DefaultBudgetTokens, maxDepth: DefaultMaxDepth, floor: DefaultFloor}
	if r.BudgetTokens != nil {
		if *r.BudgetTokens == 0 {
			return s, invalid("budget_tokens must be above zero")
		}
		s.limit = *r.BudgetTokens
	}
	if r.MaxDepth != nil {
		if *r.MaxDepth < 0 {
			return s, invalid("max_depth must not be negative")
		}
		s.maxDepth = *r.MaxDepth
	}
	if r.Floor != nil {
		f := *r.Floor
		if math.IsNaN(f) || f < 0 || f > 1 {
			return s, invalid("floor must be within [0, 1], got %v", f)
		}
		s.floor = f
	}
	if p := r.Position; p != nil {
		if _, err := normPath(p.Path); err != nil {
			return s, err
		}
		if p.Line < 1 || p.Column < 0 {
			return s, invalid("position line is 1-based and column is not negative")
		}
	}
	for _, u := range r.URIs {
		if strings.TrimSpace(u) == "" {
			return s, invalid("an empty uri")
		}
	}
	for _, p := range r.Paths {
		n, err := normPath(p)
		if err != nil {
			return s, err
		}
		s.paths = append(s.paths, n)
	}
	return s, nil
}

// normPath trims, strips "./" and a trailing "/", and refuses anything that
// is not repository-relative.
func normPath(p string) (string, error) {
	p = strings.TrimSpace(p)
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	p = strings.TrimRight(p, "/")
	if p == "" {
		return "", invalid("an empty path")
	}
	if strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || strings.Contains(p, "\x00") {
		return "", invalid("path %q is not repository-relative", p)
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return "", invalid("path %q is not repository-relative", p)
		}
	}
	if c := path.Clean(p); c != p && p != "." {
		return c, nil
	}
	return p, nil
}
