package symbols

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func fixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// list renders a table as "kind qualified.name" lines.
func list(tab Table) []string {
	out := make([]string, len(tab.Decls))
	for i, d := range tab.Decls {
		out[i] = d.Kind + " " + d.QualifiedName
	}
	return out
}

func assertList(t *testing.T, lang Language, src string, want []string) Table {
	t.Helper()
	tab := Parse(lang, []byte(src), Options{})
	got := list(tab)
	if !slices.Equal(got, want) {
		t.Errorf("%s decls:\n got %q\nwant %q", lang, got, want)
		for _, g := range got {
			if !slices.Contains(want, g) {
				t.Errorf("  unexpected %q", g)
			}
		}
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("  missing %q", w)
			}
		}
	}
	checkBounds(t, []byte(src), tab)
	return tab
}

func assertContains(t *testing.T, tab Table, want ...string) {
	t.Helper()
	got := list(tab)
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("missing %q in %q", w, got)
		}
	}
}

// find returns the single declaration with that qualified name.
func find(t *testing.T, tab Table, qn string) Decl {
	t.Helper()
	var hits []Decl
	for _, d := range tab.Decls {
		if d.QualifiedName == qn {
			hits = append(hits, d)
		}
	}
	if len(hits) != 1 {
		t.Fatalf("%d declarations named %q in %q", len(hits), qn, list(tab))
	}
	return hits[0]
}

// edit applies old→new replacements, each of which must match.
func edit(t *testing.T, src string, pairs ...string) string {
	t.Helper()
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(src, pairs[i]) {
			t.Fatalf("edit: %q not in source", pairs[i])
		}
		src = strings.ReplaceAll(src, pairs[i], pairs[i+1])
	}
	return src
}

type hashes struct{ decl, body string }

func hashMap(lang Language, src string) map[string]hashes {
	m := map[string]hashes{}
	for _, d := range Parse(lang, []byte(src), Options{}).Decls {
		m[d.Kind+" "+d.QualifiedName] = hashes{d.DeclHash, d.BodyHash}
	}
	return m
}

// assertAllSame checks that two sources have the same declarations with the
// same decl and body hashes.
func assertAllSame(t *testing.T, lang Language, what, a, b string) {
	t.Helper()
	ha, hb := hashMap(lang, a), hashMap(lang, b)
	if len(ha) == 0 {
		t.Fatalf("%s: no declarations", what)
	}
	for k, va := range ha {
		vb, ok := hb[k]
		if !ok {
			t.Errorf("%s: %s disappeared", what, k)
			continue
		}
		if va != vb {
			t.Errorf("%s: %s changed %v → %v", what, k, va, vb)
		}
	}
	if len(ha) != len(hb) {
		t.Errorf("%s: %d decls before, %d after", what, len(ha), len(hb))
	}
}

// assertChanged checks that the named declarations' decl hash (and body hash
// when body is true) differ between a and b, and that the others listed in
// same do not.
func assertChanged(t *testing.T, lang Language, what, a, b string, body bool, changed []string, same []string) {
	t.Helper()
	ha, hb := hashMap(lang, a), hashMap(lang, b)
	for _, k := range changed {
		va, okA := ha[k]
		vb, okB := hb[k]
		if !okA || !okB {
			t.Errorf("%s: %s missing (before %v, after %v)", what, k, okA, okB)
			continue
		}
		if va.decl == vb.decl {
			t.Errorf("%s: decl hash of %s did not change", what, k)
		}
		if body && va.body == vb.body {
			t.Errorf("%s: body hash of %s did not change (%q)", what, k, va.body)
		}
	}
	for _, k := range same {
		if ha[k] != hb[k] {
			t.Errorf("%s: %s changed %v → %v", what, k, ha[k], hb[k])
		}
	}
}

// assertRenamed checks a pure rename: same decl hash, same body hash.
func assertRenamed(t *testing.T, lang Language, a, b, from, to string) {
	t.Helper()
	ha, hb := hashMap(lang, a), hashMap(lang, b)
	va, okA := ha[from]
	vb, okB := hb[to]
	if !okA || !okB {
		t.Fatalf("rename %s → %s: found before %v, after %v (%v)", from, to, okA, okB, keys(hb))
	}
	if va != vb {
		t.Errorf("rename %s → %s changed hashes %v → %v", from, to, va, vb)
	}
}

func keys(m map[string]hashes) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// checkBounds: every span lies inside the input and names lie inside spans.
func checkBounds(t testing.TB, src []byte, tab Table) {
	t.Helper()
	for _, d := range tab.Decls {
		if d.StartByte < 0 || d.EndByte > len(src) || d.StartByte > d.EndByte {
			t.Fatalf("%s: span %d-%d outside 0-%d", d.QualifiedName, d.StartByte, d.EndByte, len(src))
		}
		if d.NameStartByte < d.StartByte || d.NameEndByte > d.EndByte || d.NameStartByte > d.NameEndByte {
			t.Fatalf("%s: name %d-%d outside span %d-%d", d.QualifiedName, d.NameStartByte, d.NameEndByte, d.StartByte, d.EndByte)
		}
		if d.StartLine < 1 || d.EndLine < d.StartLine {
			t.Fatalf("%s: lines %d-%d", d.QualifiedName, d.StartLine, d.EndLine)
		}
		if d.Kind == "" || d.Name == "" || len(d.DeclHash) != 12 {
			t.Fatalf("incomplete decl %+v", d)
		}
		if (d.BodyHash == "") != (d.BodyTokens < MinBodyTokens) {
			t.Fatalf("%s: body hash %q with %d tokens", d.QualifiedName, d.BodyHash, d.BodyTokens)
		}
	}
}
