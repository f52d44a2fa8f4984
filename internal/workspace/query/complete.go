package query

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// CompletionKind says which part of an anchor an item completes.
type CompletionKind string

const (
	CompleteKind CompletionKind = "kind" // kind, lines or doc
	CompleteName CompletionKind = "name" // a qualified name
	CompletePath CompletionKind = "path" // a workspace path
)

// Completion is one completion item: Label replaces the bytes of Replace
// (the partial word before the cursor).
type Completion struct {
	Label    string
	Detail   string
	Kind     CompletionKind
	DeclKind string // names: the declaration's kind
	Replace  Location
	SortText string
}

// Completions is the answer to one completion request. Incomplete says the
// list was cut; typing more narrows it on the server.
type Completions struct {
	Items      []Completion
	Incomplete bool
}

// qMaxCompletions bounds one answer; the editor asks again as the user types.
const qMaxCompletions = 300

// Completion of a contract kind's names reads at most this many files (and
// bytes) the check has not read.
const (
	qMaxOnDemandFiles = 500
	qMaxOnDemandBytes = 16 << 20
)

// contractKindLanguages are the kinds only config and schema files declare,
// with their grammars (docs/contracts.md).
var contractKindLanguages = map[string][]symbols.Language{
	"key":     {symbols.YAML, symbols.JSON, symbols.TOML},
	"message": {symbols.Protobuf}, "service": {symbols.Protobuf}, "rpc": {symbols.Protobuf},
	"table": {symbols.SQL}, "view": {symbols.SQL}, "index": {symbols.SQL}, "column": {symbols.SQL},
	"resource": {symbols.Terraform}, "data": {symbols.Terraform}, "variable": {symbols.Terraform}, "output": {symbols.Terraform},
}

var qCodeOpenerRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<!--\s*@code\b`) })

// Complete answers completion at byte offset off of doc inside
// `<!-- @code …`: kinds first, then qualified names of that kind, then
// paths. Names come from the declarations the check already read (report,
// called only when names are wanted) plus the file the anchor already names
// after the cursor, so completion never parses the workspace — except, for
// the kinds only config and schema files declare (key, message, table…),
// those files, read on demand within a bound. Inside
// `<!-- @anchor `: claim IDs, then repo keys (claims_complete.go).
func Complete(s *workspace.Snapshot, doc string, off int, report func() *workspace.Report) Completions {
	text, ok := s.Text(doc)
	if !ok || off < 0 || off > len(text) {
		return Completions{}
	}
	if c, ok := completeClaimLeg(s, doc, text, off); ok {
		return c
	}
	ls := off
	for ls > 0 && text[ls-1] != '\n' {
		ls--
	}
	le := off
	for le < len(text) && text[le] != '\n' {
		le++
	}
	prefix := string(text[ls:off])
	locs := qCodeOpenerRE().FindAllStringIndex(prefix, -1)
	if len(locs) == 0 {
		return Completions{}
	}
	body := prefix[locs[len(locs)-1][1]:]
	if body == "" || strings.Contains(body, "-->") || !qIsBlank(body[0]) {
		return Completions{}
	}
	words := qAnchorWords(body)
	partial := ""
	if !qIsBlank(body[len(body)-1]) && len(words) > 0 {
		partial, words = words[len(words)-1], words[:len(words)-1]
	}
	if len(words) > 0 && qIsClaimWord(words[0]) {
		words = words[1:]
	}
	replace := Location{Path: doc, StartByte: off - len(partial), EndByte: off}
	after := qAnchorWords(strings.SplitN(string(text[off:le]), "-->", 2)[0])
	if len(after) > 0 && !qIsBlank(text[min(off, len(text)-1)]) && off < le {
		after = after[1:] // the rest of the word being typed
	}

	switch {
	case len(words) == 0:
		return qCompleteKinds(partial, replace)
	case words[0] == "lines" && len(words) == 1:
		return completePaths(s, partial, replace, func(p string) bool { return !s.IsDoc(p) }, nil)
	case words[0] == "doc" && len(words) == 1:
		return completePaths(s, partial, replace, s.IsDoc, nil)
	case anchors.IsKind(words[0]) && len(words) == 1:
		var hint string
		if len(after) > 0 && s.Exists(after[0]) {
			hint = after[0]
		}
		var r *workspace.Report
		if report != nil {
			r = report()
		}
		return completeNames(s, r, words[0], partial, replace, hint)
	case anchors.IsKind(words[0]) && len(words) == 2:
		first := map[string]bool{}
		indexed := map[string]bool{}
		if report != nil {
			if r := report(); r != nil && r.DeclIndex() != nil {
				for _, p := range r.DeclIndex().Paths() {
					indexed[p] = true
				}
				for _, c := range r.DeclIndex().Named(words[1]) {
					if c.QualifiedName == words[1] && c.Kind == words[0] {
						first[c.Path] = true
					}
				}
			}
		}
		onDemand(s, words[0], func(p string) bool { return indexed[p] }, func(p string, decls []symbols.Decl) {
			for _, d := range decls {
				if d.Kind == words[0] && d.QualifiedName == words[1] {
					first[p] = true
				}
			}
		})
		return completePaths(s, partial, replace, func(p string) bool { _, ok := s.Language(p); return ok }, first)
	}
	return Completions{}
}

func qIsBlank(c byte) bool { return c == ' ' || c == '\t' }

// qAnchorWords splits an anchor's body into words the way the parser does:
// on blanks, except inside parentheses (overload suffixes hold spaces).
func qAnchorWords(body string) []string {
	var out []string
	depth, start := 0, -1
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case (c == ' ' || c == '\t' || c == '\r') && depth == 0:
			if start >= 0 {
				out = append(out, body[start:i])
				start = -1
			}
			continue
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, body[start:])
	}
	return out
}

func qIsClaimWord(w string) bool {
	return !anchors.IsKind(w) && w != "lines" && w != "doc" && strings.Contains(w, "-") && !strings.ContainsAny(w, "/.")
}

func qCompleteKinds(partial string, replace Location) Completions {
	var out Completions
	words := append(append([]string{}, anchors.Kinds...), "lines", "doc")
	for i, k := range words {
		if !strings.HasPrefix(k, partial) {
			continue
		}
		detail := "declaration kind"
		switch k {
		case "lines":
			detail = "a line range: lines <path>#L<start>-L<end>"
		case "doc":
			detail = "another doc: doc <path>"
		}
		out.Items = append(out.Items, Completion{Label: k, Detail: detail, Kind: CompleteKind, Replace: replace,
			SortText: fmt.Sprintf("%02d", i)})
	}
	return out
}

func completeNames(s *workspace.Snapshot, r *workspace.Report, kind, partial string, replace Location, hint string) Completions {
	type item struct {
		d    symbols.Decl
		path string
		rank int
	}
	var items []item
	seen := map[string]bool{}
	add := func(p string, decls []symbols.Decl, rank int) {
		for _, d := range decls {
			key := d.QualifiedName + "\x00" + p
			if d.Kind != kind || seen[key] || !qMatchesPartial(d.QualifiedName, partial) {
				continue
			}
			seen[key] = true
			items = append(items, item{d, p, rank})
		}
	}
	if hint != "" {
		decls, _ := s.FileDecls(hint)
		add(hint, decls, 0)
	}
	indexed := map[string]bool{}
	if r != nil && r.DeclIndex() != nil {
		for _, p := range r.DeclIndex().Paths() {
			indexed[p] = true
			add(p, r.DeclIndex().Decls(p), 1)
		}
	}
	cut := onDemand(s, kind, func(p string) bool { return indexed[p] || p == hint }, func(p string, decls []symbols.Decl) {
		add(p, decls, 1)
	})
	sort.SliceStable(items, func(i, j int) bool {
		if items[i].rank != items[j].rank {
			return items[i].rank < items[j].rank
		}
		if items[i].d.QualifiedName != items[j].d.QualifiedName {
			return items[i].d.QualifiedName < items[j].d.QualifiedName
		}
		return items[i].path < items[j].path
	})
	out := Completions{Incomplete: cut}
	for i, it := range items {
		if i == qMaxCompletions {
			out.Incomplete = true
			break
		}
		out.Items = append(out.Items, Completion{Label: it.d.QualifiedName, Kind: CompleteName, DeclKind: it.d.Kind,
			Detail: fmt.Sprintf("%s · %s:%d", it.d.Kind, it.path, it.d.StartLine), Replace: replace,
			SortText: fmt.Sprintf("%d%05d", it.rank, i)})
	}
	return out
}

// onDemand visits the files the check did not read (skip) that can declare
// a contract kind: a config or schema file no anchor names yet is what a
// writer anchors first. Tables are memoised by content, so typing on costs
// no new parse. It reports whether the bound cut the walk.
func onDemand(s *workspace.Snapshot, kind string, skip func(string) bool, visit func(string, []symbols.Decl)) bool {
	langs := contractKindLanguages[kind]
	if langs == nil {
		return false
	}
	files, bytes := 0, 0
	for _, p := range s.Files() {
		lang, ok := s.Language(p)
		if !ok || !slices.Contains(langs, lang) || skip(p) {
			continue
		}
		if files == qMaxOnDemandFiles || bytes > qMaxOnDemandBytes {
			return true
		}
		decls, text := s.FileDecls(p)
		files, bytes = files+1, bytes+len(text)
		visit(p, decls)
	}
	return false
}

// qMatchesPartial keeps names that start with the typed text, or whose base
// name does (so `Res` finds `Resolver.Resolve`), case-insensitively.
func qMatchesPartial(qname, partial string) bool {
	if partial == "" {
		return true
	}
	p := strings.ToLower(partial)
	return strings.HasPrefix(strings.ToLower(qname), p) || strings.HasPrefix(strings.ToLower(anchors.BaseName(qname)), p)
}

func completePaths(s *workspace.Snapshot, partial string, replace Location, keep func(string) bool, first map[string]bool) Completions {
	var ranked [2][]string
	for _, p := range s.Files() {
		if !keep(p) || !strings.HasPrefix(p, partial) && !strings.Contains(p, "/"+partial) {
			continue
		}
		if first[p] {
			ranked[0] = append(ranked[0], p)
		} else {
			ranked[1] = append(ranked[1], p)
		}
	}
	var out Completions
	n := 0
	for rank, ps := range ranked {
		for _, p := range ps {
			if n == qMaxCompletions {
				out.Incomplete = true
				return out
			}
			detail := "file"
			if rank == 0 {
				detail = "declares it"
			}
			out.Items = append(out.Items, Completion{Label: p, Detail: detail, Kind: CompletePath, Replace: replace,
				SortText: fmt.Sprintf("%d%06d", rank, n)})
			n++
		}
	}
	return out
}
