package workspace_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
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
	trackSources(t)
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

// trackSources stats every Go file and lists every directory of the
// module, because the package map comes from a `go list` subprocess that
// go test's result cache cannot see: the files the test touches itself are
// what decides whether a cached pass is still true after an edit.
func trackSources(t *testing.T) {
	t.Helper()
	err := filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && p != "../.." && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(name, ".go") {
			_, err = os.Stat(p)
		}
		return err
	})
	if err != nil {
		t.Fatalf("walking the module: %v", err)
	}
}

func under(path string, roots ...string) bool {
	for _, r := range roots {
		if path == module+r || strings.HasPrefix(path, module+r+"/") {
			return true
		}
	}
	return false
}

// The layers of ARCHITECTURE.md, bottom up. A package may import its own
// layer's packages only where allowed below, and never a layer above it:
// cores ← façade ← features ← protocols ← cmd, with the I/O adapters
// beside the façade (they implement its interfaces and are injected by the
// protocols and cmd). Every package of the module must stand in one.
type layer int

const (
	unplaced layer = iota
	core           // pure: bytes in, values out
	facade         // internal/workspace: the snapshot, the check, the reports
	adapter        // real I/O behind the façade's interfaces
	feature        // beside the façade, over its exported methods
	protocol       // the only packages that know LSP or MCP
	command        // cmd/clew-lsp: flags and wiring
	fixture        // example and editor-test code: imports nothing of ours
)

var layerNames = map[layer]string{unplaced: "unplaced", core: "core", facade: "façade",
	adapter: "adapter", feature: "feature", protocol: "protocol", command: "cmd", fixture: "fixture"}

// layerOf says where a package of the module stands.
func layerOf(path string) layer {
	switch {
	case under(path, "internal/anchors", "internal/claims", "internal/devcontext", "internal/workspace/span"):
		return core
	case path == module+"internal/workspace":
		return facade
	case under(path, "internal/workspace/disk", "internal/workspace/gitstate", "internal/workspace/watch", "internal/workspace/wstest"):
		return adapter
	case under(path, "internal/workspace/query", "internal/workspace/contextmap"):
		return feature
	case under(path, "internal/lsp", "internal/mcp"):
		return protocol
	case under(path, "cmd", "scripts"): // scripts/usefulness: a bench command
		return command
	case under(path, "examples", "editors"):
		return fixture
	}
	return unplaced
}

// mayImport says whether a package of layer from may import one of layer to.
// Peers are decided by peerAllowed.
func mayImport(from, to layer) bool {
	switch from {
	case core:
		return to == core
	case facade:
		return to == core
	case adapter:
		return to == core || to == facade || to == adapter
	case feature:
		return to == core || to == facade
	case protocol:
		return to != command && to != fixture && to != unplaced
	case command:
		return to != fixture && to != unplaced
	}
	return false
}

// peerAllowed: features never import each other (each reaches the façade
// alone, so none calls back into another), and the two protocols are peers
// that never import each other; a protocol's own sub-packages (test
// clients, test servers) are its own.
func peerAllowed(from, to string) bool {
	root := func(p string) string {
		for _, r := range []string{"internal/lsp", "internal/mcp", "internal/workspace/query", "internal/workspace/contextmap"} {
			if under(p, r) {
				return r
			}
		}
		return p
	}
	return root(from) == root(to)
}

// TestArchitectureLayers enforces the layers: every package is placed, no
// import runs down-to-up or sideways between features or protocols.
func TestArchitectureLayers(t *testing.T) {
	placed := map[layer]int{}
	for _, p := range listPackages(t) {
		from := layerOf(p.ImportPath)
		placed[from]++
		if from == unplaced {
			t.Errorf("%s stands in no layer: place it in ARCHITECTURE.md and in layerOf", p.ImportPath)
			continue
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			to := layerOf(imp)
			switch {
			case !mayImport(from, to) && !(from == to && peerAllowed(p.ImportPath, imp)):
				t.Errorf("%s (%s) imports %s (%s): imports run cores ← façade ← features ← protocols ← cmd",
					p.ImportPath, layerNames[from], imp, layerNames[to])
			case from == to && (from == feature || from == protocol) && !peerAllowed(p.ImportPath, imp):
				t.Errorf("%s imports %s: %ss are peers and never import each other", p.ImportPath, imp, layerNames[from])
			}
		}
	}
	for _, l := range []layer{core, facade, adapter, feature, protocol, command} {
		if placed[l] == 0 {
			t.Errorf("no package in layer %s: the package map changed?", layerNames[l])
		}
	}
}

// TestArchitectureImportDirection enforces ARCHITECTURE.md's invariants
// beyond the layers: the cores, the façade and the features do no I/O and
// know no protocol; only internal/lsp (and cmd) import go.lsp.dev; the
// server reaches anchors and claims only through the façade.
func TestArchitectureImportDirection(t *testing.T) {
	ioPackages := []string{"os", "os/exec", "net", "net/http", "syscall", "path/filepath"}
	thirdPartyIO := []string{"github.com/go-git/", "github.com/fsnotify/", "go.lsp.dev/"}
	checked := 0
	for _, p := range listPackages(t) {
		l := layerOf(p.ImportPath)
		if l == core || l == facade || l == feature {
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
