package contextmap

import (
	"path"
	"strings"
	"testing"
)

// sharedDirsBySplit is sharedDirs as it was written first.
func sharedDirsBySplit(a, b string) int {
	da, db := path.Dir(a), path.Dir(b)
	if da == db {
		return 1 << 20
	}
	as, bs := strings.Split(da, "/"), strings.Split(db, "/")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return n
}

func FuzzSharedDirs(f *testing.F) {
	for _, p := range [][2]string{{"a/b/c.go", "a/b/d.go"}, {"a/b/c.go", "a/c/d.go"}, {"x.go", "a/x.go"}, {"a/x.go", "a/b/c/x.go"}, {"a//b/x", "a/b/x"}, {"/a/x", "a/x"}} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if got, want := sharedDirs(a, b), sharedDirsBySplit(a, b); got != want {
			t.Fatalf("sharedDirs(%q, %q) = %d, want %d", a, b, got, want)
		}
	})
}
