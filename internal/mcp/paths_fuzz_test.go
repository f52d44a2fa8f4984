package mcp

import (
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzWorkspacePath: whatever an agent passes, the answer is refused or a
// clean workspace-relative path that stays under the root.
func FuzzWorkspacePath(f *testing.F) {
	for _, s := range []string{"a/b.go", "../x", "/etc/passwd", "a/../../b", "./a//b/", "..", ".", "", " a.go ",
		"a\\..\\..\\b", "/tmp/../tmp/x", "a/./../b", "…/é.go"} {
		f.Add(s)
	}
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, p string) {
		rel, err := workspacePath(root, p)
		if err != nil {
			if !strings.Contains(err.Error(), "workspace") && !strings.Contains(err.Error(), "symlink") {
				t.Fatalf("%q: the refusal does not say what to pass: %v", p, err)
			}
			return
		}
		if rel == "" || rel == "." || path.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") || path.Clean(rel) != rel {
			t.Fatalf("%q → %q: not a clean relative path", p, rel)
		}
		full := filepath.Join(root, filepath.FromSlash(rel))
		if r, err := filepath.Rel(root, full); err != nil || strings.HasPrefix(r, "..") {
			t.Fatalf("%q → %q escapes %s", p, rel, root)
		}
	})
}
