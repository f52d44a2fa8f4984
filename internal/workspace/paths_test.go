package workspace

import "testing"

func TestRelUnder(t *testing.T) {
	for _, c := range []struct {
		abs, root, rel string
		ok             bool
	}{
		{"/home/me/proj/docs/a.md", "/home/me/proj", "docs/a.md", true},
		{"/home/me/proj", "/home/me/proj", "", true},
		{"/home/me/project/a.md", "/home/me/proj", "", false},
		{"/a.md", "/", "a.md", true},
		// Windows: the editor's drive letter is lower case, the loader's upper.
		{`c:\Users\me\proj\docs\a.md`, `C:\Users\me\proj`, "docs/a.md", true},
		{`C:\Users\me\proj\docs\a.md`, `C:\Users\me\proj`, "docs/a.md", true},
		{`C:/Users/me/proj/docs/a.md`, `C:\Users\me\proj`, "docs/a.md", true},
		{`C:\Users\me\project\a.md`, `C:\Users\me\proj`, "", false},
		{`D:\Users\me\proj\a.md`, `C:\Users\me\proj`, "", false},
		{`C:\a.md`, `C:\`, "a.md", true},
		{`\\server\share\proj\docs\a.md`, `\\server\share\proj`, "docs/a.md", true},
		// On a POSIX root a backslash is part of a file name, not a separator.
		{`/home/me/proj\docs`, "/home/me/proj", "", false},
	} {
		rel, ok := relUnder(c.abs, c.root)
		if rel != c.rel || ok != c.ok {
			t.Errorf("relUnder(%q, %q) = %q, %v; want %q, %v", c.abs, c.root, rel, ok, c.rel, c.ok)
		}
	}
}

// A Windows session locates an editor buffer (`c:\…`, from a
// `file:///c%3A/…` URI) in its folder (`C:\…`, as the loader resolved it).
func TestSessionLocatesWindowsPaths(t *testing.T) {
	s := &Session{folders: map[string]*Snapshot{`C:\Users\me\proj`: {root: `C:\Users\me\proj`}, `C:\Users\me\proj\sub`: {root: `C:\Users\me\proj\sub`}}}
	for abs, want := range map[string]string{
		`c:\Users\me\proj\docs\a.md`: `C:\Users\me\proj docs/a.md`,
		`c:\Users\me\proj\sub\b.md`:  `C:\Users\me\proj\sub b.md`,
	} {
		snap, rel, ok := s.Locate(abs)
		if !ok || snap.root+" "+rel != want {
			t.Errorf("Locate(%q) = %v %q; want %q", abs, ok, rel, want)
		}
	}
}
