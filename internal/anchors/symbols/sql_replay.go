package symbols

import (
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors/hash"
)

// ReplaySQL applies an append-only SQL history: the tables of one file, or
// of a migrations folder's files in migration order (by file name). What
// each object is at the end of the history is what its anchors bind to:
//
//   - the last CREATE of an object wins (an earlier one, in any file, drops
//     out with its columns);
//   - an ALTER after it changes it: the object's decl hash folds in the
//     statement's tokens, and the object is found at that statement, the
//     newest one that defines it;
//   - RENAME gives it its new name (columns follow a renamed table) and
//     keeps its hash, as a rename of code does;
//   - DROP removes it (a dropped table's columns too).
//
// The result has one table per input, in the same order, with Decls
// replaced; Changes and everything else are kept.
func ReplaySQL(files []Table) []Table {
	h := sqlHistory{live: map[string]*sqlEntry{}}
	for fi, t := range files {
		for _, ev := range sqlEvents(t) {
			h.apply(fi, ev)
		}
	}
	out := make([]Table, len(files))
	for i, t := range files {
		out[i] = t
		out[i].Decls = nil
	}
	for _, e := range h.order {
		if e.gone {
			continue
		}
		d := e.d
		if len(e.alters) > 0 {
			d.DeclHash = hash.Sum(append([]string{d.DeclHash}, e.alters...))
		}
		out[e.file].Decls = append(out[e.file].Decls, d)
	}
	for i := range out {
		sortDecls(out[i].Decls)
	}
	return out
}

// sqlEntry is one object of the history as it stands: where it is now
// defined (file index and the statement's spans) and the ALTERs since its
// CREATE.
type sqlEntry struct {
	file   int
	d      Decl
	alters []string
	gone   bool
}

type sqlHistory struct {
	order []*sqlEntry          // creation order, gone ones included
	live  map[string]*sqlEntry // by sqlKey
}

func sqlKey(kind, qn string) string { return kind + "\x00" + strings.ToLower(qn) }

func (h *sqlHistory) apply(fi int, ev sqlEvent) {
	k := sqlKey(ev.d.Kind, ev.d.QualifiedName)
	if ev.op == "" { // a CREATE, or a column it (or ADD COLUMN) declares
		h.remove(k)
		if ev.d.Kind == "table" {
			h.dropColumns(ev.d.QualifiedName)
		}
		e := &sqlEntry{file: fi, d: ev.d}
		h.live[k] = e
		h.order = append(h.order, e)
		return
	}
	e := h.live[k]
	if e == nil {
		return // a change of an object this history never created
	}
	switch ev.op {
	case ChangeAlter:
		e.alters = append(e.alters, ev.d.DeclHash)
		e.moveTo(fi, ev.d)
	case ChangeDrop:
		h.remove(k)
		if e.d.Kind == "table" {
			h.dropColumns(e.d.QualifiedName)
		}
	case ChangeRename:
		delete(h.live, k)
		from := e.d.QualifiedName
		e.d.Name = ev.newName
		e.d.QualifiedName = ev.newName
		if e.d.Container != "" {
			e.d.QualifiedName = e.d.Container + "." + ev.newName
		}
		e.moveTo(fi, ev.d)
		nk := sqlKey(e.d.Kind, e.d.QualifiedName)
		h.remove(nk)
		h.live[nk] = e
		if e.d.Kind == "table" {
			h.renameColumns(from, e.d.QualifiedName)
		}
	}
}

func (h *sqlHistory) remove(k string) {
	if e := h.live[k]; e != nil {
		e.gone = true
		delete(h.live, k)
	}
}

// columnsOf lists the live keys of a table's columns.
func (h *sqlHistory) columnsOf(table string) []string {
	prefix := strings.ToLower(table) + "."
	var out []string
	for k, e := range h.live {
		if e.d.Kind == "column" && strings.HasPrefix(strings.ToLower(e.d.QualifiedName), prefix) {
			out = append(out, k)
		}
	}
	return out
}

// dropColumns removes a table's columns (its re-CREATE or its DROP).
func (h *sqlHistory) dropColumns(table string) {
	for _, k := range h.columnsOf(table) {
		h.remove(k)
	}
}

// renameColumns moves a renamed table's columns under its new name.
func (h *sqlHistory) renameColumns(from, to string) {
	for _, k := range h.columnsOf(from) {
		e := h.live[k]
		delete(h.live, k)
		e.d.Container = to
		e.d.QualifiedName = to + "." + e.d.Name
		h.live[sqlKey(e.d.Kind, e.d.QualifiedName)] = e
	}
}

// moveTo makes the statement at (file fi, at's spans) the object's newest
// definition.
func (e *sqlEntry) moveTo(fi int, at Decl) {
	e.file = fi
	e.d.StartLine, e.d.EndLine = at.StartLine, at.EndLine
	e.d.StartByte, e.d.EndByte = at.StartByte, at.EndByte
	e.d.NameStartByte, e.d.NameEndByte = at.NameStartByte, at.NameEndByte
	e.d.Signature = at.Signature
}

// sqlEvent is one CREATE (op "") or change of a file, in source order.
type sqlEvent struct {
	op      string
	d       Decl
	newName string
}

// sqlEvents merges a table's declarations and changes by position; a
// statement's CREATE comes before its columns, a change after the
// declarations that start where it starts.
func sqlEvents(t Table) []sqlEvent {
	evs := make([]sqlEvent, 0, len(t.Decls)+len(t.Changes))
	i, j := 0, 0
	for i < len(t.Decls) || j < len(t.Changes) {
		if j >= len(t.Changes) || (i < len(t.Decls) && t.Decls[i].StartByte <= t.Changes[j].StartByte) {
			evs = append(evs, sqlEvent{d: t.Decls[i]})
			i++
			continue
		}
		c := t.Changes[j]
		evs = append(evs, sqlEvent{op: c.Op, d: c.Decl, newName: c.NewName})
		j++
	}
	return evs
}
