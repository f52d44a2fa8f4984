package main

import (
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/contextmap"
)

// decl is one declaration of the parent's tree.
type decl struct {
	path, qname string
	start, end  int    // lines
	sig         string // its first line, what a map shows
	outline     string // the line an outline or skeleton entry shows of it
}

type declKey struct{ path, qname string }

func (d decl) key() declKey { return declKey{d.path, d.qname} }

// innermost is the declaration of ds holding line (the one starting last).
func innermost(ds []symbols.Decl, line int) int {
	best := -1
	for i, d := range ds {
		if d.StartLine <= line && line <= d.EndLine && (best < 0 || d.StartLine >= ds[best].StartLine) {
			best = i
		}
	}
	return best
}

// changedDecls are the co-changed declarations: by the parent's declaration
// tables, the innermost declaration of every changed line of every modified
// file (an insertion counts when it lands inside a declaration), minus the
// seed and the declarations enclosing it.
func changedDecls(snap *workspace.Snapshot, c commit) []decl {
	var seed *symbols.Decl
	if ds, _ := snap.FileDecls(c.file); len(ds) > 0 {
		if i := innermost(ds, c.line); i >= 0 {
			seed = &ds[i]
		}
	}
	seen := map[declKey]bool{}
	var out []decl
	for p, hs := range c.hunks {
		if !codeLanguage(p) {
			continue
		}
		ds, src := snap.FileDecls(p)
		for _, h := range hs {
			lines := []int{}
			if h.count == 0 {
				lines = append(lines, h.start) // must also hold h.start+1: checked below
			}
			for l := h.start; l < h.start+h.count; l++ {
				lines = append(lines, l)
			}
			for _, l := range lines {
				i := innermost(ds, l)
				if i < 0 || h.count == 0 && ds[i].EndLine <= l {
					continue
				}
				d := ds[i]
				if p == c.file && seed != nil && d.StartByte <= seed.StartByte && seed.EndByte <= d.EndByte {
					continue
				}
				k := declKey{p, d.QualifiedName}
				if seen[k] {
					continue
				}
				seen[k] = true
				out = append(out, decl{path: p, qname: d.QualifiedName, start: d.StartLine, end: d.EndLine, sig: firstLine(src, d.StartByte), outline: contextmap.OutlineOf(&d, src)})
			}
		}
	}
	return out
}

func firstLine(src []byte, at int) string {
	end := at
	for end < len(src) && src[end] != '\n' {
		end++
	}
	return string(src[at:end])
}
