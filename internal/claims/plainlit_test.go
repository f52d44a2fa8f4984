package claims

import (
	"reflect"
	"testing"
)

// samePrepared compares what two compiles of one leg hand the scanner.
func samePrepared(t *testing.T, src, flags string) {
	t.Helper()
	lit, ok := plainLiteral(src)
	if !ok || flags != "" {
		return
	}
	fast := compilePlain(src, lit)
	full, warns, msg := compileFull(src, flags)
	if msg != "" || len(warns) > 0 {
		t.Fatalf("/%s/ read as the plain literal %q, but the full path says %q %q", src, lit, msg, warns)
	}
	if fast.GoSyntax() != full.GoSyntax() || !reflect.DeepEqual(fast.lits, full.lits) || fast.fold != full.fold || fast.pure != full.pure || fast.Source != full.Source || fast.Flags != full.Flags {
		t.Fatalf("/%s/: plain %q lits %q pure %q; full %q lits %q pure %q fold %v",
			src, fast.GoSyntax(), fast.lits, fast.pure, full.GoSyntax(), full.lits, full.pure, full.fold)
	}
}

func TestPlainLiteralIsTheFullPath(t *testing.T) {
	plain := map[string]string{
		`export function pay\(`:      "export function pay(",
		`path: "a\/b"`:               `path: "a/b"`,
		`return helper\(x\) \+ 3;`:   "return helper(x) + 3;",
		`console\.log\(`:             "console.log(",
		`a\\b`:                       `a\b`,
		`\ x`:                        " x",
		"x":                          "x",
		`#~-,:=<>@!%&;_'"` + "`":     `#~-,:=<>@!%&;_'"` + "`",
		`\*\?\[\]\{\}\|\^\$\.\+\(\)`: `*?[]{}|^$.+()`,
	}
	for src, want := range plain {
		got, ok := plainLiteral(src)
		if !ok || got != want {
			t.Errorf("plainLiteral(%q) = %q, %v; want %q", src, got, ok, want)
		}
		samePrepared(t, src, "")
	}
	// Everything else takes the full path, which words the refusals.
	for _, src := range []string{"", `a.b`, `a*`, `[ab]`, `(a)`, `a|b`, `^a`, `a$`, `a{2}`, `a}`, `a]`, `a?`, `a+`,
		`\d`, `\s`, `\1`, `\0`, `\x41`, `a\`, "tab\there", "é", "a\x7f"} {
		if lit, ok := plainLiteral(src); ok {
			t.Errorf("plainLiteral(%q) = %q: not a plain literal", src, lit)
		}
	}
	// A flag always takes the full path (its folding is JavaScript's).
	re, _, msg := CompileERE(`export function pay\(`, "i")
	if msg != "" || re.pure != "" || !re.fold {
		t.Errorf("/…/i: pure %q fold %v msg %q — the i flag must fold", re.pure, re.fold, msg)
	}
}
