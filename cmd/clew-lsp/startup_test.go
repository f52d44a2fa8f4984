package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoRegexpCompiledAtStartup keeps every process's start free of regexp
// compiles: a package-level variable initialised by regexp.MustCompile (or
// Compile) runs at every start of the CLI, whether the command needs it or
// not; such a regexp is compiled on first use (sync.OnceValue) instead.
// The same for a tree-sitter grammar (a GetLanguage call: a cgo call and
// its tables), made on the first parse.
func TestNoRegexpCompiledAtStartup(t *testing.T) {
	// The CLI's own code: this command and the internal packages it links.
	fset := token.NewFileSet()
	checked := 0
	walk := func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "testdata" || (name != "." && strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				for _, v := range spec.(*ast.ValueSpec).Values {
					if call := compileAtInit(v); call != nil {
						t.Errorf("%s: a package-level regexp is compiled, or a tree-sitter grammar made, at start-up; do it on first use (sync.OnceValue)", fset.Position(call.Pos()))
					}
				}
			}
		}
		return nil
	}
	for _, dir := range []string{".", filepath.Join("..", "..", "internal")} {
		if err := filepath.WalkDir(dir, walk); err != nil {
			t.Fatal(err)
		}
	}
	if checked < 100 {
		t.Fatalf("only %d Go files checked: the walk did not reach the module", checked)
	}
}

// compileAtInit is a regexp.Compile or MustCompile call, or a grammar's
// GetLanguage call, in e that runs when e is evaluated (not inside a function literal, which runs later).
func compileAtInit(e ast.Expr) *ast.CallExpr {
	var found *ast.CallExpr
	ast.Inspect(e, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				pkg, ok := sel.X.(*ast.Ident)
				regex := ok && pkg.Name == "regexp" && (sel.Sel.Name == "MustCompile" || sel.Sel.Name == "Compile")
				grammar := ok && sel.Sel.Name == "GetLanguage" // a tree-sitter grammar: a cgo call and its tables
				if regex || grammar {
					found = n
					return false
				}
			}
		}
		return true
	})
	return found
}
