package symbols

import (
	"testing"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
)

// tsReadsIdent reports whether tree-sitter parses src without a syntax
// error and with want as one identifier.
func tsReadsIdent(t *testing.T, src, want string) bool {
	tree := parseTree(Go, []byte(src), nil)
	if tree == nil {
		t.Fatalf("no tree for %q", src)
	}
	defer tree.Close()
	var find func(n *sitter.Node) bool
	find = func(n *sitter.Node) bool {
		if n.Type() == "identifier" && src[n.StartByte():n.EndByte()] == want {
			return true
		}
		for i := 0; i < int(n.ChildCount()); i++ {
			if find(n.Child(i)) {
				return true
			}
		}
		return false
	}
	return !tree.RootNode().HasError() && find(tree.RootNode())
}

// Every rune the lexers take into an identifier is one there for
// tree-sitter too, first or later in it.
func TestGoUniIdentAgreesWithTreeSitter(t *testing.T) {
	starts, conts := 0, 0
	for r := rune(utf8.RuneSelf); r < goUniLimit+0x100; r++ {
		s := string(r)
		if goUniIdentRune([]byte(s+"x"), 0, false) > 0 {
			starts++
			if r >= goUniLimit || !tsReadsIdent(t, "package p\nvar "+s+"x int\n", s+"x") {
				t.Errorf("%U starts an identifier for the lexers, not for tree-sitter", r)
			}
		}
		if goUniIdentRune([]byte(s), 0, true) > 0 {
			conts++
			if r >= goUniLimit || !tsReadsIdent(t, "package p\nvar x"+s+" int\n", "x"+s) {
				t.Errorf("%U continues an identifier for the lexers, not for tree-sitter", r)
			}
		}
	}
	// Latin, Greek and Cyrillic letters and the Arabic-Indic digits.
	if starts < 1500 || conts < starts+50 {
		t.Errorf("%d runes start an identifier, %d continue one", starts, conts)
	}
	for _, s := range []string{"θ", "µ", "ŝ", "λ", "Φ", "ж"} {
		if goUniIdentRune([]byte(s), 0, false) != len(s) {
			t.Errorf("%s does not start an identifier", s)
		}
	}
	for _, s := range []string{"☹", "²", "\u0301", "\u00a0", "\xff", "\xce"} {
		if goUniIdentRune([]byte(s), 0, true) != 0 {
			t.Errorf("%q is read as part of an identifier", s)
		}
	}
}

func TestGoIdentEnd(t *testing.T) {
	for _, c := range []struct {
		src  string
		want int
	}{
		{"abc def", 3},
		{"xθ := 1", len("xθ")},
		{"rθ2ŝ(", len("rθ2ŝ")},
		{"a☹", 1},
		{"a\u0301", 1},
		{"ab\xce", 2},
	} {
		if got := goIdentEnd([]byte(c.src), 1); got != c.want {
			t.Errorf("goIdentEnd(%q) = %d, want %d", c.src, got, c.want)
		}
	}
}
