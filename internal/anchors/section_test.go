package anchors

import (
	"strings"
	"testing"
)

// GitHub's heading anchors: lower case, punctuation dropped (hyphen and
// underscore kept), each space a hyphen, letters of any script kept,
// markup reduced to its text.
func TestSlug(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Install", "install"},
		{"Hello, World!", "hello-world"},
		{"A & B", "a--b"},
		{"`Cache.Lookup` hits", "cachelookup-hits"},
		{"snake_case and kebab-case", "snake_case-and-kebab-case"},
		{"Überblick & Ziele", "überblick--ziele"},
		{"日本語 テスト", "日本語-テスト"},
		{"[Link text](https://x.y/z) here", "link-text-here"},
		{"Emoji 🚀 launch", "emoji--launch"},
		{"v1.2.3 (beta)", "v123-beta"},
	} {
		if got := Slug(c.in); got != c.want {
			t.Errorf("Slug(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSections(t *testing.T) {
	doc := "# Title\nintro\n## A\na\n```\n## not a heading\n```\n### A.1\nx\n## A\nsecond\n# End ##\n"
	got := Sections([]byte(doc))
	var slugs []string
	for _, s := range got {
		slugs = append(slugs, s.Slug)
	}
	if strings.Join(slugs, " ") != "title a a1 a-1 end" {
		t.Fatalf("slugs %q", slugs)
	}
	// "## A" runs to the line before the next heading of its level or higher,
	// past the fenced "## not a heading" and its own subsection.
	if a := got[1]; a.StartLine != 3 || a.EndLine != 9 {
		t.Errorf("A spans %d-%d, want 3-9", a.StartLine, a.EndLine)
	}
	if got[0].EndLine != 11 || got[4].StartLine != 12 {
		t.Errorf("title ends %d, end starts %d", got[0].EndLine, got[4].StartLine)
	}
	// The body hash ignores the heading: a renamed heading keeps it.
	renamed := Sections([]byte(strings.Replace(doc, "## A\na\n", "## Renamed\na\n", 1)))
	if renamed[1].BodyHash != got[1].BodyHash || renamed[1].Slug != "renamed" {
		t.Errorf("renamed heading: %+v vs %+v", renamed[1], got[1])
	}
}

func TestParseDocSection(t *testing.T) {
	as, diags := ParseDoc("d.md", []byte("<!-- @code doc docs/guide.md#install -->\n<!-- @code doc docs/guide.md# -->\n"))
	if len(as) != 1 || as[0].Path != "docs/guide.md" || as[0].Section != "install" {
		t.Fatalf("anchors %+v", as)
	}
	if len(diags) != 1 || !strings.Contains(diags[0].Message, "heading-slug") {
		t.Fatalf("diagnostics %+v", diags)
	}
}

func FuzzSections(f *testing.F) {
	f.Add("# a\n## b\n```\n# c\n```\n## b\n")
	f.Fuzz(func(t *testing.T, doc string) {
		n := strings.Count(doc, "\n") + 1
		for _, s := range Sections([]byte(doc)) {
			if s.StartLine < 1 || s.EndLine < s.StartLine || s.EndLine > n {
				t.Fatalf("section %+v outside %d lines", s, n)
			}
		}
	})
}
