package symbols

import (
	"strings"
	"testing"
)

func keyDecls(t *testing.T, lang Language, src string) map[string]Decl {
	t.Helper()
	out := map[string]Decl{}
	for _, d := range Parse(lang, []byte(src), Options{}).Decls {
		if d.Kind != KeyKind {
			t.Fatalf("kind %q, want key", d.Kind)
		}
		if _, dup := out[d.QualifiedName]; dup {
			t.Fatalf("%s listed twice", d.QualifiedName)
		}
		out[d.QualifiedName] = d
	}
	return out
}

func TestKeyPaths(t *testing.T) {
	cases := []struct {
		lang Language
		src  string
		want []string // qualified names that must be present
		line map[string][2]int
	}{
		{YAML, "service:\n  retries: 3\n  \"a.b\":\n    c: 1\njobs:\n  build:\n    steps:\n      - run: make\n      - run: test\n",
			[]string{"service", "service.retries", `service."a.b"`, `service."a.b".c`, "jobs.build.steps", "jobs.build.steps[0]", "jobs.build.steps[1].run"},
			map[string][2]int{"service": {1, 4}, "service.retries": {2, 2}, "jobs.build.steps[1]": {9, 9}, "jobs.build.steps[0]": {8, 8}}},
		{YAML, "kind: A\n---\nkind: B\nspec:\n  replicas: 2\n",
			[]string{"[0]", "[0].kind", "[1].kind", "[1].spec.replicas"}, map[string][2]int{"[1].spec.replicas": {5, 5}}},
		{JSON, "{\n  // comment\n  \"name\": \"x\",\n  \"scripts\": {\"build\": \"go build\", \"a.b\": [1, 2,],},\n}\n",
			[]string{"name", "scripts", "scripts.build", `scripts."a.b"`, `scripts."a.b"[1]`}, map[string][2]int{"name": {3, 3}}},
		{TOML, "title = \"x\"\n[server]\nport = 80\nhost.name = 'a'\n\n[[products]]\nname = \"h\"\n[[products]]\nname = \"n\"\n",
			[]string{"title", "server", "server.port", "server.host.name", "products[0]", "products[0].name", "products[1].name"},
			map[string][2]int{"server": {2, 4}, "products[1].name": {9, 9}}},
	}
	for _, c := range cases {
		got := keyDecls(t, c.lang, c.src)
		for _, w := range c.want {
			if _, ok := got[w]; !ok {
				var names []string
				for n := range got {
					names = append(names, n)
				}
				t.Errorf("%s: %q missing; have %s", c.lang, w, strings.Join(names, ", "))
			}
		}
		for qn, ln := range c.line {
			if d := got[qn]; d.StartLine != ln[0] || d.EndLine != ln[1] {
				t.Errorf("%s %s: lines %d-%d, want %d-%d", c.lang, qn, d.StartLine, d.EndLine, ln[0], ln[1])
			}
		}
	}
}

// The value is compared by value: quoting, comments, layout and key order
// do not count; a changed value does.
func TestKeyHashes(t *testing.T) {
	cases := []struct {
		lang     Language
		key      string
		a, b     string
		sameDecl bool
	}{
		{YAML, "db", "db:\n  host: 'x'\n  port: 5432 # c\n", "db: {port: 5432, host: \"x\"}\n", true},
		{YAML, "db", "db:\n  host: x\n  port: 5432\n", "db:\n  host: x\n  port: \"5432\"\n", false},
		{YAML, "db", "db:\n  port: 5432\n", "db:\n  port: 5433\n", false},
		{YAML, "s", "s: \"\\u2728\"\n", "s: \"✨\"\n", true},
		{YAML, "b", "base: &b {x: 1}\nb: *b\n", "base: &b {x: 1}\nb: {x: 1}\n", true},
		{JSON, "a", `{"a": {"x": 1, "y": [1,2]}}`, "{\n \"a\": {\n  \"y\": [1, 2],\n  \"x\": 1\n }\n}", true},
		{JSON, "a", `{"a": "\u0041"}`, `{"a": "A"}`, true},
		{JSON, "a", `{"a": [1, 2]}`, `{"a": [2, 1]}`, false},
		{TOML, "server", "[server]\nport = 80\nhost = \"a\"\n", "[server]\nhost = 'a' # comment\nport = 80\n", true},
		{TOML, "server.port", "[server]\nport = 80\n", "[server]\nport = 81\n", false},
		{TOML, "x", "x = 1_000\n", "x = 1000\n", true},
	}
	for i, c := range cases {
		da, db := keyDecls(t, c.lang, c.a)[c.key], keyDecls(t, c.lang, c.b)[c.key]
		if da.DeclHash == "" || db.DeclHash == "" {
			t.Errorf("case %d: %s not found", i, c.key)
			continue
		}
		if (da.DeclHash == db.DeclHash) != c.sameDecl {
			t.Errorf("case %d (%s %s): same hash = %v, want %v", i, c.lang, c.key, da.DeclHash == db.DeclHash, c.sameDecl)
		}
	}
}

// A value of eight tokens or more gets a body hash, so a renamed key with
// the same value is found; a short one does not.
func TestKeyBodyHash(t *testing.T) {
	long := keyDecls(t, YAML, "retry:\n  attempts: 3\n  backoff: 2s\n")["retry"]
	if long.BodyHash == "" || long.BodyTokens < MinBodyTokens {
		t.Fatalf("retry: body hash %q tokens %d", long.BodyHash, long.BodyTokens)
	}
	renamed := keyDecls(t, YAML, "retries:\n  backoff: 2s\n  attempts: 3\n")["retries"]
	if renamed.BodyHash != long.BodyHash || renamed.DeclHash != long.DeclHash {
		t.Fatal("same value under another name must keep both hashes")
	}
	if short := keyDecls(t, YAML, "port: 80\n")["port"]; short.BodyHash != "" {
		t.Fatal("a one-token value must not get a body hash")
	}
}

// Broken input never fails: what parsed before the break is listed.
func TestKeysBrokenInput(t *testing.T) {
	for _, c := range []struct {
		lang Language
		src  string
		want string
	}{
		{JSON, `{"a": 1, "b": `, "a"},
		{YAML, "a: 1\nb: [unclosed\n", ""},
		{TOML, "a = 1\n[broken\n", "a"},
	} {
		got := keyDecls(t, c.lang, c.src)
		if c.want != "" {
			if _, ok := got[c.want]; !ok {
				t.Errorf("%s: %q missing from broken input", c.lang, c.want)
			}
		}
	}
	// Aliases are bounded: a "billion laughs" file parses quickly into finite tokens.
	var b strings.Builder
	b.WriteString("a: &a [x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		b.WriteString(string(rune('a'+i)) + ": &" + string(rune('a'+i)) + " [*" + string(rune('a'+i-1)) + ", *" + string(rune('a'+i-1)) + "]\n")
	}
	keyDecls(t, YAML, b.String())
}

func FuzzKeys(f *testing.F) {
	f.Add("a:\n  b: [1, {c: d}]\n---\nx: *y\n", `{"a": [1, {"b": null}]}`, "[a]\nb = 1\n[[c]]\nd = {e = 'f'}\n")
	f.Fuzz(func(t *testing.T, y, j, tm string) {
		for _, c := range []struct {
			lang Language
			src  string
		}{{YAML, y}, {JSON, j}, {TOML, tm}} {
			tab := Parse(c.lang, []byte(c.src), Options{})
			for _, d := range tab.Decls {
				if d.StartByte < 0 || d.EndByte > len(c.src) || d.StartByte > d.EndByte {
					t.Fatalf("%s: span %d-%d outside %d bytes", c.lang, d.StartByte, d.EndByte, len(c.src))
				}
				if d.StartLine < 1 || d.EndLine < d.StartLine {
					t.Fatalf("%s: lines %d-%d", c.lang, d.StartLine, d.EndLine)
				}
			}
		}
	})
}
