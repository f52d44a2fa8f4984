package main

import (
	"context"
	"os"
	"testing"
)

// TestMain keeps the tests' persistent caches out of the user's cache
// directory (every test binary is a new build, whose tables would only
// pile up there), unless the caller chose a directory.
func TestMain(m *testing.M) {
	if args, ok := asCLI(); ok {
		os.Exit(run(context.Background(), args, os.Stdout, os.Stderr))
	}
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

// cliEnv makes the test binary run as clew-lsp itself (its arguments
// after "--"), so a benchmark can time a whole process, start included.
const cliEnv = "CLEW_LSP_TEST_AS_CLI"

func asCLI() ([]string, bool) {
	if os.Getenv(cliEnv) != "1" {
		return nil, false
	}
	for i, a := range os.Args {
		if a == "--" {
			return os.Args[i+1:], true
		}
	}
	return nil, false
}
