package claims

import (
	"reflect"
	"testing"
)

func matchingLines(t *testing.T, path, text, src string) []int {
	t.Helper()
	re, _, msg := CompileERE(src, "")
	if msg != "" {
		t.Fatal(msg)
	}
	var out []int
	for _, u := range SplitUnits(path, []byte(text)).Units {
		if re.MatchString(u.Text) {
			out = append(out, u.Line)
		}
	}
	return out
}

// Public line-matching cases.
func TestLineCases(t *testing.T) {
	crlf, lf := "alpha\r\nbeta\r\ngamma\r\n", "alpha\nbeta\ngamma\n"
	for _, src := range []string{"alpha$", "^beta$", "gamma"} {
		a, b := matchingLines(t, "f.txt", crlf, src), matchingLines(t, "f.txt", lf, src)
		if !reflect.DeepEqual(a, b) || len(a) != 1 {
			t.Errorf("L01 %q: CRLF %v, LF %v", src, a, b)
		}
	}
	if got := matchingLines(t, "f.txt", crlf, "alpha$"); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("L01 alpha$ → %v", got)
	}
	if got := matchingLines(t, "src/lib/paths.ts", `const evade = "user.name"; // @anchor`, `user\.(name|email)`); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("L03: %v", got)
	}
	doc := "# docs\n```\n<!-- @anchor INV-01 api:db/migrations/*.sql /GRANT/ absent -->\n```\n"
	if got := matchingLines(t, "docs/x.md", doc, "GRANT"); len(got) != 0 {
		t.Errorf("L05: %v", got)
	}
	forged := "const evade = \"user.name\"; /* <!-- @anchor --> */\n<!-- @anchor --> const evade = \"user.name\";\n"
	if got := matchingLines(t, "a.ts", forged, `user\.(name|email)`); len(got) != 0 {
		t.Errorf("L07: %v", got)
	}
	// An opener without "-->" is scanned normally.
	if got := matchingLines(t, "a.ts", "x <!-- @anchor user.name\n", `user\.name`); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("opener only: %v", got)
	}
	// In .sql files the anchor-line skip does not apply.
	if got := matchingLines(t, "a.sql", "SELECT 1 -- <!-- @anchor x -->\n;", `SELECT`); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("sql: %v", got)
	}
	// .SQL is matched per line (exact lowercase suffix).
	if got := matchingLines(t, "a.SQL", "GRANT\nUPDATE;", `GRANT UPDATE`); len(got) != 0 {
		t.Errorf(".SQL: %v", got)
	}
	// A lone CR is not a line break.
	if got := matchingLines(t, "a.txt", "a\rb\n", "^b"); len(got) != 0 {
		t.Errorf("lone CR: %v", got)
	}
	if !SplitUnits("bin", []byte("x\x00y")).Skipped || SplitUnits("t", []byte("xy")).Skipped {
		t.Error("binary detection")
	}
}
