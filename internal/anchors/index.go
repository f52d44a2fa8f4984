package anchors

import (
	"sort"
	"strconv"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// Ref is one declaration of one indexed file.
type Ref struct {
	Path string
	Decl *symbols.Decl
}

func (r Ref) candidate() Candidate {
	return Candidate{Path: r.Path, QualifiedName: r.Decl.QualifiedName, Kind: r.Decl.Kind, LineStart: r.Decl.StartLine}
}

// Index holds the declaration tables of the files read so far. It is built
// once per check (or kept by the server between checks) and only grows.
//
// An index may stand over read-only parts (NewIndexOver): its lookups see
// the parts' declarations first, in part order, then its own, exactly as if
// every part's files had been added to it in that order. The server keeps
// the index of the hinted files and the one of a repository-wide search
// between checks and stacks them instead of re-adding thousands of files on
// every keystroke.
type Index struct {
	parts []*Index
	// A patched index (NewIndexPatched) hides some of its parts' files and
	// orders its lookups by rank; see there.
	hide     map[string]bool
	rank     func(path string) int
	files    map[string][]symbols.Decl
	byFamily map[string][]Ref // familyIdentity: the same name within a kind family
	byBody   map[string][]Ref
	byBase   map[string][]Ref
}

// NewIndex returns an empty index.
func NewIndex() *Index { return NewIndexOver() }

// NewIndexOver returns an empty index standing over parts, which must not
// change afterwards and must not share paths.
func NewIndexOver(parts ...*Index) *Index {
	return &Index{
		parts:    parts,
		files:    map[string][]symbols.Decl{},
		byFamily: map[string][]Ref{},
		byBody:   map[string][]Ref{},
		byBase:   map[string][]Ref{},
	}
}

// NewIndexPatched returns an empty index standing over base without the
// files in drop: the caller adds the new versions of changed files, and
// files new to it, with Add. rank orders paths the way base's files were
// added (base's refs of any key must be in rank order); lookups return
// refs in rank order, a file's own in declaration order, so the patched
// index answers exactly as one built by adding every file in rank order.
// A code edit replaces one file of the thousand a check indexes: the
// server patches the previous index instead of rebuilding it.
func NewIndexPatched(base *Index, drop map[string]bool, rank func(path string) int) *Index {
	ix := NewIndexOver(base)
	ix.hide, ix.rank = drop, rank
	return ix
}

// Add indexes one file's declarations. Adding a path twice is a no-op, so the
// cheap and the repository-wide pass can share one index.
func (ix *Index) Add(path string, decls []symbols.Decl) {
	if ix.Has(path) {
		return
	}
	ix.files[path] = decls
	for i := range decls {
		d := &ix.files[path][i]
		ref := Ref{Path: path, Decl: d}
		fk := familyIdentity(path, d.Kind, d.QualifiedName)
		ix.byFamily[fk] = append(ix.byFamily[fk], ref)
		if d.BodyHash != "" {
			ix.byBody[d.BodyHash] = append(ix.byBody[d.BodyHash], ref)
		}
		b := BaseName(d.QualifiedName)
		ix.byBase[b] = append(ix.byBase[b], ref)
	}
}

// lookup concatenates one key's refs over the parts and the own table.
func (ix *Index) lookup(table func(*Index) map[string][]Ref, key string) []Ref {
	if len(ix.parts) == 0 {
		return table(ix)[key]
	}
	var out []Ref
	for _, p := range ix.parts {
		for _, r := range p.lookup(table, key) {
			if !ix.hide[r.Path] {
				out = append(out, r)
			}
		}
	}
	own := table(ix)[key]
	if ix.rank == nil || len(own) == 0 {
		return append(out, own...)
	}
	out = append(out, own...)
	sort.SliceStable(out, func(i, j int) bool { return ix.rank(out[i].Path) < ix.rank(out[j].Path) })
	return out
}

func familyTable(ix *Index) map[string][]Ref { return ix.byFamily }
func bodyTable(ix *Index) map[string][]Ref   { return ix.byBody }
func baseTable(ix *Index) map[string][]Ref   { return ix.byBase }

// Has reports whether path was indexed (read and parsed).
func (ix *Index) Has(path string) bool {
	if _, ok := ix.files[path]; ok {
		return true
	}
	if ix.hide[path] {
		return false
	}
	for _, p := range ix.parts {
		if p.Has(path) {
			return true
		}
	}
	return false
}

// Decls returns the declarations of one indexed file in source order.
func (ix *Index) Decls(path string) []symbols.Decl {
	if d, ok := ix.files[path]; ok {
		return d
	}
	if ix.hide[path] {
		return nil
	}
	for _, p := range ix.parts {
		if d := p.Decls(path); d != nil {
			return d
		}
	}
	return nil
}

// Paths lists the indexed files, sorted.
func (ix *Index) Paths() []string {
	out := make([]string, 0, len(ix.files))
	for p := range ix.files {
		out = append(out, p)
	}
	for _, part := range ix.parts {
		for _, p := range part.Paths() {
			if !ix.hide[p] {
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Named lists the declarations whose base name is name, sorted by path and
// line: what a refused confirm names ("these declarations of that name exist").
func (ix *Index) Named(name string) []Candidate {
	refs := ix.lookup(baseTable, BaseName(name))
	out := make([]Candidate, 0, len(refs))
	for _, r := range refs {
		out = append(out, r.candidate())
	}
	sortCandidates(out)
	return out
}

func sortCandidates(c []Candidate) {
	sort.Slice(c, func(i, j int) bool {
		if c[i].Path != c[j].Path {
			return c[i].Path < c[j].Path
		}
		if c[i].LineStart != c[j].LineStart {
			return c[i].LineStart < c[j].LineStart
		}
		return c[i].QualifiedName < c[j].QualifiedName
	})
}

// ContainerOf returns the qualified name's container: everything before the
// last "." that is not inside (), <> or [] (overload suffixes and generic
// receivers may hold dots).
func ContainerOf(qname string) string {
	if i := lastTopLevelDot(qname); i >= 0 {
		return qname[:i]
	}
	return ""
}

// BaseName is the last segment without its parameter suffix:
// `Mixer.blend(first:second:)` → `blend`. It is what a file must contain
// textually to hold the declaration, so it also drives prefiltering.
func BaseName(qname string) string {
	s := qname
	if i := lastTopLevelDot(s); i >= 0 {
		s = s[i+1:]
	}
	if strings.HasPrefix(s, `"`) {
		// A quoted key segment: the file holds the key itself.
		if end := closingQuote(s); end > 0 {
			if u, err := strconv.Unquote(s[:end+1]); err == nil {
				return u
			}
		}
	}
	if i := strings.IndexAny(s, "(<["); i > 0 {
		s = s[:i]
	}
	return s
}

// closingQuote is the index of the quote that ends the quoted segment
// starting at s[0], or -1.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

func lastTopLevelDot(s string) int {
	depth := 0
	quoted := quotedBytes(s)
	for i := len(s) - 1; i >= 0; i-- {
		if quoted[i] {
			continue
		}
		switch s[i] {
		case ')', '>', ']':
			depth++
		case '(', '<', '[':
			if depth > 0 {
				depth--
			}
		case '.':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// quotedBytes marks the bytes inside "…" segments of a key path, where a
// dot or a bracket is part of the key ("a.b".c).
func quotedBytes(s string) []bool {
	q := make([]bool, len(s))
	if !strings.Contains(s, `"`) {
		return q
	}
	in := false
	for i := 0; i < len(s); i++ {
		switch {
		case in && s[i] == '\\':
			q[i] = true
			if i+1 < len(s) {
				q[i+1] = true
			}
			i++
			continue
		case s[i] == '"':
			in = !in
		}
		q[i] = true
	}
	return q
}
