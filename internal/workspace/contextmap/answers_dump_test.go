package contextmap_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// TestDumpAnswers writes the answers (JSON, Markdown, an Explain) of fixed
// requests on $(go env GOROOT)/src and on the generated 1,000-file
// workload into $CLEW_CONTEXT_DUMP, one file per request, so the answers
// of two builds can be compared byte for byte:
//
//	CLEW_CONTEXT_DUMP=/tmp/before go test ./internal/workspace/contextmap -run DumpAnswers -timeout 30m
//	(change, then the same into /tmp/after) && diff -r /tmp/before /tmp/after
//
// The requests run one after the other on one snapshot (what a server
// answers); the last runs again first on a new Load, and the test fails
// when the two answers differ.
func TestDumpAnswers(t *testing.T) {
	out := os.Getenv("CLEW_CONTEXT_DUMP")
	if out == "" {
		t.Skip("set CLEW_CONTEXT_DUMP to a directory")
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip(err)
	}
	src := filepath.Join(strings.TrimSpace(string(goroot)), "src")
	budget := uint64(2000)
	var reqs []devcontext.Request
	for _, s := range []struct{ file, text string }{
		{"net/http/server.go", "func (s *Server) ListenAndServe() error {"},
		{"net/http/server.go", "func (s *Server) Serve(l net.Listener) error {"},
		{"net/http/server.go", "func (s *Server) Shutdown(ctx context.Context) error {"},
		{"net/http/server.go", "func (s *Server) Close() error {"},
		{"net/http/server.go", "func (s *Server) RegisterOnShutdown(f func()) {"},
		{"os/file.go", "func (f *File) Write(b []byte) (n int, err error) {"},
		{"strings/builder.go", "func (b *Builder) WriteString(s string) (int, error) {"},
		{"runtime/proc.go", "func schedule() {"},
		{"net/http/server.go", "type Server struct {"},
	} {
		reqs = append(reqs, at(s.file, lineIn(t, filepath.Join(src, s.file), s.text)))
	}
	withIntent := reqs[0]
	withIntent.Intent = "graceful shutdown of idle connections"
	small := reqs[1]
	small.BudgetTokens = &budget
	byURI := reqs[2]
	byURI.Paths = []string{"net/http/httptest"}
	reqs = append(reqs, withIntent, small, byURI)
	dumpAnswers(t, filepath.Join(out, "goroot"), src, reqs, "clew://symbol/net/http.Server.Serve")

	r := genContextRepo(t, 1000)
	dumpAnswers(t, filepath.Join(out, "gen1000"), r.Dir,
		[]devcontext.Request{at("pkg/p0/f1.go", 8), at("pkg/p0/f2.go", 8), at("pkg/p3/f91.go", 8), at("pkg/p7/f215.go", 8), at("pkg/p20/f601.go", 8)},
		"clew://symbol/example.com/gen/pkg/p0.Compute1_0")
}

func dumpAnswers(t *testing.T, out, dir string, reqs []devcontext.Request, explain string) {
	t.Helper()
	ctx := context.Background()
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	load := func() *workspace.Snapshot {
		s, err := disk.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	write := func(name string, v any) {
		var data []byte
		switch v := v.(type) {
		case string:
			data = []byte(v)
		default:
			var err error
			if data, err = json.MarshalIndent(v, "", " "); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(out, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The requests go through a persistent store, which the store pass
	// below reads back.
	store, err := disk.OpenTableStoreAt(t.TempDir(), disk.TableVersion())
	if err != nil {
		t.Fatal(err)
	}
	snap := load()
	snap.UseTableStore(store)
	var answers []string
	for i, r := range reqs {
		md, c, err := contextmap.Markdown(ctx, snap, r)
		if err != nil {
			t.Fatal(err)
		}
		j, _ := json.Marshal(c)
		answers = append(answers, string(j))
		write(fmt.Sprintf("%02d.json", i), c)
		write(fmt.Sprintf("%02d.md", i), md)
		ex, err := contextmap.Explain(ctx, snap, explain, r)
		if err != nil {
			t.Fatal(err)
		}
		write(fmt.Sprintf("%02d-explain.json", i), ex)
	}
	// The last request, asked first on a new Load, must answer as it did
	// after the others, which had filled the Load's kept declarations.
	last := len(reqs) - 1
	after, err := contextmap.Compile(ctx, snap, reqs[last])
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := contextmap.Compile(ctx, load(), reqs[last])
	if err != nil {
		t.Fatal(err)
	}
	write(fmt.Sprintf("%02d-fresh.json", last), fresh)
	a, _ := json.Marshal(after)
	f, _ := json.Marshal(fresh)
	if string(a) != string(f) {
		t.Errorf("request %d: the answer on a fresh Load differs from the one after %d other requests", last, last)
	}
	// Every request again on a new Load whose tables, index and content
	// packs come from the store the first pass filled.
	stored := load()
	stored.UseTableStore(store)
	for i, r := range reqs {
		_, c, err := contextmap.Markdown(ctx, stored, r)
		if err != nil {
			t.Fatal(err)
		}
		if j, _ := json.Marshal(c); string(j) != answers[i] {
			t.Errorf("request %d: the answer from the store differs from the one read from the files", i)
		}
	}
}

// lineIn is the 1-based line of a file's first line holding text.
func lineIn(t *testing.T, file, text string) int {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Skip(err)
	}
	i := strings.Index(string(src), text)
	if i < 0 {
		t.Skipf("%q not in %s", text, file)
	}
	return strings.Count(string(src[:i]), "\n") + 1
}
