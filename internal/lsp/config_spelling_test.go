package lsp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/clew-lsp/clew-lsp/internal/lsp/lsptest"
)

// TestEditorSettingsSpelling: VS Code's camelCase keys reach the workspace
// as `.clew.yml` keys; an explicit snake_case key wins; the editor's own
// keys (server, trace) are dropped.
func TestEditorSettingsSpelling(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"camel", `{"hintsInCode":false,"budget":{"maxFiles":5,"maxBytes":6,"maxMilliseconds":7,"maxFileBytes":8},"docs":{"include":["a.md"]}}`,
			`{"budget":{"max_bytes":6,"max_file_bytes":8,"max_files":5,"max_ms":7},"docs":{"include":["a.md"]},"hints_in_code":false}`},
		{"snake wins", `{"hintsInCode":true,"hints_in_code":false,"budget":{"maxFiles":2000,"max_files":3}}`,
			`{"budget":{"max_files":3},"hints_in_code":false}`},
		{"editor keys dropped", `{"server":{"path":"/x"},"trace":{"server":"off"},"hintsInCode":true}`, `{"hints_in_code":true}`},
		{"only editor keys", `{"server":{"path":"/x"}}`, ``},
		{"budget not an object", `{"budget":3}`, `{"budget":3}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := editorSettings(Settings(tc.in))
			if tc.want == "" {
				if got != nil {
					t.Fatalf("got %s, want nothing", got)
				}
				return
			}
			var g, w any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatalf("%s: %v", got, err)
			}
			_ = json.Unmarshal([]byte(tc.want), &w)
			if !reflect.DeepEqual(g, w) {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// TestCamelCaseSettingsApply: hintsInCode (VS Code's spelling of
// hints_in_code) switches the real server's code hints off, and pushed back
// on, brings them back.
func TestCamelCaseSettingsApply(t *testing.T) {
	f := newFixture(t, map[string]string{"lib/resolve.go": resolveGo, "docs/guide.md": guideMD},
		lsptest.Options{Settings: json.RawMessage(`{"hintsInCode":false}`)})
	f.init()
	code := f.open("lib/resolve.go")
	edited := strings.Replace(code, `"anonymous"`, `"nobody"`, 1)
	f.edit("lib/resolve.go", edited)
	f.lastReady("the stale anchor counted", func(s lsptest.Status) bool { return s.Anchors["stale"] == 1 })
	if ds := f.c.Diagnostics(f.path("lib/resolve.go")); len(ds) != 0 {
		t.Fatalf("hintsInCode=false, yet the code file has %d diagnostics: %+v", len(ds), ds)
	}
	must(t, f.c.Notify(f.ctx, protocol.MethodWorkspaceDidChangeConfiguration,
		&protocol.DidChangeConfigurationParams{Settings: protocol.LSPAny(`{"clew":{"hintsInCode":true}}`)}))
	f.awaitCode("lib/resolve.go", "anchor/stale", int(lineOf(t, edited, "func (r *Resolver) Resolve"))+1)
}
