package symbols

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// The flattened tree must be the tree go-tree-sitter shows: same nodes in
// the same order, and every field lookup answering as ts_node_child_by_field_name.
func TestFlatTreeMatchesTreeSitter(t *testing.T) {
	paths, _ := filepath.Glob("testdata/*")
	checked := map[Language]bool{}
	for _, p := range paths {
		lang, ok := LanguageForPath(strings.TrimSuffix(p, ".txt"))
		if !ok {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		parser := sitter.NewParser()
		parser.SetLanguage(grammar(lang))
		tree, err := parser.ParseCtx(context.Background(), nil, src)
		if err != nil {
			t.Fatal(err)
		}
		st := symbolsFor(lang)
		flat := flatten(tree.RootNode(), st, len(src))
		n := compareTrees(t, p, st, tree.RootNode(), flat.root())
		if n != len(flat.nodes) {
			t.Errorf("%s: %d nodes compared, %d flattened", p, n, len(flat.nodes))
		}
		checked[lang] = true
		tree.Close()
		parser.Close()
	}
	if len(checked) < 10 {
		t.Fatalf("only %d languages in testdata", len(checked))
	}
}

// compareTrees walks both trees in step and returns the nodes compared.
func compareTrees(t *testing.T, path string, st *symbolTable, want *sitter.Node, got *tsNode) int {
	t.Helper()
	if got == nil {
		t.Fatalf("%s: missing node %s at %d", path, want.Type(), want.StartByte())
	}
	if want.Type() != got.Type() || want.StartByte() != got.StartByte() || want.EndByte() != got.EndByte() ||
		want.IsNamed() != got.IsNamed() || want.IsMissing() != got.IsMissing() ||
		int(want.NamedChildCount()) != got.NamedChildCount() {
		t.Fatalf("%s: node %s [%d,%d) flattened as %s [%d,%d)", path,
			want.Type(), want.StartByte(), want.EndByte(), got.Type(), got.StartByte(), got.EndByte())
	}
	for _, field := range st.fields[1:] {
		w, g := want.ChildByFieldName(field), got.ChildByFieldName(field)
		if (w == nil) != (g == nil) || w != nil && (w.StartByte() != g.StartByte() || w.EndByte() != g.EndByte() || w.Type() != g.Type()) {
			t.Fatalf("%s: %s at %d: field %q differs: %v / %v", path, want.Type(), want.StartByte(), field, w, g)
		}
	}
	count := 1
	c := got.firstChild()
	for i := 0; i < int(want.ChildCount()); i++ {
		if c == nil {
			t.Fatalf("%s: %s at %d has fewer children flattened", path, want.Type(), want.StartByte())
		}
		if fn := want.FieldNameForChild(i); fn != c.fieldName() {
			t.Fatalf("%s: child %d of %s at %d: field %q, flattened %q", path, i, want.Type(), want.StartByte(), fn, c.fieldName())
		}
		count += compareTrees(t, path, st, want.Child(i), c)
		c = c.nextSibling()
	}
	if c != nil {
		t.Fatalf("%s: %s at %d has more children flattened", path, want.Type(), want.StartByte())
	}
	return count
}
