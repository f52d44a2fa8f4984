package contextmap_test

import (
	"context"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// imported_by: from a seed to the files importing from its file —
// strength 1 for those importing the seed's own name, 0.5 for those
// importing other names of it; a file that only mentions the module's
// name, or imports another module of that name, is no importer. Given as
// outlines, never whole.
func TestContextImportedBy(t *testing.T) {
	r := wstest.New(t)
	r.Write(map[string]string{
		"source/core/constants.ts":  "export const stop = Symbol('stop');\n\nexport const maxSafeTimeout = 2147483647;\n",
		"source/types/hooks.ts":     "import {type stop} from '../core/constants.js';\n\nexport type Hooks = {\n\tbefore?: typeof stop;\n};\n",
		"source/utils/delay.ts":     "import {maxSafeTimeout} from '../core/constants.js';\n\nexport function delay(): number {\n\treturn maxSafeTimeout;\n}\n",
		"source/other/note.ts":      "// constants live elsewhere\nexport const note = 'constants';\n",
		"source/other/dup.ts":       "import {stop} from './constants.js';\n\nexport const dup = stop;\n",
		"source/other/constants.ts": "export const stop = 1;\n",
		"pkg/_compat.py":            "text_type = str\n",
		"pkg/helpers.py":            "from ._compat import text_type\n\n\ndef echo(m):\n    return text_type(m)\n",
	})
	r.Commit("start")
	// constants.ts alone, twice: the files committed with it at the start
	// are co_changed below outline_below, so only as outlines.
	for i, more := range []string{"\n// one\n", "\n// two\n"} {
		r.Write(map[string]string{"source/core/constants.ts": "export const stop = Symbol('stop');\n\nexport const maxSafeTimeout = 2147483647;\n" + more})
		r.Commit("constants alone " + string(rune('1'+i)))
	}
	// helpers.py and _compat.py together, twice more: changed together in
	// 3 of 3 commits (strength 0.75, at outline_below), so _compat.py is a
	// whole-file candidate from helpers.py.
	for i, more := range []string{"\n# one\n", "\n# two\n"} {
		r.Write(map[string]string{"pkg/_compat.py": "text_type = str\n" + more,
			"pkg/helpers.py": "from ._compat import text_type\n\n\ndef echo(m):\n    return text_type(m)\n" + more})
		r.Commit("helpers and compat " + string(rune('1'+i)))
	}
	snap, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	strengths := func(pos devcontext.Request, from string) map[string]float64 {
		t.Helper()
		edges, err := contextmap.WorldEdges(context.Background(), snap, pos)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]float64{}
		for _, e := range edges {
			if e.Kind == devcontext.EdgeImportedBy && e.From == from {
				out[e.To] = e.Strength
			}
		}
		return out
	}
	got := strengths(at("source/core/constants.ts", 1), "clew://symbol/source/core/constants.stop")
	want := map[string]float64{
		devcontext.FileURI("source/types/hooks.ts"): 1,   // imports stop
		devcontext.FileURI("source/utils/delay.ts"): 0.5, // imports another name of the file
	}
	if len(got) != len(want) {
		t.Errorf("imported_by from stop: %v, want %v", got, want)
	}
	for to, s := range want {
		if got[to] != s {
			t.Errorf("imported_by stop → %s: strength %v, want %v (all: %v)", to, got[to], s, got)
		}
	}
	c := compile(t, snap, at("source/core/constants.ts", 1))
	if e := entry(c, devcontext.FileURI("source/types/hooks.ts")); e != nil {
		t.Errorf("hooks.ts selected whole: %+v", e)
	}
	if x := excluded(c, devcontext.FileURI("source/types/hooks.ts")); x == nil || x.Reason != devcontext.ReasonOutlined {
		t.Errorf("hooks.ts: %+v, want excluded as outlined", x)
	}
	if e := entry(c, "clew://symbol/source/types/hooks.Hooks"); e == nil || e.Kind != devcontext.KindOutline {
		t.Errorf("Hooks not given as an outline: %+v", e)
	}

	// A module-level name of a Python file: its importer, strength 1.
	got = strengths(at("pkg/_compat.py", 1), "clew://symbol/pkg/_compat.text_type")
	if got[devcontext.FileURI("pkg/helpers.py")] != 1 || len(got) != 1 {
		t.Errorf("imported_by from text_type: %v", got)
	}

	// The other way: the names a file imports are reached by imports
	// themselves (outline-only, never in full): from the import line of
	// helpers.py (a file seed), text_type. _compat.py is selected whole
	// (changed with helpers.py in all its commits), so text_type is not
	// repeated, nor excluded: it is deduplicated as contained.
	edges, err := contextmap.WorldEdges(context.Background(), snap, at("pkg/helpers.py", 1))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range edges {
		found = found || e.Kind == devcontext.EdgeImports && e.From == devcontext.FileURI("pkg/helpers.py") &&
			e.To == "clew://symbol/pkg/_compat.text_type" && e.Strength == 1
	}
	if !found {
		t.Errorf("no imports helpers.py → text_type: %+v", edges)
	}
	// No sibling edges in Python or JS/TS: _compat.py is reached from
	// helpers.py by its import, not by sharing pkg/; dup.ts and note.ts
	// share source/other/ and nothing else.
	tsEdges, err := contextmap.WorldEdges(context.Background(), snap, at("source/other/dup.ts", 3))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range append(edges, tsEdges...) {
		if e.Kind == devcontext.EdgeSibling {
			t.Errorf("a sibling edge in Python or TypeScript: %+v", e)
		}
	}
	c = compile(t, snap, at("pkg/helpers.py", 1))
	textType := "clew://symbol/pkg/_compat.text_type"
	if e := entry(c, devcontext.FileURI("pkg/_compat.py")); e == nil || e.Kind != devcontext.KindFile {
		t.Fatalf("_compat.py not whole: %+v", c.Selected)
	}
	if e, x := entry(c, textType), excluded(c, textType); e != nil || x != nil {
		t.Errorf("text_type inside the whole _compat.py: selected %+v, excluded %+v", e, x)
	}
	contained := false
	for _, d := range c.Deduplicated {
		for _, u := range d.Dropped {
			contained = contained || d.Key == "contained" && u == textType && d.Kept == devcontext.FileURI("pkg/_compat.py")
		}
	}
	if !contained {
		t.Errorf("text_type not recorded as contained: %+v", c.Deduplicated)
	}
}
