package anchors

import (
	"path"
	"sort"
	"strconv"
	"strings"
)

// MentionRef is a declaration a mention may name, with the package its
// file belongs to (a Go file's package clause, else its directory's name),
// so `pkg.Func` can name a top-level function.
type MentionRef struct {
	Ref
	Package string
}

// ResolveMention lists the declarations a mention's name (MentionName's
// form) names, best tier only, sorted by path, line and name:
//
//  1. the qualified name is the mention (`Cache.Lookup`, `Resolve`);
//
//  2. else the mention is the end of a qualified name (`Lookup` names
//     `Cache.Lookup`), or a qualified name preceded by its package or file
//     name (`resolver.Resolve`, `resolver.Cache.Lookup`).
//
//  3. else, for a qualified mention, declarations whose container is the
//     qualifier in another case (`cache.Lookup`, a variable named after its
//     type, names `Cache.Lookup`).
//
// refs are the candidates whose base name is the mention's last segment;
// configuration keys are never named by a mention, and a call (`Lookup()`)
// names only functions, methods and constructors. One result is a unique
// mention, several an ambiguous one, none an unresolved one.
func ResolveMention(name string, call bool, refs []MentionRef) []Ref {
	want := strings.Split(name, ".")
	var exact, loose, folded []Ref
	seen := map[string]bool{}
	for _, r := range refs {
		if r.Decl == nil || r.Decl.Kind == "key" || call && !callableKinds[r.Decl.Kind] {
			continue
		}
		have := strings.Split(plainQualified(r.Decl.QualifiedName), ".")
		if have[len(have)-1] != want[len(want)-1] {
			continue
		}
		key := r.Path + "\x00" + r.Decl.QualifiedName + "\x00" + r.Decl.Kind + "\x00" + strconv.Itoa(r.Decl.StartLine)
		if seen[key] {
			continue
		}
		seen[key] = true
		switch {
		case equalSegs(have, want):
			exact = append(exact, r.Ref)
		case len(want) < len(have) && equalSegs(have[len(have)-len(want):], want):
			loose = append(loose, r.Ref)
		case len(want) > len(have) && equalSegs(want[len(want)-len(have):], have) && namesFile(want[len(want)-len(have)-1], r):
			loose = append(loose, r.Ref)
		case len(want) == 2 && len(have) >= 2 && strings.EqualFold(want[0], have[len(have)-2]):
			folded = append(folded, r.Ref)
		}
	}
	out := preferNonTest(exact)
	if len(out) == 0 {
		out = preferNonTest(loose)
	}
	if len(out) == 0 {
		out = preferNonTest(folded)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Decl.StartLine != b.Decl.StartLine {
			return a.Decl.StartLine < b.Decl.StartLine
		}
		return a.Decl.QualifiedName < b.Decl.QualifiedName
	})
	return out
}

var callableKinds = map[string]bool{"function": true, "method": true, "constructor": true, "macro": true, "rpc": true}

// preferNonTest drops declarations of test files: prose that names
// `excluded` or `init` means the code, not a test's helper of that name.
// Only a name that reads as a test (`TestLookup`, `test_lookup`) may name
// one, and only when nothing outside the tests does.
func preferNonTest(refs []Ref) []Ref {
	var keep, tests []Ref
	for _, r := range refs {
		if IsTestPath(r.Path) {
			tests = append(tests, r)
		} else {
			keep = append(keep, r)
		}
	}
	if len(keep) == 0 && len(tests) > 0 && strings.HasPrefix(strings.ToLower(BaseName(tests[0].Decl.QualifiedName)), "test") {
		return tests
	}
	return keep
}

// namesFile: q is the declaration's package, or its file's name without
// the extension.
func namesFile(q string, r MentionRef) bool {
	stem := path.Base(r.Path)
	if i := strings.IndexByte(stem, '.'); i > 0 {
		stem = stem[:i]
	}
	return q == r.Package || q == stem
}

// plainQualified drops what brackets enclose (parameter lists of
// overloads, Swift labels, generic arguments), so segments compare as the
// names a writer types.
func plainQualified(q string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(q); i++ {
		switch c := q[i]; c {
		case '(', '[', '<':
			depth++
		case ')', ']', '>':
			if depth > 0 {
				depth--
			}
		default:
			if depth == 0 {
				b.WriteByte(c)
			}
		}
	}
	return b.String()
}

func equalSegs(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// MentionSettled reports whether refs already make the mention ambiguous
// whatever other declarations exist: two distinct declarations outside the
// tests whose qualified name is the mention itself (the first tier).
// More candidates only join that tier or lower ones, so ResolveMention
// over any superset of refs still answers several, from the first tier.
func MentionSettled(name string, call bool, refs []MentionRef) bool {
	want := strings.Split(name, ".")
	first := ""
	for _, r := range refs {
		if r.Decl == nil || r.Decl.Kind == "key" || call && !callableKinds[r.Decl.Kind] || IsTestPath(r.Path) {
			continue
		}
		if !equalSegs(strings.Split(plainQualified(r.Decl.QualifiedName), "."), want) {
			continue
		}
		key := r.Path + "\x00" + r.Decl.QualifiedName + "\x00" + r.Decl.Kind + "\x00" + strconv.Itoa(r.Decl.StartLine)
		if first == "" {
			first = key
		} else if key != first {
			return true
		}
	}
	return false
}

// MentionFinal reports whether ResolveMention over refs is already its
// answer over every declaration of the repository, when refs hold every
// declaration whose qualified name is the mention itself (exactComplete):
// its answer then comes from that first tier, which more candidates do not
// change.
func MentionFinal(name string, call bool, refs []MentionRef, exactComplete bool) bool {
	if !exactComplete {
		return false
	}
	want := strings.Split(name, ".")
	hits := ResolveMention(name, call, refs)
	for _, h := range hits {
		if !equalSegs(strings.Split(plainQualified(h.Decl.QualifiedName), "."), want) {
			return false
		}
	}
	return len(hits) > 0
}
