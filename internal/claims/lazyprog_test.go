package claims

import (
	"regexp"
	"strings"
	"testing"
)

// A leg's regex is validated when the law is read and compiled when a
// unit first needs it: the messages are RE2's compile messages, and no
// program exists until a match is asked for.
func TestRegexValidatedNowCompiledLater(t *testing.T) {
	for _, src := range []string{"x{2,1}", "((a{1000}){1000}){1000}"} {
		_, _, msg := CompileERE(src, "")
		goSrc, _, tmsg := translateERE(src, false)
		if tmsg != "" {
			t.Fatalf("%q: refused before RE2: %s", src, tmsg)
		}
		_, err := regexp.Compile(goSrc)
		if err == nil {
			t.Fatalf("%q: RE2 compiles it; pick another invalid pattern", src)
		}
		if want := invalidRegex(src, "", engineMessage(err)); msg != want {
			t.Errorf("%q: message %q, compile says %q", src, msg, want)
		}
	}
	re, _, msg := CompileERE("lazy[0-9]+compiled", "")
	if msg != "" {
		t.Fatal(msg)
	}
	if re.prog.re != nil {
		t.Fatal("compiled before any unit was matched")
	}
	if !re.MatchString("a lazy42compiled b") || re.MatchString("lazycompiled") {
		t.Fatal("the lazily compiled program matches differently")
	}
	if re.prog.re == nil || !strings.Contains(re.GoSyntax(), "lazy") {
		t.Fatalf("program %v, syntax %q", re.prog.re, re.GoSyntax())
	}
}
