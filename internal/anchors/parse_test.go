package anchors

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseDocForms(t *testing.T) {
	doc := strings.Join([]string{
		"# Title", // 1
		"<!-- @code function Resolve src/a.go -->",                                        // 2
		"<!-- @code INV-07 method Mixer.Blend src/m.go sha=aaaaaaaaaaaa,bbbbbbbbbbbb -->", // 3
		"<!-- @code lines config/s.yml#L1-L4 sha=cccccccccccc -->",                        // 4
		"<!-- @code doc docs/ref.md -->",                                                  // 5
		"| cell | <!-- @code class Box src/box.ts --> |",                                  // 6
		"<!--@code method C.parse(String, int) src/C.java-->",                             // 7
		"## Sub",                                 // 8
		"<!-- @code CHG-1 lines a.txt#L2-L2 -->", // 9
	}, "\n")
	as, ds := ParseDoc("docs/x.md", []byte(doc))
	if len(ds) != 0 {
		t.Fatalf("unexpected diagnostics: %+v", ds)
	}
	type want struct {
		line              int
		form              Form
		claim, kind, name string
		path              string
		start, end        int
		decl, body        string
	}
	wants := []want{
		{2, FormSymbol, "", "function", "Resolve", "src/a.go", 0, 0, "", ""},
		{3, FormSymbol, "INV-07", "method", "Mixer.Blend", "src/m.go", 0, 0, "aaaaaaaaaaaa", "bbbbbbbbbbbb"},
		{4, FormLines, "", "lines", "", "config/s.yml", 1, 4, "cccccccccccc", ""},
		{5, FormDoc, "", "doc", "", "docs/ref.md", 0, 0, "", ""},
		{6, FormSymbol, "", "class", "Box", "src/box.ts", 0, 0, "", ""},
		{7, FormSymbol, "", "method", "C.parse(String, int)", "src/C.java", 0, 0, "", ""},
		{9, FormLines, "CHG-1", "lines", "", "a.txt", 2, 2, "", ""},
	}
	if len(as) != len(wants) {
		t.Fatalf("got %d anchors, want %d: %+v", len(as), len(wants), as)
	}
	for i, w := range wants {
		a := as[i]
		got := want{a.Line, a.Form, a.Claim, a.Kind, a.QualifiedName, a.Path, a.StartLine, a.EndLine, a.DeclSHA, a.BodySHA}
		if got != w {
			t.Errorf("anchor %d:\n got %+v\nwant %+v", i, got, w)
		}
	}
	// Passages: from the heading above to the next heading of the same or
	// higher level.
	if p := as[0].Passage; p.Heading != "Title" || p.StartLine != 1 || p.EndLine != 9 {
		t.Errorf("passage of line 2 = %+v", p)
	}
	if p := as[6].Passage; p.Heading != "Sub" || p.StartLine != 8 || p.EndLine != 9 {
		t.Errorf("passage of line 9 = %+v", p)
	}
	// Spans point at the exact tokens.
	a := as[1]
	if got := doc[a.NameSpan.Start:a.NameSpan.End]; got != "Mixer.Blend" {
		t.Errorf("name span = %q", got)
	}
	if got := doc[a.SHASpan.Start:a.SHASpan.End]; got != "sha=aaaaaaaaaaaa,bbbbbbbbbbbb" {
		t.Errorf("sha span = %q", got)
	}
}

func TestParseDocErrors(t *testing.T) {
	cases := []struct {
		name, line, msg string
	}{
		{"bare", "@code function F a.go", "not an HTML comment"},
		{"unterminated", "<!-- @code function F a.go", "unterminated"},
		{"unknown kind", "<!-- @code functoin F a.go -->", `unknown kind "functoin"`},
		{"missing path", "<!-- @code function F -->", "takes a qualified name and a path"},
		{"too many", "<!-- @code function F a.go b.go -->", "takes a qualified name and a path"},
		{"dotdot", "<!-- @code function F ../etc/passwd -->", "escapes the workspace"},
		{"absolute", "<!-- @code function F /etc/passwd -->", "absolute path"},
		{"backslash", `<!-- @code function F src\a.go -->`, "backslashes"},
		{"bad sha", "<!-- @code function F a.go sha=xyz -->", "12 lowercase hex"},
		{"three hashes", "<!-- @code function F a.go sha=aaaaaaaaaaaa,bbbbbbbbbbbb,cccccccccccc -->", "too many hashes"},
		{"lines body hash", "<!-- @code lines a.go#L1-L2 sha=aaaaaaaaaaaa,bbbbbbbbbbbb -->", "too many hashes"},
		{"bad range", "<!-- @code lines a.go#L5-L2 -->", "empty or starts before line 1"},
		{"bad scheme", "<!-- @code function F a.go sha=vx:aaaaaaaaaaaa -->", "bad hash scheme marker"},
		{"scheme zero", "<!-- @code function F a.go sha=v0:aaaaaaaaaaaa -->", "bad hash scheme marker"},
		{"scheme no colon", "<!-- @code function F a.go sha=v2aaaaaaaaaaaa -->", "bad hash scheme marker"},
		{"scheme on lines", "<!-- @code lines a.go#L1-L2 sha=v2:aaaaaaaaaaaa -->", "carry no scheme marker"},
		{"no range", "<!-- @code lines a.go -->", "is not <path>#L<start>-L<end>"},
		{"doc two paths", "<!-- @code doc a.md b.md -->", "takes one path"},
		{"empty", "<!-- @code -->", "empty anchor"},
		{"claim only", "<!-- @code INV-1 -->", "no target"},
		{"invalid utf8", "<!-- @code function F\xff a.go -->", "invalid UTF-8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			as, ds := ParseDoc("d.md", []byte("intro\n"+c.line+"\n"))
			if len(as) != 0 {
				t.Fatalf("malformed line produced an anchor: %+v", as)
			}
			if len(ds) != 1 {
				t.Fatalf("want exactly one diagnostic, got %+v", ds)
			}
			d := ds[0]
			if d.Line != 2 || d.Code != CodeAnchorParse || d.Severity != SeverityError {
				t.Errorf("diagnostic = %+v", d)
			}
			if !strings.Contains(d.Message, c.msg) {
				t.Errorf("message %q does not contain %q", d.Message, c.msg)
			}
			if !strings.Contains(d.Message, "<!-- @code") && c.name != "dotdot" && c.name != "absolute" &&
				c.name != "backslash" && !strings.Contains(c.name, "hash") && c.name != "bad sha" {
				t.Errorf("message %q does not show the correct form", d.Message)
			}
		})
	}
}

func TestParseDocSkipsExamples(t *testing.T) {
	doc := "```md\n<!-- @code function F a.go -->\n@code bare\n```\n" +
		"    <!-- @code function G a.go -->\n" +
		"~~~\n<!-- @code function H a.go\n~~~\n" +
		"Prose that mentions @code in passing is fine, and so is @codes.\n" +
		"<!-- @code function Real a.go -->\n"
	as, ds := ParseDoc("d.md", []byte(doc))
	if len(ds) != 0 {
		t.Errorf("diagnostics in examples: %+v", ds)
	}
	if len(as) != 1 || as[0].QualifiedName != "Real" || as[0].Line != 10 {
		t.Errorf("anchors = %+v", as)
	}
}

func TestParseDocCRLFAndBOM(t *testing.T) {
	doc := "\ufeff# T\r\n<!-- @code function F a.go sha=aaaaaaaaaaaa -->\r\n"
	as, ds := ParseDoc("d.md", []byte(doc))
	if len(ds) != 0 || len(as) != 1 {
		t.Fatalf("anchors %+v diags %+v", as, ds)
	}
	if as[0].DeclSHA != "aaaaaaaaaaaa" || as[0].Line != 2 || as[0].Passage.Heading != "T" {
		t.Errorf("anchor = %+v", as[0])
	}
	if got := doc[as[0].PathSpan.Start:as[0].PathSpan.End]; got != "a.go" {
		t.Errorf("path span = %q", got)
	}
}

func TestEditsKeepEverythingElse(t *testing.T) {
	doc := "\ufeff# T\r\n<!-- @code function Old a.go sha=aaaaaaaaaaaa -->\r\ntail\r\n"
	as, _ := ParseDoc("d.md", []byte(doc))
	a := as[0]
	b := Binding{Form: FormSymbol, Kind: "method", QualifiedName: "T.New", Path: "b/b.go", DeclHash: "111111111111", BodyHash: "222222222222"}
	got := string(ApplyEdits([]byte(doc), RebindEdits(a, b)))
	want := "\ufeff# T\r\n<!-- @code method T.New b/b.go sha=aaaaaaaaaaaa -->\r\ntail\r\n"
	if got != want {
		t.Errorf("rebind:\n got %q\nwant %q", got, want)
	}
	got = string(ApplyEdits([]byte(doc), ConfirmEdits(a, b)))
	want = "\ufeff# T\r\n<!-- @code method T.New b/b.go sha=v2:111111111111,222222222222 -->\r\ntail\r\n"
	if got != want {
		t.Errorf("confirm:\n got %q\nwant %q", got, want)
	}
	// Pinning an unpinned anchor inserts the sha token after the path.
	doc2 := "x <!-- @code lines a.txt#L1-L2 --> y\n"
	as2, _ := ParseDoc("d.md", []byte(doc2))
	got = string(ApplyEdits([]byte(doc2), ConfirmEdits(as2[0], Binding{Form: FormLines, Path: "a.txt", StartLine: 3, EndLine: 4, DeclHash: "abcabcabcabc"})))
	if want := "x <!-- @code lines a.txt#L3-L4 sha=abcabcabcabc --> y\n"; got != want {
		t.Errorf("pin lines:\n got %q\nwant %q", got, want)
	}
	// Removing an anchor alone on its line removes the line; inside other
	// text it removes only the comment.
	if got := string(ApplyEdits([]byte(doc), []Edit{RemoveEdit([]byte(doc), a)})); got != "\ufeff# T\r\ntail\r\n" {
		t.Errorf("remove line: %q", got)
	}
	if got := string(ApplyEdits([]byte(doc2), []Edit{RemoveEdit([]byte(doc2), as2[0])})); got != "x  y\n" {
		t.Errorf("remove inline: %q", got)
	}
}

func TestContainerAndBaseName(t *testing.T) {
	cases := []struct{ q, container, base string }{
		{"Resolve", "", "Resolve"},
		{"Mixer.blend(first:second:)", "Mixer", "blend"},
		{"A.B.parse(java.lang.String, int)", "A.B", "parse"},
		{"List<a.Item>.cheapest()", "List<a.Item>", "cheapest"},
		{"NS.C.m", "NS.C", "m"},
	}
	for _, c := range cases {
		if got := ContainerOf(c.q); got != c.container {
			t.Errorf("ContainerOf(%q) = %q, want %q", c.q, got, c.container)
		}
		if got := BaseName(c.q); got != c.base {
			t.Errorf("BaseName(%q) = %q, want %q", c.q, got, c.base)
		}
	}
}

func FuzzParseDoc(f *testing.F) {
	f.Add([]byte("# T\n<!-- @code function F a.go sha=aaaaaaaaaaaa,bbbbbbbbbbbb -->\n"))
	f.Add([]byte("<!-- @code INV-1 lines a#L1-L2 -->\r\n```\n<!-- @code x -->\n"))
	f.Add([]byte("<!-- @code method A.f(x, (y) a.go"))
	f.Add([]byte("\xff\xfe<!-- @code doc ../x -->"))
	for _, h := range []string{"   # H", "  ## H", " ### H #", "    # not", "\t# no", "#nospace", "####### seven", "\ufeff# bom"} {
		f.Add([]byte("# top\n" + h + "\n<!--@code doc a.md-->\n @code x\n"))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		as, ds := ParseDoc("d.md", doc)
		// The byte tests that skip a line's regexes change nothing.
		quickLines = false
		slowAs, slowDs := ParseDoc("d.md", doc)
		quickLines = true
		if !reflect.DeepEqual(as, slowAs) || !reflect.DeepEqual(ds, slowDs) {
			t.Fatalf("quick lines differ:\n%+v %+v\nvs %+v %+v", as, ds, slowAs, slowDs)
		}
		for _, a := range as {
			for _, s := range []Span{a.KindSpan, a.NameSpan, a.PathSpan, a.SHASpan} {
				if s.Start < 0 || s.End > len(doc) || s.Start > s.End {
					t.Fatalf("span %+v out of bounds (len %d)", s, len(doc))
				}
			}
			if CheckPath(a.Path) != "" {
				t.Fatalf("accepted unsafe path %q", a.Path)
			}
			// Edits computed from the spans must apply cleanly.
			ApplyEdits(doc, ConfirmEdits(a, Binding{Form: a.Form, Kind: "function", QualifiedName: "Z", Path: "z.go", StartLine: 1, EndLine: 1, DeclHash: "000000000000"}))
			ApplyEdits(doc, []Edit{RemoveEdit(doc, a)})
		}
		for _, d := range ds {
			if d.Line < 1 || d.Message == "" {
				t.Fatalf("bad diagnostic %+v", d)
			}
		}
	})
}

// TestParseScheme: a pin without a marker is scheme 1; `sha=v<N>:` sets it;
// an unpinned anchor has none.
func TestParseScheme(t *testing.T) {
	doc := "<!-- @code function F a.go sha=aaaaaaaaaaaa -->\n" +
		"<!-- @code function G a.go sha=v2:aaaaaaaaaaaa,bbbbbbbbbbbb -->\n" +
		"<!-- @code function H a.go sha=v17:cccccccccccc -->\n" +
		"<!-- @code function I a.go -->\n"
	as, ds := ParseDoc("d.md", []byte(doc))
	if len(ds) != 0 || len(as) != 4 {
		t.Fatalf("%+v %+v", as, ds)
	}
	for i, want := range []int{1, 2, 17, 0} {
		if as[i].Scheme != want {
			t.Errorf("anchor %d: scheme %d, want %d", i, as[i].Scheme, want)
		}
	}
	if as[1].DeclSHA != "aaaaaaaaaaaa" || as[1].BodySHA != "bbbbbbbbbbbb" {
		t.Errorf("hashes after the marker: %+v", as[1])
	}
}
