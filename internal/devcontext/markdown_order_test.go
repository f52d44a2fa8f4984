package devcontext

import (
	"strings"
	"testing"
)

// The Markdown view's Excluded table shows first what the repository left
// out (stale, superseded, unresolved passages), then the request-bound
// exclusions in the answer's order; the JSON answer keeps its order.
func TestMarkdownListsRepositoryExclusionsFirst(t *testing.T) {
	c := CompiledContext{Excluded: []Excluded{
		{URI: "clew://file/a.go", Reason: ReasonBudget},
		{URI: "clew://file/b.go", Reason: ReasonOutlined},
		{URI: "clew://passage/docs/x.md#X-1", Reason: ReasonStale},
		{URI: "clew://file/c.go", Reason: ReasonRelevance},
		{URI: "clew://passage/docs/y.md#Y-1", Reason: ReasonUnresolved},
		{URI: "clew://adr/adr-1", Reason: ReasonSuperseded},
	}}
	md := Markdown(c, nil)
	want := []string{"docs/x.md#X-1", "docs/y.md#Y-1", "adr-1", "file/a.go", "file/b.go", "file/c.go"}
	at := -1
	for _, w := range want {
		i := strings.Index(md, w)
		if i < 0 || i < at {
			t.Fatalf("%s out of order (at %d, previous at %d):\n%s", w, i, at, md)
		}
		at = i
	}
	if c.Excluded[0].Reason != ReasonBudget {
		t.Fatal("rendering reordered the answer itself")
	}
}
