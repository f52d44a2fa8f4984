package contextmap

import (
	"context"
	"reflect"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// TestKeptDeclarationsBuildTheSameWorld: a world that takes its files'
// declarations from the Load (earlier requests built them, one with a
// duplicate URI taken first by another file) is, node for node and edge
// for edge, the world a fresh Load builds for the same request.
func TestKeptDeclarationsBuildTheSameWorld(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{
		"go.mod":         "module example.com/m\n\ngo 1.22\n",
		"p/a.go":         "package p\n\n// Run runs.\nfunc Run() int { return helper() + Other() }\n\n// Other is other.\nfunc Other() int { return 2 }\n",
		"p/h_linux.go":   "//go:build linux\n\npackage p\n\nfunc helper() int { return Other() }\n",
		"p/h_windows.go": "//go:build windows\n\npackage p\n\nfunc helper() int { return 3 }\n",
		"p/a_test.go":    "package p\n\nimport \"testing\"\n\nfunc TestRun(t *testing.T) { Run() }\n",
		"q/q.go":         "package q\n\nimport \"example.com/m/p\"\n\nfunc Use() int { return p.Run() }\n",
		"docs/README.md": "# M\n\nRun and Use.\n",
	})
	r.Commit("m")
	reqs := []devcontext.Request{devcontext.Request{Position: &devcontext.Position{Path: "p/h_windows.go", Line: 5}}, devcontext.Request{Position: &devcontext.Position{Path: "p/a.go", Line: 4}}, devcontext.Request{Position: &devcontext.Position{Path: "q/q.go", Line: 5}}, devcontext.Request{Position: &devcontext.Position{Path: "p/h_linux.go", Line: 5}}}
	warm := loadDir(t, r.Dir)
	for i, req := range reqs {
		got, err := contextWorld(context.Background(), warm, req, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := contextWorld(context.Background(), loadDir(t, r.Dir), req, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.world.Nodes, want.world.Nodes) || !reflect.DeepEqual(got.world.Edges, want.world.Edges) {
			t.Fatalf("request %d: the world from kept declarations differs from a fresh one", i)
		}
		if i > 0 && len(got.world.Nodes) == 0 {
			t.Fatal("empty world")
		}
	}
	if loadContents(warm).lru.Len() == 0 {
		t.Fatal("the Load kept no declarations: the test compares nothing")
	}
}

func loadDir(t *testing.T, dir string) *workspace.Snapshot {
	t.Helper()
	s, err := disk.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
