package main

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
)

// A `context` run leaves its cache on disk when it returns (the store
// writes behind the command and run flushes it), as a few entries — the
// context's bundle and the identifier index, not a file per table — and
// the next run, answering from them, gives the same bytes; so does
// `explain` beside it.
func TestContextCacheIsOnDiskWhenTheRunReturns(t *testing.T) {
	r := contextRepo(t)
	cache := t.TempDir()
	t.Setenv(disk.CacheDirEnv, cache)
	entries := func() []string {
		t.Helper()
		var out []string
		filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), ".put-") {
				out = append(out, p)
			}
			return nil
		})
		return out
	}
	first, errOut, code := runCLI(t, "context", "--dir", r.Dir, "calc/calc.go:6")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	written := entries()
	if len(written) < 2 || len(written) > 3 {
		t.Fatalf("after the first run the cache holds %d entries, want the bundle and the index (and no file per table): %v", len(written), written)
	}
	second, _, code := runCLI(t, "context", "--dir", r.Dir, "calc/calc.go:6")
	if code != 0 || second != first {
		t.Fatalf("the run from the cache answers otherwise (exit %d)", code)
	}
	if again := entries(); len(again) != len(written) {
		t.Errorf("a run from the cache of an unchanged tree wrote entries: %d then %d", len(written), len(again))
	}
	ex, errOut, code := runCLI(t, "explain", "--dir", r.Dir, "--at", "calc/calc.go:6", "clew://symbol/example.com/calc/calc.Sum")
	if code != 0 || !strings.Contains(ex, `"selected"`) {
		t.Fatalf("explain from the cache (exit %d): %s%s", code, ex, errOut)
	}
}
