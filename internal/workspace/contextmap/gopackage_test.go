package contextmap

import (
	"strings"
	"testing"
)

// goPackageBySplit is goPackage as it was written first (split the first
// 4 KiB into at most 200 lines): the reference the in-place reading must
// equal.
func goPackageBySplit(src []byte) string {
	for _, line := range strings.SplitN(string(src[:min(len(src), 4096)]), "\n", 200) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "package "); ok {
			return strings.TrimSuffix(strings.TrimSpace(rest), "_test")
		}
	}
	return ""
}

func goPackageCases() []string {
	long := strings.Repeat("// c\n", 198)
	return []string{
		"", "package p\n", "package p", "  package  q_test  \nfunc f() {}\n", "// x\n\npackage r\n",
		"packagex\npackage s\n", "\xef\xbb\xbfpackage t\n", "no clause at all\n",
		long + "package u\n",             // line 199
		long + "// d\npackage v\n",       // line 200: the rest
		long + "// d\n\npackage w\nx\n",  // the rest, after a blank line
		long + "// d\n// e\npackage y\n", // past the rest's start
		strings.Repeat("x", 4090) + "\npackage z\n",
		"package \u00e9\u00e8\n", "package\tp\n", "package p // comment\n",
	}
}

// TestGoPackageReadsAsTheSplit: the package clause read in place is the
// one the split found, on both sides of the 199-line and 4 KiB limits.
func TestGoPackageReadsAsTheSplit(t *testing.T) {
	for _, c := range goPackageCases() {
		if got, want := goPackage([]byte(c)), goPackageBySplit([]byte(c)); got != want {
			t.Errorf("goPackage(%.40q…) = %q, the split gives %q", c, got, want)
		}
	}
}

func FuzzGoPackage(f *testing.F) {
	for _, c := range goPackageCases() {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if got, want := goPackage(src), goPackageBySplit(src); got != want {
			t.Fatalf("goPackage = %q, the split gives %q", got, want)
		}
	})
}
