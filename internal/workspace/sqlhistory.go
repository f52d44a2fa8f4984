package workspace

import (
	"crypto/sha256"
	"fmt"
	"path"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// SQL files are read as append-only histories (docs/contracts.md): the .sql
// files of one folder, in file-name order as migration tools apply them,
// are replayed together, so the last CREATE or ALTER of an object across
// the folder is where its anchors bind and what their hashes cover.

// isSQL reports whether p is read with the SQL grammar.
func (s *Snapshot) isSQL(p string) bool {
	lang, ok := s.Language(p)
	return ok && lang == symbols.SQL
}

// sqlFolder lists the SQL files of directory dir, in file-name order.
func (s *Snapshot) sqlFolder(dir string) []string {
	var out []string
	for _, p := range s.Files() { // sorted
		if path.Dir(p) == dir && s.isSQL(p) {
			out = append(out, p)
		}
	}
	return out
}

// sameSQLHistory says whether two paths are files of one SQL history: a
// declaration found in either is found "in the hinted file".
func (s *Snapshot) sameSQLHistory(hint, p string) bool {
	return path.Dir(hint) == path.Dir(p) && s.isSQL(hint) && s.isSQL(p)
}

// replaySQL parses and replays the files of one history; read returns a
// file's content (false: not readable, left out). It returns the paths it
// read and their replayed tables, in order.
func (s *Snapshot) replaySQL(files []string, read func(string) ([]byte, bool)) ([]string, []symbols.Table) {
	var paths []string
	var tabs []symbols.Table
	for _, p := range files {
		b, ok := read(p)
		if !ok {
			continue
		}
		paths = append(paths, p)
		tabs = append(tabs, s.tables.parse(symbols.SQL, b))
	}
	return paths, symbols.ReplaySQL(tabs)
}

// sqlDecls returns the declarations of SQL file rel as its folder's
// history leaves them (what the check indexes for it).
func (s *Snapshot) sqlDecls(rel string) []symbols.Decl {
	paths, tabs := s.replaySQL(s.sqlFolder(path.Dir(rel)), s.Text)
	for i, p := range paths {
		if p == rel {
			return tabs[i].Decls
		}
	}
	return nil
}

// sqlCurrent finds what a declaration of SQL file rel is at the end of its
// history: the replayed declaration of the same kind and name (case
// insensitive) and its file. ok is false when a later statement dropped or
// renamed it.
func (s *Snapshot) sqlCurrent(rel string, d symbols.Decl) (symbols.Decl, string, bool) {
	paths, tabs := s.replaySQL(s.sqlFolder(path.Dir(rel)), s.Text)
	for i, t := range tabs {
		for _, o := range t.Decls {
			if o.Kind == d.Kind && strings.EqualFold(o.QualifiedName, d.QualifiedName) {
				return o, paths[i], true
			}
		}
	}
	return symbols.Decl{}, "", false
}

// sqlDropNote says which statement of the anchor's history dropped the
// object it names ("" when none did): the lost verdict's explanation.
func (s *Snapshot) sqlDropNote(a anchors.Anchor) string {
	if a.Form != anchors.FormSymbol || !s.isSQL(a.Path) {
		return ""
	}
	table := "" // a column goes with its table
	if a.Kind == "column" {
		table = anchors.ContainerOf(a.QualifiedName)
	}
	note := ""
	for _, p := range s.sqlFolder(path.Dir(a.Path)) {
		b, ok := s.Text(p)
		if !ok {
			continue
		}
		for _, c := range s.tables.parse(symbols.SQL, b).Changes {
			if c.Kind == a.Kind && strings.EqualFold(c.QualifiedName, a.QualifiedName) ||
				table != "" && c.Kind == "table" && strings.EqualFold(c.QualifiedName, table) {
				switch c.Op {
				case symbols.ChangeDrop:
					note = fmt.Sprintf("dropped by %s:%d", p, c.StartLine)
				case symbols.ChangeRename:
					note = fmt.Sprintf("renamed to %s by %s:%d", c.NewName, p, c.StartLine)
				}
			}
		}
	}
	return note
}

// histFile is one file of a replayed SQL history.
type histFile struct {
	path  string
	sum   [sha256.Size]byte
	decls []symbols.Decl
}

// sqlHistory reads the SQL files of folder dir within the check's budget
// (a file it leaves unread is left out of the history) and replays them.
func (r *checkRun) sqlHistory(dir string) []histFile {
	var files []histFile
	var tabs []symbols.Table
	for _, p := range r.s.sqlFolder(dir) {
		if st, ok := r.status[p]; ok && st != anchors.FileOK {
			continue
		}
		if _, ok := r.status[p]; !ok && !r.sp.allow() {
			r.status[p] = anchors.FileUnread
			continue
		}
		b, st, sum := r.s.readSum(p)
		if _, ok := r.status[p]; !ok {
			r.sp.spend(len(b))
		}
		r.status[p] = st
		if st != anchors.FileOK {
			continue
		}
		r.sums[p] = sum
		files = append(files, histFile{path: p, sum: sum})
		tabs = append(tabs, r.s.tables.parseSum(symbols.SQL, sum, b))
	}
	for i, t := range symbols.ReplaySQL(tabs) {
		files[i].decls = t.Decls
	}
	return files
}
