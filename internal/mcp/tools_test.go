package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

func tour(t testing.TB) *wstest.Repo {
	t.Helper()
	r := wstest.New(t)
	r.CopyFrom(filepath.Join("..", "..", "examples", "tour"))
	r.Commit("tour")
	return r
}

var wantTools = []string{"anchor_for", "context", "doc_passages", "explain", "suggest_anchors", "verify"}

func TestInitializeAndToolsList(t *testing.T) {
	r := tour(t)
	cs := session(t, r.Dir)
	init := cs.InitializeResult()
	if init.ServerInfo.Name != "clew-lsp" || init.Capabilities.Tools == nil || init.Capabilities.Resources == nil ||
		!strings.Contains(init.Instructions, "context") {
		t.Fatalf("initialize: %+v", init)
	}
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		schema, _ := json.Marshal(tool.InputSchema)
		var s struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(schema, &s); err != nil || s.Type != "object" || len(s.Properties) == 0 {
			t.Errorf("%s: input schema %s", tool.Name, schema)
		}
		if tool.Description == "" || tool.Annotations == nil || !tool.Annotations.ReadOnlyHint ||
			tool.Annotations.DestructiveHint == nil || *tool.Annotations.DestructiveHint {
			t.Errorf("%s: want a description and read-only annotations, got %+v", tool.Name, tool.Annotations)
		}
		out, _ := json.Marshal(tool.OutputSchema)
		if tool.OutputSchema == nil || strings.Contains(string(schema)+string(out), `"type":[`) {
			// One type per property: some clients cannot map ["null","integer"].
			t.Errorf("%s: output schema %s; input schema %s", tool.Name, out, schema)
		}
	}
	sort.Strings(names)
	if strings.Join(names, " ") != strings.Join(wantTools, " ") {
		t.Fatalf("tools %v, want %v", names, wantTools)
	}
}

// The context of the tour's stale method over MCP is the CLI's, in both
// projections, and the stale passage is only under excluded.
func TestContextEqualsCLI(t *testing.T) {
	r := tour(t)
	cs := session(t, r.Dir)
	file := "resolver/resolve.go"
	line := lineOf(t, filepath.Join(r.Dir, file), "func (c *Cache) Lookup")
	at := fmt.Sprintf("%s:%d", file, line)

	md, js := ok(t, cs, "context", map[string]any{"file": file, "line": line})
	cliJSON, code := cli(t, "context", "--dir", r.Dir, at)
	if code != 0 {
		t.Fatalf("cli context exit %d", code)
	}
	sameJSON(t, "context", js, []byte(cliJSON))
	cliMD, _ := cli(t, "context", "--dir", r.Dir, "--markdown", at)
	if md != cliMD {
		t.Fatalf("markdown differs from `context --markdown`:\nmcp:\n%s\ncli:\n%s", md, cliMD)
	}

	var c struct {
		Selected []struct{ URI, Kind string }   `json:"selected"`
		Excluded []struct{ URI, Reason string } `json:"excluded"`
	}
	if err := json.Unmarshal(js, &c); err != nil {
		t.Fatal(err)
	}
	stale := ""
	for _, x := range c.Excluded {
		if x.Reason == "stale" {
			stale = x.URI
		}
	}
	if stale == "" {
		t.Fatalf("the stale Cache.Lookup passage is not excluded as stale: %s", js)
	}
	for _, e := range c.Selected {
		if e.URI == stale {
			t.Fatalf("stale passage %s is selected", stale)
		}
	}
	excluded := md[strings.Index(md, "## Excluded"):]
	if !strings.Contains(excluded, "| `"+stale+"` | decision | stale |") {
		t.Fatalf("markdown must list %s under Excluded only:\n%s", stale, md)
	}

	// The knobs map onto the CLI's flags.
	_, js = ok(t, cs, "context", map[string]any{"file": filepath.Join(r.Dir, file), "line": line, "column": 7,
		"budget": 900, "depth": 1, "floor": 0.5, "intent": "cache hits"})
	cliJSON, _ = cli(t, "context", "--dir", r.Dir, "--budget", "900", "--depth", "1", "--floor", "0.5",
		"--intent", "cache hits", at+":7")
	sameJSON(t, "context with knobs", js, []byte(cliJSON))

	// explain of the stale passage is the CLI's explain.
	_, js = ok(t, cs, "explain", map[string]any{"uri": stale, "file": file, "line": line})
	cliJSON, _ = cli(t, "explain", "--dir", r.Dir, "--at", at, stale)
	sameJSON(t, "explain", js, []byte(cliJSON))
	var ex struct{ Standing string }
	json.Unmarshal(js, &ex)
	if ex.Standing != "excluded" {
		t.Fatalf("explain %s: standing %q", stale, ex.Standing)
	}
}

// An over-budget answer is still the whole required set, and says so.
func TestContextOverBudget(t *testing.T) {
	r := tour(t)
	cs := session(t, r.Dir)
	res := call(t, cs, "context", map[string]any{"file": "resolver/resolve.go", "line": 21, "budget": 1})
	if res.IsError || len(res.Content) != 2 || !strings.Contains(res.Content[1].(*sdk.TextContent).Text, "Over budget") {
		t.Fatalf("over budget: %+v", res.Content)
	}
	js, _ := json.Marshal(res.StructuredContent)
	cliJSON, code := cli(t, "context", "--dir", r.Dir, "--budget", "1", "resolver/resolve.go:21")
	if code != 10 {
		t.Fatalf("cli exit %d, want 10", code)
	}
	sameJSON(t, "over budget", js, []byte(cliJSON))
}

// cliVerify is `verify --check --json`'s anchors and exit.
type cliVerify struct {
	Anchors []struct {
		Doc   string `json:"doc"`
		Line  int    `json:"line"`
		State string `json:"state"`
	} `json:"anchors"`
	Claims []struct {
		State string `json:"state"`
	} `json:"claims"`
	Exit int `json:"exit"`
}

func verifyCLI(t testing.TB, dir string) cliVerify {
	t.Helper()
	out, _ := cli(t, "verify", "--check", "--json", dir)
	var v cliVerify
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("verify --json: %v\n%s", err, out)
	}
	return v
}

type verifyOut struct {
	Exit     int            `json:"exit"`
	Anchors  map[string]int `json:"anchors"`
	Claims   map[string]int `json:"claims"`
	Findings []struct {
		Doc, What, State, Target, Todo string
		Line                           int
		Gating                         bool
	} `json:"findings"`
	Shown, Total int
	Complete     bool
	Note         string
}

func TestVerifyMatchesCLI(t *testing.T) {
	r := tour(t)
	cs := session(t, r.Dir)
	txt, js := ok(t, cs, "verify", nil)
	var v verifyOut
	if err := json.Unmarshal(js, &v); err != nil {
		t.Fatal(err)
	}
	want := verifyCLI(t, r.Dir)
	counts := map[string]int{}
	nonFresh := map[string]string{}
	for _, a := range want.Anchors {
		counts[a.State]++
		if a.State != "fresh" {
			nonFresh[fmt.Sprintf("%s:%d", a.Doc, a.Line)] = a.State
		}
	}
	if v.Exit != want.Exit || fmt.Sprint(v.Anchors) != fmt.Sprint(counts) {
		t.Fatalf("verify: exit %d anchors %v; cli: exit %d anchors %v", v.Exit, v.Anchors, want.Exit, counts)
	}
	got := map[string]string{}
	for _, f := range v.Findings {
		if f.What == "anchor" {
			got[fmt.Sprintf("%s:%d", f.Doc, f.Line)] = f.State
			if f.Todo == "" || f.Target == "" {
				t.Errorf("finding %+v: no target or what to do", f)
			}
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(nonFresh) || !v.Complete || v.Shown != v.Total {
		t.Fatalf("findings %v (complete %v), want %v", got, v.Complete, nonFresh)
	}
	if !strings.Contains(txt, "docs/architecture.md:15 stale [gating] method Cache.Lookup") ||
		!strings.Contains(txt, "clew-lsp confirm docs/architecture.md:15") {
		t.Fatalf("verify text:\n%s", txt)
	}

	// Bounded: the list is cut, and says so; gating findings come first.
	txt, js = ok(t, cs, "verify", map[string]any{"max_findings": 2})
	v = verifyOut{}
	json.Unmarshal(js, &v)
	if v.Shown != 2 || len(v.Findings) != 2 || v.Total != len(nonFresh) || v.Complete ||
		!v.Findings[0].Gating || !v.Findings[1].Gating || !strings.Contains(txt, "showing 2 of "+strconv.Itoa(v.Total)) {
		t.Fatalf("max_findings 2: %+v\n%s", v, txt)
	}
	_, js = ok(t, cs, "verify", map[string]any{"budget": 150})
	v = verifyOut{}
	json.Unmarshal(js, &v)
	if v.Complete || v.Shown == 0 || v.Shown >= v.Total || !strings.Contains(v.Note, "budget of 150 tokens") {
		t.Fatalf("budget 150: %+v", v)
	}
	// Narrowed to one doc.
	_, js = ok(t, cs, "verify", map[string]any{"doc": "docs/guide.md"})
	v = verifyOut{}
	json.Unmarshal(js, &v)
	if v.Total != 1 || v.Findings[0].Doc != "docs/guide.md" || !v.Complete {
		t.Fatalf("doc filter: %+v", v)
	}
}

type passagesOut struct {
	Declaration *struct {
		Kind          string `json:"kind"`
		QualifiedName string `json:"qualified_name"`
	} `json:"declaration"`
	Passages []struct {
		Doc        string `json:"doc"`
		AnchorLine int    `json:"anchor_line"`
		State      string `json:"state"`
		Text       string `json:"text"`
	} `json:"passages"`
	Complete bool   `json:"complete"`
	Note     string `json:"note"`
}

func TestDocPassages(t *testing.T) {
	r := tour(t)
	cs := session(t, r.Dir)
	want := verifyCLI(t, r.Dir)
	stateOf := map[string]string{}
	for _, a := range want.Anchors {
		stateOf[fmt.Sprintf("%s:%d", a.Doc, a.Line)] = a.State
	}
	line := lineOf(t, filepath.Join(r.Dir, "resolver", "resolve.go"), "c.hits += 2")
	txt, js := ok(t, cs, "doc_passages", map[string]any{"file": "resolver/resolve.go", "line": line})
	var p passagesOut
	json.Unmarshal(js, &p)
	if p.Declaration == nil || p.Declaration.QualifiedName != "Cache.Lookup" || len(p.Passages) != 1 {
		t.Fatalf("doc_passages at Lookup's body: %s", js)
	}
	got := p.Passages[0]
	if got.Doc != "docs/architecture.md" || got.State != "stale" || got.State != stateOf[fmt.Sprintf("%s:%d", got.Doc, got.AnchorLine)] ||
		!strings.Contains(got.Text, "A hit increments the counter by one.") {
		t.Fatalf("passage %+v (cli says %q)", got, stateOf[fmt.Sprintf("%s:%d", got.Doc, got.AnchorLine)])
	}
	if !strings.Contains(txt, "NOT verified against the current code (stale)") {
		t.Fatalf("a stale passage must say it is not verified:\n%s", txt)
	}
	// By name, the same passage.
	_, js2 := ok(t, cs, "doc_passages", map[string]any{"name": "Cache.Lookup"})
	var byName passagesOut
	json.Unmarshal(js2, &byName)
	if len(byName.Passages) != 1 || byName.Passages[0] != got {
		t.Fatalf("by name: %s", js2)
	}
	// A fresh one says so.
	line = lineOf(t, filepath.Join(r.Dir, "resolver", "resolve.go"), "func Resolve(")
	txt, js = ok(t, cs, "doc_passages", map[string]any{"file": "resolver/resolve.go", "line": line})
	p = passagesOut{}
	json.Unmarshal(js, &p)
	if len(p.Passages) != 1 || p.Passages[0].State != "fresh" || !strings.Contains(txt, "reviewed against the code as it is now") {
		t.Fatalf("Resolve: %s\n%s", js, txt)
	}
	// Nothing bound: an empty list, not an error.
	txt, js = ok(t, cs, "doc_passages", map[string]any{"file": "resolver/resolve.go", "line": 1})
	p = passagesOut{}
	json.Unmarshal(js, &p)
	if len(p.Passages) != 0 || !p.Complete || !strings.Contains(txt, "No doc passage") {
		t.Fatalf("line 1: %s", js)
	}
	// Cut to a tiny budget: the text is cut and says so.
	_, js = ok(t, cs, "doc_passages", map[string]any{"name": "Cache.Lookup", "budget": 90})
	p = passagesOut{}
	json.Unmarshal(js, &p)
	if p.Complete || p.Note == "" || (len(p.Passages) == 1 && !strings.HasSuffix(p.Passages[0].Text, "[cut]")) {
		t.Fatalf("budget 90: %s", js)
	}
}

func TestResources(t *testing.T) {
	r := tour(t)
	cs := session(t, r.Dir)
	ctx := context.Background()
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, res := range list.Resources {
		uris = append(uris, res.URI)
	}
	sort.Strings(uris)
	if strings.Join(uris, " ") != "clew://doc/docs/architecture.md clew://doc/docs/guide.md clew://policy" {
		t.Fatalf("resources: %v", uris)
	}
	pol, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "clew://policy"})
	if err != nil {
		t.Fatal(err)
	}
	cliPolicy, _ := cli(t, "policy")
	sameJSON(t, "policy", []byte(pol.Contents[0].Text), []byte(cliPolicy))

	doc, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "clew://doc/docs/architecture.md"})
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Doc     string `json:"doc"`
		Anchors []struct {
			Line  int    `json:"line"`
			State string `json:"state"`
			Todo  string `json:"todo"`
		} `json:"anchors"`
	}
	if err := json.Unmarshal([]byte(doc.Contents[0].Text), &d); err != nil {
		t.Fatal(err)
	}
	want := []string{}
	for _, a := range verifyCLI(t, r.Dir).Anchors {
		if a.Doc == "docs/architecture.md" {
			want = append(want, fmt.Sprintf("%d %s", a.Line, a.State))
		}
	}
	got := []string{}
	for _, a := range d.Anchors {
		got = append(got, fmt.Sprintf("%d %s", a.Line, a.State))
	}
	if d.Doc != "docs/architecture.md" || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("doc resource: %v, want %v", got, want)
	}
	for _, bad := range []string{"clew://doc/../etc/passwd", "clew://doc/resolver/resolve.go", "clew://doc/docs/none.md"} {
		if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: bad}); err == nil {
			t.Errorf("%s: read succeeded", bad)
		}
	}
}
