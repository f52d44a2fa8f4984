package contextmap_test

import (
	"context"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// Import scope: a name a file imports resolves in the file it is imported
// from — in another directory, and even when more files than the callee
// limit declare the same name — and a test file in another directory that
// imports the module and mentions the declaration tests it.
func TestContextImportScope(t *testing.T) {
	r := wstest.New(t)
	files := map[string]string{
		"source/core/Ky.ts": "import type {Hooks} from '../types/hooks.js';\n" +
			"import {mergeHooks as merge, timeout} from '../utils/merge.js';\n\n" +
			"export function request(hooks: Hooks): number {\n\tmerge(hooks);\n\treturn timeout();\n}\n",
		"source/types/hooks.ts": "export type Hooks = {\n\tbefore?: number;\n};\n",
		"source/utils/merge.ts": "export const mergeHooks = (h: unknown): void => {};\n\nexport function timeout(): number {\n\treturn 1;\n}\n",
		"pkg/cli/core.py":       "from .utils import echo as say\nfrom . import types\n\n\ndef run():\n    say('x')\n    return types.Paths()\n",
		"pkg/cli/utils.py":      "def echo(m):\n    return m\n",
		"pkg/cli/types.py":      "class Paths:\n    pass\n",
		"tests/test_misc.py":    "from pkg.cli.core import run\n\n\ndef test_misc_run():\n    assert run()\n",
	}
	// Four other declarations of timeout: by name alone it is ambiguous.
	for _, d := range []string{"a", "b", "c", "d"} {
		files["other/"+d+"/t.ts"] = "export function timeout(): number {\n\treturn 2;\n}\n"
	}
	r.Write(files)
	r.Commit("imports")
	// Ky.ts alone, twice: merge.ts is no longer changed with it often
	// enough for co_changed (1 of 3: 0.9 × 0.25, under the floor).
	for i := range 2 {
		r.Write(map[string]string{"source/core/Ky.ts": files["source/core/Ky.ts"] + strings.Repeat("// more\n", i+1)})
		r.Commit("ky alone")
	}
	snap, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	has := func(edges []devcontext.Edge, kind, from, to string) bool {
		for _, e := range edges {
			if e.Kind == kind && e.From == from && e.To == to {
				return true
			}
		}
		return false
	}
	edges, err := contextmap.WorldEdges(context.Background(), snap, at("source/core/Ky.ts", 5))
	if err != nil {
		t.Fatal(err)
	}
	from := "clew://symbol/source/core/Ky.request"
	for _, want := range []struct{ kind, to string }{
		{devcontext.EdgeUsesType, "clew://symbol/source/types/hooks.Hooks"},
		{devcontext.EdgeCalls, "clew://symbol/source/utils/merge.mergeHooks"}, // imported under another name
		{devcontext.EdgeCalls, "clew://symbol/source/utils/merge.timeout"},
	} {
		if !has(edges, want.kind, from, want.to) {
			t.Errorf("no %s %s → %s: %+v", want.kind, from, want.to, edges)
		}
	}
	for _, d := range []string{"a", "b", "c", "d"} {
		if has(edges, devcontext.EdgeCalls, from, "clew://symbol/other/"+d+"/t.timeout") {
			t.Errorf("timeout resolved to other/%s, not to the file it is imported from", d)
		}
	}

	// The files Ky.ts imports from are reached by imports (strength 1),
	// outline-only: never whole.
	for _, p := range []string{"source/types/hooks.ts", "source/utils/merge.ts"} {
		found := false
		for _, e := range edges {
			found = found || e.Kind == devcontext.EdgeImports && e.From == from && e.To == devcontext.FileURI(p) && e.Strength == 1
		}
		if !found {
			t.Errorf("no imports %s → %s: %+v", from, p, edges)
		}
	}
	c := compile(t, snap, at("source/core/Ky.ts", 5))
	if e := entry(c, devcontext.FileURI("source/utils/merge.ts")); e != nil {
		t.Errorf("merge.ts selected whole: %+v", e)
	}
	if x := excluded(c, devcontext.FileURI("source/utils/merge.ts")); x == nil || x.Reason != devcontext.ReasonOutlined {
		t.Errorf("merge.ts: %+v", x)
	}

	edges, err = contextmap.WorldEdges(context.Background(), snap, at("pkg/cli/core.py", 6))
	if err != nil {
		t.Fatal(err)
	}
	run := "clew://symbol/pkg/cli/core.run"
	if !has(edges, devcontext.EdgeCalls, run, "clew://symbol/pkg/cli/utils.echo") {
		t.Errorf("say (echo imported as say) not resolved: %+v", edges)
	}
	if !has(edges, devcontext.EdgeTestedBy, run, "clew://test/tests/test_misc.test_misc_run") {
		t.Errorf("the test in tests/ that imports core and calls run does not test it: %+v", edges)
	}
}
