package contextmap

import (
	"path"
	"strings"
	"unicode"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// Tests are found by name convention (docs/context.md "its tests"): a test file is
// recognised by its name, a test declaration by its name inside one, and
// the declaration a test exercises by the rest of its name (TestServe →
// Serve, TestCache_Lookup → Cache.Lookup, test_lookup → lookup).

var jsExts = []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}

// isTestFile recognises test files by name (anchors.IsTestPath: one rule
// for the context and for what a doc's mention may name).
func isTestFile(p string) bool { return anchors.IsTestPath(p) }

// conventionalTests are the test files that, by convention, test the
// source file p (only those that exist are used).
func conventionalTests(p string) []string {
	dir, base := path.Dir(p), path.Base(p)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	join := func(parts ...string) string { return path.Join(append([]string{dir}, parts...)...) }
	switch ext {
	case ".go":
		if strings.HasSuffix(stem, "_test") {
			return nil
		}
		return []string{join(stem + "_test.go")}
	case ".py", ".pyi":
		return []string{join("test_" + stem + ".py"), join(stem + "_test.py"), join("tests", "test_"+stem+".py"), path.Join("tests", "test_"+stem+".py")}
	case ".java", ".kt", ".cs", ".swift":
		out := []string{join(stem + "Test" + ext), join(stem + "Tests" + ext)}
		if strings.Contains(p, "src/main/") {
			td := path.Dir(strings.Replace(p, "src/main/", "src/test/", 1))
			out = append(out, path.Join(td, stem+"Test"+ext), path.Join(td, stem+"Tests"+ext))
		}
		return out
	}
	for _, js := range jsExts {
		if ext == js {
			var out []string
			for _, e := range jsExts {
				out = append(out, join(stem+".test"+e), join(stem+".spec"+e), join("__tests__", stem+".test"+e))
			}
			return out
		}
	}
	return []string{join(stem + "_test" + ext)}
}

// isConventionalTestOf reports whether test is one of src's test files.
func isConventionalTestOf(test, src string) bool {
	if stem, ok := strings.CutSuffix(src, ".go"); ok && !strings.HasSuffix(stem, "_test") {
		// conventionalTests' one Go name, without building it (the
		// search asks this for every test declaration it links).
		rest, ok := strings.CutPrefix(test, stem)
		return ok && rest == "_test.go"
	}
	for _, t := range conventionalTests(src) {
		if t == test {
			return true
		}
	}
	return false
}

// testPrefixes are the names of test functions in a test file, per
// language; Go's must be followed by an upper-case letter, '_' or nothing.
var goTestPrefixes = []string{"Test", "Benchmark", "Fuzz", "Example"}

// isTestDecl reports whether a declaration of a test file is a test.
func isTestDecl(lang symbols.Language, d *symbols.Decl) bool {
	if !callableKinds[d.Kind] && !(d.Kind == "class" && lang == symbols.Python) {
		return false
	}
	name := cxBaseName(d.Name)
	if lang == symbols.Go {
		_, ok := goTestRest(name)
		return ok
	}
	return strings.HasPrefix(strings.ToLower(name), "test")
}

func goTestRest(name string) (string, bool) {
	for _, p := range goTestPrefixes {
		if rest, ok := strings.CutPrefix(name, p); ok {
			if rest == "" || rest[0] == '_' || unicode.IsUpper(rune(rest[0])) {
				return strings.TrimPrefix(rest, "_"), true
			}
		}
	}
	return "", false
}

// testedNames are the qualified names a test's name says it tests, most
// specific first: TestCache_Lookup → Cache.Lookup, Cache; TestLookupMiss →
// LookupMiss, Lookup; test_lookup_miss → lookup_miss, lookup. For a
// method of a test class (Python's TestCache.test_lookup) the class's rest
// qualifies the method's: Cache.lookup.
func testedNames(lang symbols.Language, d *symbols.Decl) []string {
	rest := func(name string) string {
		if lang == symbols.Go {
			r, _ := goTestRest(name)
			return r
		}
		low := strings.ToLower(name)
		if strings.HasPrefix(low, "test") {
			return strings.TrimLeft(name[4:], "_")
		}
		return ""
	}
	var out []string
	add := func(s string) {
		if s != "" && !containsString(out, s) {
			out = append(out, s)
		}
	}
	r := rest(cxBaseName(d.Name))
	if d.Container != "" && lang != symbols.Go {
		if cr := rest(cxBaseName(d.Container)); cr != "" && r != "" {
			add(cr + "." + r)
		}
	}
	if r == "" {
		return out
	}
	add(strings.ReplaceAll(r, "_", "."))
	parts := strings.Split(r, "_")
	for i := len(parts) - 1; i >= 1; i-- {
		add(strings.Join(parts[:i], "_"))
	}
	// Camel-case prefixes of the first part: LookupMiss → Lookup.
	first := parts[0]
	for i := len(first) - 1; i > 0; i-- {
		if unicode.IsUpper(rune(first[i])) {
			add(first[:i])
		}
	}
	return out
}
