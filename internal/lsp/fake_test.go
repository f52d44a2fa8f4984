package lsp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
)

// fakeBackend is a tiny in-memory Backend for transport tests. Its
// diagnostics come from a rule over the open buffers (default: every "BAD"
// is a warning), which is enough to exercise publishing without a workspace.
type fakeBackend struct {
	mu       sync.Mutex
	id       uint64
	files    map[string][]byte
	changes  []Change
	settings []Settings
	folders  []string

	rule     func(id uint64, path string, text []byte) []Diagnostic
	onLoad   func(ctx context.Context, p Progress) error // optional
	onDiag   func(ctx context.Context, id uint64) error  // optional; runs before the rule
	loadDone chan struct{}
}

func newFake() *fakeBackend {
	return &fakeBackend{files: make(map[string][]byte), loadDone: make(chan struct{})}
}

func (b *fakeBackend) Load(ctx context.Context, folders []string, settings Settings, p Progress) error {
	defer close(b.loadDone)
	b.mu.Lock()
	b.folders = folders
	b.settings = append(b.settings, settings)
	b.mu.Unlock()
	if b.onLoad != nil {
		return b.onLoad(ctx, p)
	}
	return nil
}

func (b *fakeBackend) Apply(ctx context.Context, changes []Change) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, c := range changes {
		b.changes = append(b.changes, c)
		switch c.Kind {
		case Open, Edit:
			b.files[c.Path] = c.Text
		case Close:
			delete(b.files, c.Path)
		}
	}
	b.id++
	return nil
}

func (b *fakeBackend) Configure(ctx context.Context, s Settings) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.settings = append(b.settings, s)
	b.id++
	return nil
}

func (b *fakeBackend) Snapshot() (Snapshot, func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	files := make(map[string][]byte, len(b.files))
	for k, v := range b.files {
		files[k] = v
	}
	return &fakeSnapshot{b: b, id: b.id, files: files}, func() {}
}

func (b *fakeBackend) text(path string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.files[path])
}

func (b *fakeBackend) lastID() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.id
}

type fakeSnapshot struct {
	b     *fakeBackend
	id    uint64
	files map[string][]byte
}

func (s *fakeSnapshot) ID() uint64 { return s.id }

func (s *fakeSnapshot) Diagnose(ctx context.Context) (map[string]FileDiagnostics, error) {
	if s.b.onDiag != nil {
		if err := s.b.onDiag(ctx, s.id); err != nil {
			return nil, err
		}
	}
	rule := s.b.rule
	if rule == nil {
		rule = markBad
	}
	out := make(map[string]FileDiagnostics)
	for path, text := range s.files {
		if items := rule(s.id, path, text); len(items) > 0 {
			out[path] = FileDiagnostics{Text: text, Items: items}
		}
	}
	return out, nil
}

// markBad flags every occurrence of "BAD".
func markBad(_ uint64, _ string, text []byte) []Diagnostic {
	var out []Diagnostic
	for i := 0; ; {
		j := bytes.Index(text[i:], []byte("BAD"))
		if j < 0 {
			return out
		}
		out = append(out, Diagnostic{Start: i + j, End: i + j + 3, Severity: SeverityWarning, Code: "test/bad", Message: "bad word"})
		i += j + 3
	}
}

// env is one server on a pipe with a fake backend and a test client.
type env struct {
	t       *testing.T
	ctx     context.Context
	backend *fakeBackend
	client  *lsptest.Client
	root    string
}

// newEnv starts a server; setup may adjust the backend before it runs.
func newEnv(t *testing.T, opts lsptest.Options, serverOpts ...Option) *env {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	b := newFake()
	e := &env{t: t, ctx: ctx, backend: b, root: t.TempDir()}
	serverOpts = append([]Option{WithDiagnosticsDelay(5 * time.Millisecond)}, serverOpts...)
	e.client = lsptest.Pipe(t, func(ctx context.Context, rwc io.ReadWriteCloser) error {
		return Serve(ctx, rwc, b, nil, serverOpts...)
	}, opts)
	return e
}

// start initializes and waits for indexing to finish.
func (e *env) start() {
	e.t.Helper()
	if _, err := e.client.Initialize(e.ctx, e.root); err != nil {
		e.t.Fatalf("initialize: %v", err)
	}
	select {
	case <-e.backend.loadDone:
	case <-e.ctx.Done():
		e.t.Fatal("Load never ran")
	}
}

func (e *env) path(name string) string { return filepath.Join(e.root, name) }

// settle waits until the newest snapshot has been diagnosed.
func (e *env) settle() lsptest.State {
	e.t.Helper()
	must(e.t, e.client.Sync(e.ctx))
	st, err := e.client.AwaitDiagnosed(e.ctx, e.backend.lastID())
	if err != nil {
		e.t.Fatal(err)
	}
	return st
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func describe(st lsptest.State) string {
	var b bytes.Buffer
	for _, p := range st.Publishes {
		fmt.Fprintf(&b, "  %s: %d diagnostics\n", p.URI, len(p.Diagnostics))
	}
	return b.String()
}
