package query_test

import (
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/workspace/query"
)

func TestMentionEdits(t *testing.T) {
	doc := "# Top\r\n" +
		"Helper before the passage.\r\n" +
		"## Combining\r\n" +
		"Helper and `Helper()` and Helper's, not HelperX or xHelper or Helper_2.\r\n" +
		"<!-- a comment about Helper\r\n" +
		"that spans lines: Helper -->Helper after it\r\n" +
		"<!-- @code function Helper lib/a.go -->\r\n" +
		"~~~\r\n" +
		"Helper in a tilde fence\r\n" +
		"~~~\r\n" +
		"    Helper indented is a code block\r\n" +
		"## Next\r\n" +
		"Helper after the passage.\r\n"
	as, _ := anchors.ParseDoc("d.md", []byte(doc))
	if len(as) != 1 {
		t.Fatalf("%d anchors", len(as))
	}
	edits := query.MentionEdits([]byte(doc), as[0], "Helper", "Combine")
	got := string(anchors.ApplyEdits([]byte(doc), edits))
	want := "# Top\r\n" +
		"Helper before the passage.\r\n" +
		"## Combining\r\n" +
		"Combine and `Combine()` and Combine's, not HelperX or xHelper or Helper_2.\r\n" +
		"<!-- a comment about Helper\r\n" +
		"that spans lines: Helper -->Combine after it\r\n" +
		"<!-- @code function Helper lib/a.go -->\r\n" +
		"~~~\r\n" +
		"Helper in a tilde fence\r\n" +
		"~~~\r\n" +
		"    Helper indented is a code block\r\n" +
		"## Next\r\n" +
		"Helper after the passage.\r\n"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	if len(query.MentionEdits([]byte(doc), as[0], "Helper", "Helper")) != 0 {
		t.Error("same name: no edits")
	}
}
