package workspace

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"
)

// The expression packageClause replaces: its answer is the reference.
var packageClauseRE = regexp.MustCompile(`(?m)^package[ \t]+([A-Za-z_][A-Za-z0-9_]*)`)

func refPackageClause(text []byte) []byte {
	if m := packageClauseRE.FindSubmatch(text); m != nil {
		return m[1]
	}
	return nil
}

func TestPackageClauseIsTheExpression(t *testing.T) {
	srcs := []string{"package p\n", "// package x\npackage  y_1 // c\n", "packages\npackage\tz", "\npackage 1a\npackage b", "package", "apackage q\n", "package \n"}
	files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "go", "*", "*.go"))
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil {
			srcs = append(srcs, string(b))
		}
	}
	for _, s := range srcs {
		got, want := packageClause([]byte(s)), refPackageClause([]byte(s))
		if string(got) != string(want) || (got == nil) != (want == nil) {
			t.Errorf("%.60q: %q, the expression %q", s, got, want)
		}
	}
	if len(srcs) < 50 {
		t.Fatalf("only %d sources", len(srcs))
	}
}

func FuzzPackageClause(f *testing.F) {
	for _, s := range []string{"package p\n", "// package x\npackage  y_1 // c\n", "packages\npackage\tz", "\npackage 1a\npackage b"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		got, want := packageClause(text), refPackageClause(text)
		if string(got) != string(want) || (got == nil) != (want == nil) {
			t.Fatalf("%q: %q, the expression %q", text, got, want)
		}
	})
}
