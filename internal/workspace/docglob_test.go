package workspace

import (
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

// docGlob answers as doublestar.Match for the includes it reads by hand
// (`**/*<suffix>`) and hands everything else to it.
func FuzzDocGlob(f *testing.F) {
	for _, g := range []string{"**/*.md", "**/*.mdx", "**/*.markdown", "**/*", "**/*.m?", "docs/**/*.md", "**/*.{md,txt}", "**/*/x", `**/*\.md`} {
		for _, p := range []string{"README.md", "docs/a.md", "a/b/c.markdown", ".md", "a/.md", "amd", "a.md/b", "a.mdx", "docs/x.MD", "", "a/b/", "\xffx.md", "a//b.md"} {
			f.Add(g, p)
		}
	}
	f.Fuzz(func(t *testing.T, g, p string) {
		want, err := doublestar.Match(g, p)
		if err != nil {
			want = false
		}
		if got := docGlob(g, p); got != want {
			t.Fatalf("docGlob(%q, %q) = %v; doublestar %v (%v)", g, p, got, want, err)
		}
	})
}

func TestDocGlobDefaults(t *testing.T) {
	cases := map[string]bool{"README.md": true, "docs/guide/a.mdx": true, "x.markdown": true, "a.md/b.go": false, "notes.md.bak": false, "md": false}
	for p, want := range cases {
		if got := DefaultConfig().IsDoc(p); got != want {
			t.Errorf("IsDoc(%q) = %v, want %v", p, got, want)
		}
	}
}
