package anchors

import (
	"path"
	"strings"
)

// IsTestPath recognises test files by name: Go's _test.go, Python's
// test_*.py and *_test.py, JS/TS *.test.* and *.spec.* (and __tests__/),
// Java/Kotlin/C#/Swift *Test(s).*, and *_test.* elsewhere.
func IsTestPath(p string) bool {
	base := path.Base(p)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	switch {
	case strings.HasSuffix(stem, "_test"), strings.HasPrefix(base, "test_") && ext == ".py":
		return true
	case strings.HasSuffix(stem, ".test"), strings.HasSuffix(stem, ".spec"):
		return true
	case strings.Contains("/"+p, "/__tests__/"):
		return true
	case (ext == ".java" || ext == ".kt" || ext == ".cs" || ext == ".swift") &&
		(strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests")):
		return true
	}
	return false
}
