package main

import (
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/devcontext"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// What an answer's entries show of the co-changed declarations. A file
// entry shows every declaration in it; a symbol or test entry shows its
// own declaration and every declaration inside its text (a class's
// members, a Go type's fields): the text is there, as it is in a whole
// file; an outline entry shows its declaration's signature line only; a
// skeleton entry (a seed given by its signature and those of the
// declarations inside it) shows the signature lines of its declaration and
// of each declaration inside it whose outline is one of its lines — never
// in full.

// span is a declaration's lines in the parent's tree.
type span struct{ start, end int }

// spans looks up the lines of the symbol and test entries of an answer,
// by path and qualified name, in the snapshot the answer was compiled over.
type spans struct {
	snap   *workspace.Snapshot
	byPath map[string]map[string]span
}

func newSpans(snap *workspace.Snapshot) *spans {
	return &spans{snap: snap, byPath: map[string]map[string]span{}}
}

func (s *spans) of(path, qname string) (span, bool) {
	m, ok := s.byPath[path]
	if !ok {
		m = map[string]span{}
		ds, _ := s.snap.FileDecls(path)
		for _, d := range ds {
			if _, dup := m[d.QualifiedName]; !dup {
				m[d.QualifiedName] = span{d.StartLine, d.EndLine}
			}
		}
		s.byPath[path] = m
	}
	sp, ok := m[qname]
	return sp, ok
}

// covers reports whether entry e shows declaration d, and whether it shows
// it in full (not only its signature line).
func (s *spans) covers(e devcontext.Entry, d decl) (shown, full bool) {
	if e.Provenance.Path != d.path {
		return false, false
	}
	switch e.Kind {
	case devcontext.KindFile:
		return true, true
	case devcontext.KindOutline:
		return e.Title == d.qname, false
	case devcontext.KindSkeleton:
		if e.Title == d.qname {
			return true, false
		}
		if !skeletonNames(e.Facts[devcontext.FactSkeleton], d.outline) {
			return false, false
		}
		if strings.HasPrefix(e.URI, devcontext.FileURI("")) { // a file's skeleton: its declarations' lines
			return true, false
		}
		if sp, ok := s.of(e.Provenance.Path, e.Title); ok && sp.start <= d.start && d.end <= sp.end {
			return true, false
		}
	case devcontext.KindSymbol, devcontext.KindTest:
		if e.Title == d.qname {
			return true, true
		}
		if sp, ok := s.of(e.Provenance.Path, e.Title); ok && sp.start <= d.start && d.end <= sp.end {
			return true, true
		}
	}
	return false, false
}

// skeletonNames reports whether a skeleton's text holds outline as one of
// the lines below its first (the seed's own signature, or a file's path):
// the skeleton shows a declaration by its outline, one line each, indented.
func skeletonNames(skeleton, outline string) bool {
	if outline == "" {
		return false
	}
	_, rest, _ := strings.Cut(skeleton, "\n")
	for line := range strings.SplitSeq(rest, "\n") {
		if strings.TrimLeft(line, " ") == outline {
			return true
		}
	}
	return false
}
