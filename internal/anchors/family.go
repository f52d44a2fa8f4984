package anchors

import "github.com/clew-lsp/clew-lsp/internal/anchors/symbols"

// Kind families: in each language some declarations turn into one another
// without ceasing to be "the same thing" (a Go struct that becomes an alias,
// a TypeScript interface that becomes a type, a Swift class that becomes a
// struct). A family has an umbrella word — the source keyword writers type
// (`type`, `const`, `var`) — and its members. Within a family:
//
//   - an anchor may name the umbrella word: `type Server` names the struct
//     Server, `const normalise` the arrow function normalise;
//   - an anchor naming a member finds a declaration of another member with
//     the same name (the exact kind is preferred); that is a kind change,
//     `stale` with reason `kind_changed`, never `lost`.
//
// The table is the contract of docs/anchors.md ("Kind families").
type kindFamily struct {
	id       string   // the family's key, for indexing
	umbrella string   // the source keyword that names every member; "" when writers name the member
	members  []string // kinds of the vocabulary
}

var kindFamilies = map[symbols.Language][]kindFamily{
	symbols.Go:         {{"type", "type", []string{"type", "struct", "interface"}}},
	symbols.TypeScript: jsFamilies,
	symbols.TSX:        jsFamilies,
	symbols.JavaScript: jsFamilies,
	symbols.Python:     {{"var", "var", []string{"var", "const"}}},
	symbols.Rust:       {{"type", "", []string{"type", "struct", "enum"}}},
	symbols.Java:       {{"type", "", []string{"class", "interface", "enum"}}},
	symbols.Kotlin:     {{"type", "", []string{"class", "interface", "object", "enum"}}},
	symbols.Swift:      {{"type", "", []string{"type", "class", "struct", "enum"}}},
	symbols.CSharp:     {{"type", "", []string{"class", "struct", "interface", "enum"}}},
	symbols.C:          {{"type", "", []string{"type", "struct", "enum"}}},
	symbols.CPP:        {{"type", "", []string{"type", "class", "struct", "enum"}}},
	symbols.Ruby:       {{"type", "", []string{"class", "module"}}},
	symbols.PHP:        {{"type", "", []string{"class", "interface", "trait", "enum"}}},
	symbols.Scala:      {{"type", "", []string{"type", "class", "object", "trait", "enum"}}, {"value", "", []string{"const", "var"}}},
	symbols.Elixir:     {{"type", "", []string{"module", "protocol"}}},
}

// jsFamilies: `const f = () => …` and `const f = function …` are indexed as
// functions (their behaviour), but writers name the keyword they see.
var jsFamilies = []kindFamily{
	{"value", "const", []string{"const", "function", "var"}},
	{"type", "", []string{"type", "interface", "class", "enum"}},
}

// familyOf returns the family holding kind in path's language.
func familyOf(path, kind string) (kindFamily, bool) {
	lang, ok := symbols.LanguageForPath(path)
	if !ok {
		return kindFamily{}, false
	}
	for _, f := range kindFamilies[lang] {
		for _, m := range f.members {
			if m == kind {
				return f, true
			}
		}
	}
	return kindFamily{}, false
}

// FamilyKey is the kind's family in path's language ("family:type" for a Go
// struct), or the kind itself when it belongs to no family.
func FamilyKey(path, kind string) string {
	if f, ok := familyOf(path, kind); ok {
		return "family:" + f.id
	}
	return kind
}

// KindNames reports whether an anchor written with kind anchorKind names a
// declaration of kind declKind in path without a kind change: the same kind,
// or the family's umbrella word for one of its members.
func KindNames(path, anchorKind, declKind string) bool {
	if anchorKind == declKind {
		return true
	}
	f, ok := familyOf(path, declKind)
	return ok && f.umbrella != "" && f.umbrella == anchorKind
}

// SameFamily reports whether two kinds are one identity in path's language.
func SameFamily(path, a, b string) bool { return FamilyKey(path, a) == FamilyKey(path, b) }

// familyIdentity keys the index by language group, family and name, so a
// Go type and a TypeScript type of the same name never meet.
func familyIdentity(path, kind, qname string) string {
	group := ""
	if lang, ok := symbols.LanguageForPath(path); ok {
		group = languageGroup(lang)
	}
	return group + "\x00" + FamilyKey(path, kind) + "\x00" + qname
}

// languageGroup puts languages whose files declare into one another's
// namespace together (a .ts file imports from a .js one; C++ includes C).
func languageGroup(lang symbols.Language) string {
	switch lang {
	case symbols.TypeScript, symbols.TSX, symbols.JavaScript:
		return "js"
	case symbols.C, symbols.CPP:
		return "c"
	}
	return string(lang)
}
