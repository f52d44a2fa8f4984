package anchors

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// mentionsOf renders each mention as "line:name@insertLine/indent".
func mentionsOf(doc string) []string {
	var out []string
	for _, m := range ScanMentions([]byte(doc)) {
		out = append(out, fmt.Sprintf("%d:%s@%d/%d", m.Line, m.Name, m.InsertLine, len(m.Indent)))
	}
	return out
}

func TestScanMentions(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  string
		want []string
	}{
		{"single backticks", "Call `Cache.Lookup` first.\n", []string{"1:Cache.Lookup@2/0"}},
		{"double backticks hold a backtick", "Use ``Resolve`` and `` `x` ``.\n", []string{"1:Resolve@2/0"}},
		{"one space stripped", "The `` Normalize `` step.\n", []string{"1:Normalize@2/0"}},
		{"trailing parens and separators", "`Lookup()` `Cache::Lookup` `Cache#lookup` `a->next`\n",
			[]string{"1:Lookup@2/0", "1:Cache.Lookup@2/0", "1:Cache.lookup@2/0", "1:a.next@2/0"}},
		{"escaped backticks open nothing", "Not \\`Resolve\\` here, but `Tokenize` is.\n", []string{"1:Tokenize@2/0"}},
		{"a code span pairs the next run of its length", "A lone ` then `Resolve`.\n", []string{"1:then@2/0"}},
		{"unclosed run is literal", "A lone `` then `Resolve`.\n", []string{"1:Resolve@2/0"}},
		{"run lengths must match", "``Resolve` still open`` and `Parse`\n", []string{"1:Parse@2/0"}},
		{"non-identifiers", "`go test ./...` `--json` `\"x\"` `a + b` `x` `1abc` `foo-bar` `List<T>`\n", nil},
		{"file names are not names, calls are", "`root.go` `config.json` `resp.json()`\n", []string{"1:resp.json@2/0"}},
		{"link text is a mention, the URL is not", "See [`Cache.Lookup`](resolver/resolve.go) and <https://x.io/`Parse`>.\n",
			[]string{"1:Cache.Lookup@2/0"}},
		{"a comment line is an HTML block", "<!-- x --> then `Resolve`\n", nil},
		{"HTML comments and tags", "Text <!-- `Resolve` --> text <span title=\"`Parse`\">`Score`</span>\n", []string{"1:Score@2/0"}},
		{"span across lines of one paragraph", "Call `Cache.\nLookup` now.\n\nNext.\n", nil}, // "Cache. Lookup" is no name
		{"paragraph end", "First `Resolve`\nline two.\n\nSecond `Parse`.\n", []string{"1:Resolve@3/0", "4:Parse@5/0"}},
		{"fenced code is not prose", "Intro `Resolve`.\n\n```go\nx := `Parse`\n```\n\n~~~\n`Score`\n~~~\n", []string{"1:Resolve@2/0"}},
		{"a longer fence is closed only by as long a fence", "````\n```\n`Parse`\n````\nAfter `Score`.\n", []string{"5:Score@6/0"}},
		{"unclosed fence runs to the end", "```\n`Parse`\n", nil},
		{"indented code after a blank line", "Text `Resolve`.\n\n    `Parse`\n", []string{"1:Resolve@2/0"}},
		{"indented line continuing a paragraph", "Text `Resolve`\n    and `Parse`.\n", []string{"1:Resolve@3/0", "2:Parse@3/0"}},
		{"heading", "# The `Cache` type\nBody.\n", []string{"1:Cache@2/0"}},
		{"setext heading keeps its underline", "About `Resolve`\n===\n", []string{"1:Resolve@3/0"}},
		{"after the anchors already under it", "Calls `Resolve`.\n<!-- @code function Parse a.go -->\n\nNext.\n", []string{"1:Resolve@3/0"}},
		{"list item with continuation", "- item `Resolve`\n  continues\n\n  more of it\n- next `Parse`\n", []string{"1:Resolve@5/2", "5:Parse@6/2"}},
		{"lazy continuation", "- item\n`Resolve` lazily\n\nAfter.\n", []string{"2:Resolve@3/2"}},
		{"nested list stays in the outer item", "1. outer\n   - inner `Resolve`\n     more\n2. next\n", []string{"2:Resolve@4/3"}},
		{"a fence inside an item", "- item `Resolve`\n\n  ```\n  `Parse`\n  ```\n- next\n", []string{"1:Resolve@6/2"}},
		{"four-column content indent caps at three", "10. ten `Resolve`\n", []string{"1:Resolve@2/3"}},
		{"quote", "> quoted `Resolve`\n> more\n\nAfter.\n", []string{"1:Resolve@3/0"}},
		{"fence inside a quote", "> ```\n> `Parse`\n> ```\n", nil},
		{"table", "| a | b |\n|---|---|\n| `Resolve` | x |\n", []string{"3:Resolve@4/0"}},
		{"front matter", "---\ntitle: `Resolve`\n---\nText `Parse`.\n", []string{"4:Parse@5/0"}},
		{"HTML block", "<details>\n`Resolve`\n</details>\n\n`Parse`\n", []string{"5:Parse@6/0"}},
		{"multi-line comment", "<!--\n`Resolve`\n-->\n`Parse`\n", []string{"4:Parse@5/0"}},
		{"no final newline", "Ends with `Resolve`", []string{"1:Resolve@2/0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := mentionsOf(tc.doc)
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("ScanMentions(%q)\n got %q\nwant %q", tc.doc, got, tc.want)
			}
		})
	}
}

// TestMentionInsertion: the inserted anchor is read by the anchor parser,
// in the mention's passage, with the doc's line endings, and a list item
// stays one item.
func TestMentionInsertion(t *testing.T) {
	const anchor = "<!-- @code function Resolve a.go -->"
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"paragraph", "# A\n\nCall `Resolve`\nnow.\n\nNext.\n", "# A\n\nCall `Resolve`\nnow.\n" + anchor + "\n\nNext.\n"},
		{"CRLF", "# A\r\n\r\nCall `Resolve`.\r\n", "# A\r\n\r\nCall `Resolve`.\r\n" + anchor + "\r\n"},
		{"no final newline", "Call `Resolve`.", "Call `Resolve`.\n" + anchor + "\n"},
		{"list item", "- a `Resolve`\n  more\n- b\n", "- a `Resolve`\n  more\n  " + anchor + "\n- b\n"},
		{"BOM kept", "\ufeffCall `Resolve`.\n", "\ufeffCall `Resolve`.\n" + anchor + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms := ScanMentions([]byte(tc.doc))
			if len(ms) != 1 {
				t.Fatalf("mentions %+v", ms)
			}
			got := string(ApplyEdits([]byte(tc.doc), []Edit{MentionInsertEdit([]byte(tc.doc), ms[0], anchor)}))
			if got != tc.want {
				t.Fatalf("got %q\nwant %q", got, tc.want)
			}
			as, ds := ParseDoc("d.md", []byte(got))
			if len(ds) != 0 || len(as) != 1 || as[0].Line != ms[0].InsertLine || as[0].Passage.StartLine != ms[0].Passage.StartLine {
				t.Fatalf("parsed %+v %+v, want an anchor on line %d in passage %+v", as, ds, ms[0].InsertLine, ms[0].Passage)
			}
		})
	}
}

func TestResolveMention(t *testing.T) {
	decl := func(kind, q string, line int) *symbols.Decl {
		return &symbols.Decl{Kind: kind, QualifiedName: q, StartLine: line}
	}
	refs := []MentionRef{
		{Ref{"resolver/resolve.go", decl("function", "Resolve", 7)}, "resolver"},
		{Ref{"resolver/resolve.go", decl("method", "Cache.Lookup", 21)}, "resolver"},
		{Ref{"web/cache.ts", decl("method", "Store.Lookup", 3)}, "web"},
		{Ref{"lib/resolver.go", decl("method", "Resolver.Resolve", 9)}, "lib"},
		{Ref{"java/C.java", decl("method", "C.parse(String, int)", 4)}, "java"},
		{Ref{"java/C.java", decl("method", "C.parse(String)", 8)}, "java"},
		{Ref{"config/app.yml", decl("key", "Lookup", 1)}, "config"},
		{Ref{"lib/x_test.go", decl("function", "excluded", 5)}, "lib"},
		{Ref{"lib/x.go", decl("function", "excluded", 2)}, "lib"},
		{Ref{"lib/x_test.go", decl("function", "fixture", 9)}, "lib"},
		{Ref{"lib/x_test.go", decl("function", "TestExcluded", 12)}, "lib"},
		{Ref{"web/ctx.go", decl("struct", "Context", 3)}, "web"},
		{Ref{"web/ctx.go", decl("method", "Request.Context", 30)}, "web"},
	}
	byBase := func(base string) []MentionRef {
		var out []MentionRef
		for _, r := range refs {
			if BaseName(r.Decl.QualifiedName) == base {
				out = append(out, r)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name string
		want string
	}{
		{"Resolve", "resolver/resolve.go:7"}, // the exact name wins over Resolver.Resolve
		{"Cache.Lookup", "resolver/resolve.go:21"},
		{"Lookup", "resolver/resolve.go:21 web/cache.ts:3"}, // ambiguous; the key is never a target
		{"resolver.Resolve", "resolver/resolve.go:7"},
		{"resolver.Cache.Lookup", "resolver/resolve.go:21"},
		{"Resolver.Resolve", "lib/resolver.go:9"},
		{"web.Resolve", ""},
		{"C.parse", "java/C.java:4 java/C.java:8"},
		{"Missing", ""},
		{"excluded", "lib/x.go:2"},           // a test's helper of the same name is not a second candidate
		{"fixture", ""},                      // nor is a helper only tests declare
		{"TestExcluded", "lib/x_test.go:12"}, // but a test's own name is
		{"Context", "web/ctx.go:3"},
		{"Context()", "web/ctx.go:30"},             // a call names no struct
		{"cache.Lookup", "resolver/resolve.go:21"}, // a variable named after its type
		{"req.Context", ""},
	} {
		segs := strings.Split(strings.TrimSuffix(tc.name, "()"), ".")
		var got []string
		name, call := strings.CutSuffix(tc.name, "()")
		for _, r := range ResolveMention(name, call, byBase(segs[len(segs)-1])) {
			got = append(got, fmt.Sprintf("%s:%d", r.Path, r.Decl.StartLine))
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("ResolveMention(%s) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// FuzzScanMentions: any bytes scan without a panic; every mention lies in
// the text, names an identifier, and its insertion point starts a line
// after it.
func FuzzScanMentions(f *testing.F) {
	for _, s := range []string{
		"Call `Cache.Lookup`.\n", "- a `x`\n  ```\n  `y`\n", "> `q`\n>\n", "```\n`a`\n", "\ufeff---\n`a`\n---\n`Bb`",
		"<!--\n`Aa`", "``a` `` `Bb`", "1. `Aa`\r\n   ~~~\r\n", "\\`Aa\\``Bb`", "<pre>\n`Aa`\n</pre>\n`Bb`\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		for _, m := range ScanMentions(text) {
			if m.StartByte < 0 || m.EndByte > len(text) || m.StartByte >= m.EndByte || text[m.StartByte] != '`' {
				t.Fatalf("span %d-%d out of the text", m.StartByte, m.EndByte)
			}
			if _, ok := MentionName(m.Text); !ok {
				t.Fatalf("mention %q is no name", m.Text)
			}
			if m.InsertAt < m.EndByte || m.InsertAt > len(text) || (m.InsertAt > 0 && m.InsertAt < len(text) && text[m.InsertAt-1] != '\n') {
				t.Fatalf("insertion at %d for a mention ending at %d", m.InsertAt, m.EndByte)
			}
			if m.InsertLine <= m.Line || len(m.Indent) > 3 {
				t.Fatalf("insert line %d indent %q for line %d", m.InsertLine, m.Indent, m.Line)
			}
			e := MentionInsertEdit(text, m, "<!-- @code function Aa a.go -->")
			if out := ApplyEdits(text, []Edit{e}); len(out) != len(text)+len(e.New) {
				t.Fatalf("the insertion lost bytes")
			}
		}
	})
}

// A mention is settled (ambiguous whatever else exists) by two distinct
// declarations outside the tests under its exact name; nothing less.
func TestMentionSettled(t *testing.T) {
	ref := func(path, qname, kind string, line int) MentionRef {
		return MentionRef{Ref: Ref{Path: path, Decl: &symbols.Decl{QualifiedName: qname, Kind: kind, StartLine: line}}}
	}
	closeA, closeB := ref("a/a.go", "Close", "function", 3), ref("b/b.go", "Close", "function", 9)
	for _, c := range []struct {
		name string
		call bool
		refs []MentionRef
		want bool
	}{
		{"Close", false, []MentionRef{closeA, closeB}, true},
		{"Close", true, []MentionRef{closeA, closeB}, true},
		{"Close", false, []MentionRef{closeA, closeA}, false},
		{"Close", false, []MentionRef{closeA, ref("a/a_test.go", "Close", "function", 5)}, false},
		{"Close", false, []MentionRef{closeA, ref("b/b.go", "File.Close", "method", 5)}, false},
		{"Close", true, []MentionRef{closeA, ref("b/b.go", "Close", "var", 5)}, false},
		{"Close", false, []MentionRef{closeA, ref("b/b.go", "Close", "var", 5)}, true},
		{"File.Close", false, []MentionRef{ref("a/a.go", "File.Close", "method", 1), ref("b/b.go", "File.Close", "method", 2)}, true},
		{"File.Close", false, []MentionRef{closeA, closeB}, false},
		{"Close", false, []MentionRef{closeA, ref("c/c.yml", "Close", "key", 1)}, false},
	} {
		if got := MentionSettled(c.name, c.call, c.refs); got != c.want {
			t.Errorf("MentionSettled(%q, call=%v, %d refs) = %v, want %v", c.name, c.call, len(c.refs), got, c.want)
		}
		// Settled means ResolveMention over these (or more) answers several.
		if c.want && len(ResolveMention(c.name, c.call, c.refs)) < 2 {
			t.Errorf("%q settled but ResolveMention answers %d", c.name, len(ResolveMention(c.name, c.call, c.refs)))
		}
	}
}
