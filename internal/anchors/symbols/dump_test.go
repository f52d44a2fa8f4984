package symbols

import (
	"fmt"
	"os"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// TestDump prints the syntax tree of $CLEW_DUMP_FILE as language
// $CLEW_DUMP_LANG: a development aid for writing the language tables.
func TestDump(t *testing.T) {
	path, lang := os.Getenv("CLEW_DUMP_FILE"), os.Getenv("CLEW_DUMP_LANG")
	if path == "" {
		t.Skip("set CLEW_DUMP_FILE and CLEW_DUMP_LANG")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tree := parseTree(Language(lang), src, nil)
	if tree == nil {
		t.Fatal("no tree")
	}
	defer tree.Close()
	var b strings.Builder
	var rec func(n *sitter.Node, field string, depth int)
	rec = func(n *sitter.Node, field string, depth int) {
		ind := strings.Repeat("  ", depth)
		if field != "" {
			field += ": "
		}
		txt := ""
		if n.ChildCount() == 0 {
			txt = fmt.Sprintf(" %q", n.Content(src))
		}
		named := ""
		if !n.IsNamed() {
			named = "'"
		}
		fmt.Fprintf(&b, "%s%s%s%s [%d-%d]%s\n", ind, field, named, n.Type(), n.StartByte(), n.EndByte(), txt)
		for i := 0; i < int(n.ChildCount()); i++ {
			rec(n.Child(i), n.FieldNameForChild(i), depth+1)
		}
	}
	rec(tree.RootNode(), "", 0)
	fmt.Print(b.String())
}

// TestDumpDecls prints the declaration table of $CLEW_DUMP_FILE.
func TestDumpDecls(t *testing.T) {
	path, lang := os.Getenv("CLEW_DUMP_FILE"), os.Getenv("CLEW_DUMP_LANG")
	if path == "" {
		t.Skip("set CLEW_DUMP_FILE and CLEW_DUMP_LANG")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tab := Parse(Language(lang), src, Options{KeepBodyTokens: os.Getenv("CLEW_DUMP_BODY") != ""})
	fmt.Printf("errors=%d\n", tab.SyntaxErrors)
	for _, d := range tab.Decls {
		fmt.Printf("%-11s %-40q c=%-12q L%d-%d name=%q %s %s/%d sig=%q\n", d.Kind, d.QualifiedName, d.Container, d.StartLine, d.EndLine,
			src[d.NameStartByte:d.NameEndByte], d.DeclHash, d.BodyHash, d.BodyTokens, d.Signature)
		if d.Body.Len() != 0 {
			fmt.Printf("    body=%q\n", d.Body.Strings())
		}
	}
	if os.Getenv("CLEW_DUMP_TOKENS") != "" {
		fmt.Printf("%q\n", Tokens(Language(lang), src))
	}
}

// TestDumpTokenDiff shows where the tokens of $CLEW_DIFF_A and $CLEW_DIFF_B
// ($CLEW_DUMP_LANG) part: the aid for a formatter run that changed a hash.
func TestDumpTokenDiff(t *testing.T) {
	pa, pb := os.Getenv("CLEW_DIFF_A"), os.Getenv("CLEW_DIFF_B")
	if pa == "" || pb == "" {
		t.Skip("set CLEW_DIFF_A, CLEW_DIFF_B and CLEW_DUMP_LANG")
	}
	a, errA := os.ReadFile(pa)
	b, errB := os.ReadFile(pb)
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	lang := Language(os.Getenv("CLEW_DUMP_LANG"))
	ta, tb := Tokens(lang, a), Tokens(lang, b)
	i := 0
	for i < len(ta) && i < len(tb) && ta[i] == tb[i] {
		i++
	}
	if i < len(ta) || i < len(tb) {
		lo := max(0, i-5)
		t.Errorf("tokens part at %d: %q vs %q", i, ta[lo:min(len(ta), i+5)], tb[lo:min(len(tb), i+5)])
	}
}
