package workspace_test

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/clew-lsp/clew-lsp/"

type listedPackage struct {
	ImportPath string
	Imports    []string // direct
	Deps       []string // transitive
}

func listPackages(t *testing.T) []listedPackage {
	t.Helper()
	out, err := exec.Command("go", "list", "-json", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p listedPackage
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 5 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	return pkgs
}

func under(path string, roots ...string) bool {
	for _, r := range roots {
		if path == module+r || strings.HasPrefix(path, module+r+"/") {
			return true
		}
	}
	return false
}

// TestArchitectureImportDirection enforces ARCHITECTURE.md's invariants: the pure core
// does no I/O and knows no LSP, only internal/lsp imports go.lsp.dev, the
// façade never imports its adapters, and the server reaches the core only
// through the façade.
func TestArchitectureImportDirection(t *testing.T) {
	ioPackages := []string{"os", "os/exec", "net", "net/http", "syscall", "path/filepath"}
	thirdPartyIO := []string{"github.com/go-git/", "github.com/fsnotify/", "go.lsp.dev/"}
	checked := 0
	for _, p := range listPackages(t) {
		pure := under(p.ImportPath, "internal/anchors", "internal/claims", "internal/devcontext", "internal/workspace/span")
		facade := p.ImportPath == module+"internal/workspace"
		feature := under(p.ImportPath, "internal/workspace/query", "internal/workspace/contextmap")
		if pure || facade || feature {
			checked++
			for _, imp := range p.Imports {
				for _, bad := range ioPackages {
					if imp == bad {
						t.Errorf("%s imports %s: the core takes bytes and returns values", p.ImportPath, imp)
					}
				}
			}
			for _, dep := range p.Deps {
				for _, bad := range thirdPartyIO {
					if strings.HasPrefix(dep, bad) {
						t.Errorf("%s depends on %s: I/O and protocol live in workspace adapters and internal/lsp", p.ImportPath, dep)
					}
				}
			}
		}
		if pure {
			for _, dep := range p.Deps {
				if under(dep, "internal/workspace", "internal/lsp") && !under(dep, "internal/workspace/span", "internal/devcontext") {
					t.Errorf("%s depends on %s: the core must not know the workspace or the server", p.ImportPath, dep)
				}
			}
		}
		if facade || feature {
			for _, dep := range p.Deps {
				if under(dep, "internal/workspace/disk", "internal/workspace/gitstate", "internal/workspace/watch", "internal/lsp") {
					t.Errorf("%s depends on %s: adapters are injected, never imported", p.ImportPath, dep)
				}
			}
		}
		if facade {
			for _, dep := range p.Deps {
				if under(dep, "internal/workspace/query", "internal/workspace/contextmap") {
					t.Errorf("internal/workspace depends on %s: features stand above the façade", dep)
				}
			}
		}
		if !under(p.ImportPath, "internal/lsp", "cmd") {
			for _, dep := range p.Deps {
				if strings.HasPrefix(dep, "go.lsp.dev/") {
					t.Errorf("%s depends on %s: only internal/lsp knows LSP", p.ImportPath, dep)
				}
			}
		}
		if under(p.ImportPath, "internal/lsp") {
			for _, imp := range p.Imports {
				if under(imp, "internal/anchors", "internal/claims") {
					t.Errorf("%s imports %s: the server asks the workspace façade", p.ImportPath, imp)
				}
			}
		}
	}
	if checked < 3 {
		t.Fatalf("only %d core packages checked; the package map changed?", checked)
	}
}
