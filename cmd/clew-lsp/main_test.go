package main

import (
	"os"
	"testing"
)

// TestMain keeps the tests' persistent caches out of the user's cache
// directory (every test binary is a new build, whose tables would only
// pile up there), unless the caller chose a directory.
func TestMain(m *testing.M) {
	var dir string
	var err error
	if os.Getenv("CLEW_LSP_CACHE_DIR") == "" {
		dir, err = os.MkdirTemp("", "clew-lsp-test-cache")
		if err == nil {
			os.Setenv("CLEW_LSP_CACHE_DIR", dir)
		}
	}
	code := m.Run()
	if dir != "" {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}
