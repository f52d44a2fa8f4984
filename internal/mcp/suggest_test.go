package mcp_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSuggestAnchors: the tool answers the mentions and counts `clew-lsp
// suggest --json` prints, field for field; doc narrows it; a path holding
// no doc is refused.
func TestSuggestAnchors(t *testing.T) {
	r := tour(t)
	r.Write(map[string]string{"lib/store.go": "package lib\n\ntype Store struct{}\n\nfunc (s *Store) Lookup(k string) string {\n\treturn k\n}\n",
		"docs/extra.md": "# Extra\n\n## The cache\n\n`Cache.Lookup` counts hits; `Lookup` has twins.\n" +
			"`Missing` is gone.\n\n## Tokens\n\n- `Tokenize` splits\n"})
	r.Commit("extra")
	cs := session(t, r.Dir)
	txt, js := ok(t, cs, "suggest_anchors", nil)
	cliJSON, code := cli(t, "suggest", "--json", "--dir", r.Dir)
	if code != 0 {
		t.Fatalf("cli suggest exit %d", code)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(js, &got); err != nil {
		t.Fatal(err)
	}
	var want map[string]json.RawMessage
	if err := json.Unmarshal([]byte(cliJSON), &want); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "suggest_anchors mentions", got["mentions"], want["mentions"])
	sameJSON(t, "suggest_anchors stats", got["stats"], want["stats"])
	var out struct {
		Stats struct {
			Found     int `json:"found"`
			Ambiguous int `json:"ambiguous"`
		} `json:"stats"`
		Shown    int  `json:"shown"`
		Total    int  `json:"total"`
		Complete bool `json:"complete"`
	}
	json.Unmarshal(js, &out)
	if out.Total != 3 || out.Shown != 3 || !out.Complete || out.Stats.Ambiguous != 1 {
		t.Fatalf("answer %s", js)
	}
	for _, w := range []string{"docs/extra.md:5 `Cache.Lookup` unique: method Cache.Lookup (resolver/resolve.go:",
		"  after line 6: <!-- @code method Cache.Lookup resolver/resolve.go sha=v2:", "`Lookup` ambiguous: method Store.Lookup (lib/store.go:5), method Cache.Lookup (resolver/resolve.go:21)"} {
		if !strings.Contains(txt, w) {
			t.Errorf("text lacks %q:\n%s", w, txt)
		}
	}
	_, js = ok(t, cs, "suggest_anchors", map[string]any{"doc": "docs/architecture.md"})
	json.Unmarshal(js, &out)
	if out.Total != 0 || out.Stats.Found != 5 {
		t.Errorf("narrowed to architecture.md: %s", js)
	}
	_, js = ok(t, cs, "suggest_anchors", map[string]any{"max_mentions": 1})
	json.Unmarshal(js, &out)
	if out.Shown != 1 || out.Total != 3 || out.Complete {
		t.Errorf("max_mentions 1: %s", js)
	}
	if msg := refused(t, cs, "suggest_anchors", map[string]any{"doc": "resolver"}); !strings.Contains(msg, "no doc of the workspace") {
		t.Errorf("refusal %q", msg)
	}
}
