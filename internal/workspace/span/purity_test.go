package span

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsStayPure enforces the package's architecture invariant: only
// the standard library, and never os, os/exec, net or anything with I/O.
func TestImportsStayPure(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.Contains(strings.SplitN(path, "/", 2)[0], ".") {
				t.Errorf("%s imports %s: span takes nothing outside the standard library", f, path)
			}
			if path == "os" || strings.HasPrefix(path, "os/") || path == "net" || strings.HasPrefix(path, "net/") || path == "io/fs" {
				t.Errorf("%s imports %s: span does no I/O", f, path)
			}
		}
	}
}
