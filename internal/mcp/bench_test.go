package mcp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// BenchmarkContextOverMCP compares, in the same run and on the same
// request, a `context` call to a running `clew-lsp mcp` on an unchanged
// tree (the snapshot and its caches answer; the folder is only stat'ed),
// the same call right after a file changed (the folder is re-read, parsed
// tables kept), and a cold CLI run (`clew-lsp context --json`: a new
// process that reads the workspace). Metrics: ns per request of each, and
// the CLI's time over the warm call's.
//
//	go test ./internal/mcp -run '^$' -bench ContextOverMCP -benchtime 20x
func BenchmarkContextOverMCP(b *testing.B) {
	b.Run("tour", func(b *testing.B) {
		r := wstest.New(b)
		r.CopyFrom(filepath.Join("..", "..", "examples", "tour"))
		r.Commit("tour")
		benchContext(b, r.Dir, "resolver/resolve.go", 21, "resolver/text.go")
	})
	b.Run("go-2000-files", func(b *testing.B) {
		r := wstest.New(b)
		r.Write(generated(200, 10))
		r.Commit("generated")
		benchContext(b, r.Dir, "pkg000/file0.go", 4, "pkg199/file9.go")
	})
}

func benchContext(b *testing.B, dir, file string, line int, touch string) {
	cs := session(b, dir)
	args := map[string]any{"file": file, "line": line}
	at := fmt.Sprintf("%s:%d", file, line)
	ok(b, cs, "context", args) // the first call builds the world
	original, err := os.ReadFile(filepath.Join(dir, touch))
	if err != nil {
		b.Fatal(err)
	}
	var warm, changed, cold time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// A change elsewhere in the tree: a comment appended, then removed.
		content := original
		if i%2 == 0 {
			content = append(append([]byte{}, original...), []byte("\n// touched\n")...)
		}
		if err := os.WriteFile(filepath.Join(dir, touch), content, 0o644); err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		ok(b, cs, "context", args)
		changed += time.Since(t0)

		t0 = time.Now()
		if _, code := cli(b, "context", "--dir", dir, at); code != 0 {
			b.Fatalf("cli exit %d", code)
		}
		cold += time.Since(t0)

		// The change was younger than the stamp's racy window when the
		// changed call stamped the folder, so the next call re-reads once
		// more; the call after it is the unchanged tree's.
		time.Sleep(150 * time.Millisecond)
		ok(b, cs, "context", args)
		t0 = time.Now()
		ok(b, cs, "context", args)
		warm += time.Since(t0)
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(warm.Nanoseconds())/n, "mcp-warm-ns/req")
	b.ReportMetric(float64(changed.Nanoseconds())/n, "mcp-changed-ns/req")
	b.ReportMetric(float64(cold.Nanoseconds())/n, "cli-cold-ns/req")
	b.ReportMetric(float64(cold)/float64(warm), "cli/mcp-warm")
	b.ReportMetric(float64(cold)/float64(changed), "cli/mcp-changed")
}

// generated is a Go workspace of pkgs packages with files files each, every
// function calling its neighbour, and a doc anchoring the first of each
// package.
func generated(pkgs, files int) map[string]string {
	out := map[string]string{"go.mod": "module example.com/gen\n"}
	var doc strings.Builder
	doc.WriteString("# Generated\n")
	for p := 0; p < pkgs; p++ {
		for f := 0; f < files; f++ {
			name := fmt.Sprintf("F%03d_%d", p, f)
			next := fmt.Sprintf("F%03d_%d", p, (f+1)%files)
			out[fmt.Sprintf("pkg%03d/file%d.go", p, f)] = fmt.Sprintf(
				"package pkg%03d\n\n// %s adds one and asks %s.\nfunc %s(n int) int {\n\tif n > 100 {\n\t\treturn n\n\t}\n\treturn %s(n + 1)\n}\n",
				p, name, next, name, next)
		}
		fmt.Fprintf(&doc, "\n## Package %03d\n\nF%03d_0 counts up to a hundred.\n<!-- @code function F%03d_0 pkg%03d/file0.go -->\n", p, p, p, p)
	}
	out["docs/generated.md"] = doc.String()
	return out
}
