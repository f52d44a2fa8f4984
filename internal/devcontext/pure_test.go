package devcontext

import (
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The architecture invariant, checked here too: the compiler's own files
// import nothing that touches the disk, the network, git, the editor or the
// workspace layer.
func TestPureImports(t *testing.T) {
	exact := map[string]bool{"os": true, "os/exec": true, "net": true, "github.com/clew-lsp/clew-lsp/internal/workspace": true}
	prefixes := []string{"net/", "github.com/go-git/", "github.com/fsnotify/", "go.lsp.dev/"}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			bad := exact[p]
			for _, pre := range prefixes {
				bad = bad || strings.HasPrefix(p, pre)
			}
			if bad {
				t.Errorf("%s imports %s", name, p)
			}
		}
	}
}
