package symbols

import "testing"

func TestBashExtraction(t *testing.T) {
	tab := assertList(t, Bash, fixture(t, "shop.sh"), []string{
		"function greet",  // greet() { … }
		"function build",  // function build { … }
		"function deploy", // function deploy() ( … )
	})
	if d := find(t, tab, "greet"); d.StartLine != 2 || d.EndLine != 4 || d.Signature != "greet()" {
		t.Errorf("greet: %+v", d)
	}
	// Functions defined inside a function body are not indexed.
	assertList(t, Bash, "outer() {\n  inner() { :; }\n}\n", []string{"function outer"})
}

func TestBashFormattingAndComments(t *testing.T) {
	src := fixture(t, "shop.sh")
	cases := map[string]string{
		"comments":  edit(t, src, "  make all\n", "  # everything\n  make all # now\n"),
		"re-indent": edit(t, src, "\n  ", "\n    "),
		"crlf":      edit(t, src, "\n", "\r\n"),
	}
	for name, variant := range cases {
		assertAllSame(t, Bash, name, src, variant)
	}
}

func TestBashChanges(t *testing.T) {
	src := fixture(t, "shop.sh")
	// "$1" expands, '$1' does not.
	assertChanged(t, Bash, "quotes", src, edit(t, src, `"hi $1"`, `'hi $1'`), false,
		[]string{"function greet"}, []string{"function build"})
	assertChanged(t, Bash, "body", src, edit(t, src, "make all", "make test"), false,
		[]string{"function build"}, []string{"function greet", "function deploy"})
}

func TestBashRename(t *testing.T) {
	src := fixture(t, "shop.sh")
	assertRenamed(t, Bash, src, edit(t, src, "greet() {", "welcome() {"), "function greet", "function welcome")
	assertRenamed(t, Bash, src, edit(t, src, "function build", "function compile"), "function build", "function compile")
}
