package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/uri"
)

// The Windows rules run on every machine: the release's Windows binary is
// exercised under Wine only for the command line, so editor URIs are tested
// here.
func TestPathOfWindows(t *testing.T) {
	for _, c := range []struct{ uri, path, err string }{
		{"file:///c%3A/Users/me/proj/docs/a.md", `C:\Users\me\proj\docs\a.md`, ""},
		{"file:///C:/Users/me/proj/docs/a.md", `C:\Users\me\proj\docs\a.md`, ""},
		{"file:///c%3a/Users/me/a%20b.md", `C:\Users\me\a b.md`, ""},
		{"file:///d%3A/x/../y/./z.md", `D:\y\z.md`, ""},
		{"file:///c%3A/", `C:\`, ""},
		{"file://server/share/docs/a.md", `\\server\share\docs\a.md`, ""},
		{"file:///home/me/a.md", "", "no absolute Windows path"},
		{"file:///c%3Aproj/a.md", "", "no absolute Windows path"},
		{"untitled:Untitled-1", "", "unsupported URI"},
	} {
		p, err := pathOfOn(uri.URI(c.uri), true)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %q, %v; want an error %q", c.uri, p, err, c.err)
			}
			continue
		}
		if err != nil || p != c.path {
			t.Errorf("%s → %q, %v; want %q", c.uri, p, err, c.path)
		}
	}
}

func TestURIOfWindows(t *testing.T) {
	for path, want := range map[string]string{
		`C:\Users\me\proj\docs\a.md`: "file:///c%3A/Users/me/proj/docs/a.md",
		`C:\Users\me\a b#1.md`:       "file:///c%3A/Users/me/a%20b%231.md",
		`\\server\share\docs\a.md`:   "file://server/share/docs/a.md",
	} {
		got := uriOfOn(path, true)
		if string(got) != want {
			t.Errorf("%s → %s; want %s", path, got, want)
		}
		back, err := pathOfOn(got, true)
		if err != nil || back != path {
			t.Errorf("round trip of %s: %q, %v", path, back, err)
		}
	}
}

func TestPathOfPOSIX(t *testing.T) {
	for _, c := range []struct{ uri, path string }{
		{"file:///home/me/proj/a%20b.md", "/home/me/proj/a b.md"},
		{"file:///home/me/x/../y.md", "/home/me/y.md"},
		{"file:///home/me/c%3A.md", "/home/me/c:.md"},
	} {
		p, err := pathOfOn(uri.URI(c.uri), false)
		if err != nil || p != c.path {
			t.Errorf("%s → %q, %v; want %q", c.uri, p, err, c.path)
		}
	}
	if p, err := pathOfOn("file:///c%3A/Users/me/a.md", false); err == nil {
		t.Errorf("a drive path on POSIX resolved to %q", p)
	}
	if got := uriOfOn("/home/me/a b.md", false); got != "file:///home/me/a%20b.md" {
		t.Errorf("uriOfOn POSIX = %s", got)
	}
}

// Whatever the editor sends, a path that comes back is absolute and clean,
// and converting it back to a URI and again to a path is a fixed point.
func FuzzPathOfWindows(f *testing.F) {
	for _, s := range []string{"file:///c%3A/a/b.md", "file://srv/share/x", "file:///C:/../..", "file:///c%3A", "file:////x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := uri.Parse(s)
		if err != nil {
			return
		}
		p, err := pathOfOn(u, true)
		if err != nil {
			return
		}
		if _, ok := cleanWindowsPath(p); !ok || strings.Contains(p, "/") {
			t.Fatalf("%q → %q: not a clean absolute Windows path", s, p)
		}
		again, err := pathOfOn(uriOfOn(p, true), true)
		if err != nil || again != p {
			t.Fatalf("%q → %q → %q (%v)", s, p, again, err)
		}
	})
}
