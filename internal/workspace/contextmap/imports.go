package contextmap

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// Import scope (JS/TS and Python): the names a file imports from another
// file of the workspace. A name the file imports resolves there and
// nowhere else — exactly, in any directory, however many other files
// declare it — so a type or function imported from ../types/hooks.ts is a
// uses_type or calls edge, not a name dropped as ambiguous or looked for
// only in the caller's directory. Lexical, like the rest of the search:
// import statements are read with patterns, not type-checked.

// cxImported is where an imported name comes from: the file and the name
// it has there ("" for a module imported whole).
type cxImported struct{ path, name string }

var (
	jsImport = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?s)\bimport\s+(?:type\s+)?([\w$]+\s*,\s*)?(\{[^}]*\}|\*\s*as\s+[\w$]+|[\w$]+)?\s*(?:from\s+)?['"]([^'"\n]+)['"]`)
	})
	pyFrom = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]+)`)
	})
	pyImport = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^[ \t]*import[ \t]+([\w.]+)(?:[ \t]+as[ \t]+(\w+))?[ \t]*$`)
	})
)

// cxImportStmt is one import statement as written: the module, and the
// names it binds (name there → local name; name "" binds the module whole).
type cxImportStmt struct {
	module string
	names  [][2]string
}

// scanImports reads a file's import statements (JS/TS, Python) with
// patterns. Pure: bytes in, statements out.
func scanImports(family string, src []byte) []cxImportStmt {
	var out []cxImportStmt
	switch family {
	case familyJS:
		for _, m := range jsImport().FindAllSubmatch(src, -1) {
			st := cxImportStmt{module: string(m[3])}
			if d := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(string(m[1])), ",")); d != "" {
				st.names = append(st.names, [2]string{d, d})
			}
			clause := strings.TrimSpace(string(m[2]))
			switch {
			case strings.HasPrefix(clause, "{"):
				st.names = append(st.names, importList(strings.Trim(clause, "{}"))...)
			case strings.HasPrefix(clause, "*"):
				if f := strings.Fields(clause); len(f) > 0 {
					st.names = append(st.names, [2]string{"", f[len(f)-1]})
				}
			case clause != "":
				st.names = append(st.names, [2]string{clause, clause}) // a default import: the declaration of that name
			}
			out = append(out, st)
		}
	case familyPython:
		for _, m := range pyFrom().FindAllSubmatch(src, -1) {
			out = append(out, cxImportStmt{module: string(m[1]), names: importList(strings.Trim(strings.TrimSpace(string(m[2])), "()"))})
		}
		for _, m := range pyImport().FindAllSubmatch(src, -1) {
			local := string(m[2])
			if local == "" {
				local = string(m[1])
			}
			out = append(out, cxImportStmt{module: string(m[1]), names: [][2]string{{"", local}}})
		}
	}
	return out
}

// imports is pf's import scope: local name → origin (memoised per file).
func (w *worldBuilder) imports(pf *cxParsed) map[string]cxImported {
	if pf.imports != nil {
		return pf.imports
	}
	pf.imports = map[string]cxImported{}
	var src []byte
	if pf.family == familyJS || pf.family == familyPython { // the only families scanImports reads
		src = []byte(pf.c.text)
	}
	for _, st := range scanImports(pf.family, src) {
		target := ""
		if pf.family == familyJS {
			target = w.jsModule(pf.dir, st.module)
		} else {
			target = w.pyModule(pf, st.module)
		}
		for _, nl := range st.names {
			switch {
			case target != "":
				pf.imports[nl[1]] = cxImported{target, nl[0]}
			case pf.family == familyPython && strings.Trim(st.module, ".") == "" && nl[0] != "":
				// from . import utils: each name is a module of the package.
				if t := w.pyModule(pf, st.module+nl[0]); t != "" {
					pf.imports[nl[1]] = cxImported{t, ""}
				}
			}
		}
	}
	return pf.imports
}

// Language families (workspace.LanguageFamily) with an import scope.
const (
	familyJS     = "js"
	familyPython = "python"
)

// importList reads "A, B as C, type D" as (name, local) pairs.
func importList(list string) [][2]string {
	var out [][2]string
	for _, it := range strings.Split(list, ",") {
		if name, local := importAlias(it); name != "" && name != "*" {
			out = append(out, [2]string{name, local})
		}
	}
	return out
}

// importAlias reads one item of an import list: "A", "A as B", "type A".
func importAlias(it string) (name, local string) {
	f := strings.Fields(it)
	if len(f) > 0 && f[0] == "type" && len(f) > 1 {
		f = f[1:]
	}
	switch {
	case len(f) == 1:
		return f[0], f[0]
	case len(f) == 3 && f[1] == "as":
		return f[0], f[2]
	}
	return "", ""
}

// jsModule resolves a relative module specifier to a workspace file.
func (w *worldBuilder) jsModule(dir, spec string) string {
	if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
		return ""
	}
	p := path.Join(dir, spec)
	stem := p
	for _, e := range jsExts {
		if s, ok := strings.CutSuffix(p, e); ok {
			stem = s
			break
		}
	}
	for _, c := range []string{p, stem + ".ts", stem + ".tsx", stem + ".d.ts", stem + ".js", stem + ".mjs", stem + ".jsx",
		stem + ".mts", stem + ".cjs", path.Join(p, "index.ts"), path.Join(p, "index.js")} {
		if f, ok := w.b.file(c); ok && f.code {
			return c
		}
	}
	return ""
}

// pyModule resolves a Python module name (relative with leading dots, or
// absolute from the root, src/ or an ancestor of the importing file) to a
// workspace file: the module's .py, or its package's __init__.py.
func (w *worldBuilder) pyModule(pf *cxParsed, mod string) string {
	var bases []string
	rest := strings.TrimLeft(mod, ".")
	if dots := len(mod) - len(rest); dots > 0 {
		base := pf.dir
		for i := 1; i < dots; i++ {
			base = path.Dir(base)
		}
		bases = []string{base}
	} else {
		bases = []string{".", "src", "lib"}
		for d := pf.dir; d != "." && d != "/" && d != ""; d = path.Dir(d) {
			bases = append(bases, path.Dir(d))
		}
	}
	if rest == "" {
		return ""
	}
	rel := strings.ReplaceAll(rest, ".", "/")
	for _, b := range bases {
		for _, c := range []string{path.Join(b, rel+".py"), path.Join(b, rel, "__init__.py"), path.Join(b, rel+".pyi")} {
			if f, ok := w.b.file(c); ok && f.code && f.lang == symbols.Python {
				return c
			}
		}
	}
	return ""
}

// resolveImported finds the declarations a name x's file imports: the
// top-level declarations of that name in the file it comes from. nil when
// the name is not imported (or the file is not in the search's budget).
func (w *worldBuilder) resolveImported(x *cxDecl, n string) []*cxDecl {
	imp, ok := w.imports(x.f)[n]
	if !ok || imp.name == "" || imp.path == x.f.path {
		return nil
	}
	pf := w.parse(imp.path, true)
	if pf == nil {
		return nil
	}
	var out []*cxDecl
	for _, y := range pf.decls {
		if y.base == imp.name && y.d.Container == "" {
			out = append(out, y)
		}
	}
	return out
}

// importsFrom reports whether pf imports anything from the file p.
func (w *worldBuilder) importsFrom(pf *cxParsed, p string) bool {
	for _, imp := range w.imports(pf) {
		if imp.path == p {
			return true
		}
	}
	return false
}
