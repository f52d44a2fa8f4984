package symbols

import (
	"sort"
	"strconv"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors/hash"
)

// Configuration formats: their "declarations" are keys (kind "key"), named
// by their dotted path. Identity is the path; the hash is the value's tokens
// compared by value (quoting, comments, layout and the order of a mapping's
// keys do not count), so a reformatted or reordered file stays fresh.
const (
	YAML Language = "yaml"
	JSON Language = "json"
	TOML Language = "toml"
)

// KeyKind is the one kind a configuration file declares.
const KeyKind = "key"

// keyParsers parse the configuration formats; they never fail.
var keyParsers = map[Language]func(src []byte) []keyEntry{
	YAML: yamlKeys,
	JSON: jsonKeys,
	TOML: tomlKeys,
}

// IsKeyLanguage reports whether lang is a configuration format whose
// declarations are keys rather than code.
func IsKeyLanguage(lang Language) bool {
	_, ok := keyParsers[lang]
	return ok
}

// keyEntry is one key as a format parser finds it.
type keyEntry struct {
	path               []string // segments as written in a qualified name (already quoted)
	start, end         int      // byte span of "key: value" (or the whole document)
	nameStart, nameEnd int
	value              []string // canonical value tokens
	header             string   // the key as written, for previews
}

// parseKeys builds a Table from a configuration file's keys.
func parseKeys(lang Language, src []byte, off int, opt Options) Table {
	t := Table{Language: lang}
	entries := keyParsers[lang](src)
	lines := lineStarts(src)
	for _, e := range entries {
		if len(e.path) == 0 {
			continue
		}
		qn := JoinKeyPath(e.path)
		d := Decl{
			Kind:          KeyKind,
			Name:          e.path[len(e.path)-1],
			QualifiedName: qn,
			Container:     JoinKeyPath(e.path[:len(e.path)-1]),
			StartByte:     e.start + off,
			EndByte:       e.end + off,
			NameStartByte: e.nameStart + off,
			NameEndByte:   e.nameEnd + off,
			BodyTokens:    len(e.value),
			// Clipped before collapsing: a minified file's header is the
			// rest of its one line.
			Signature: clip(collapseSpace(clip(e.header, 800)), 200),
		}
		d.StartLine = lineOf(lines, e.start)
		last := e.end - 1
		if last < e.start {
			last = e.start
		}
		d.EndLine = lineOf(lines, last)
		d.DeclHash = hash.SumJoined([]string{namePlaceholder, ":"}, e.value)
		if len(e.value) >= MinBodyTokens {
			d.BodyHash = hash.Sum(e.value)
		}
		if opt.KeepBodyTokens {
			d.Body = PackTokens(e.value)
		}
		t.Decls = append(t.Decls, d)
	}
	sortDecls(t.Decls)
	return t
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// keyValue is a parsed value before it is flattened into tokens: mappings
// keep their entries so that their order can be made canonical.
type keyValue struct {
	scalar  string // canonical scalar token, when not a mapping or sequence
	mapping []keyMember
	seq     []*keyValue
	kind    byte // 's' scalar, 'm' mapping, 'q' sequence
}

type keyMember struct {
	key string
	val *keyValue
}

// tokens flattens a value: mappings by sorted key, so reordering is no change.
func (v *keyValue) tokens(out []string) []string {
	if v == nil {
		return append(out, "null")
	}
	switch v.kind {
	case 'm':
		ms := append([]keyMember(nil), v.mapping...)
		sort.SliceStable(ms, func(i, j int) bool { return ms[i].key < ms[j].key })
		out = append(out, "{")
		for _, m := range ms {
			out = append(out, m.key, ":")
			out = m.val.tokens(out)
			out = append(out, ",")
		}
		return append(out, "}")
	case 'q':
		out = append(out, "[")
		for _, it := range v.seq {
			out = it.tokens(out)
			out = append(out, ",")
		}
		return append(out, "]")
	}
	return append(out, v.scalar)
}

// stringToken is a string scalar by value: the same text written with other
// quotes or escapes is the same token, and it never equals a number's.
func stringToken(s string) string { return strconv.Quote(s) }

// numberToken writes a number canonically where it can (1e3 and 1000 stay
// apart: the file's consumer may read them differently).
func numberToken(s string) string {
	s = strings.ReplaceAll(s, "_", "")
	if n, err := strconv.ParseInt(s, 0, 64); err == nil {
		return strconv.FormatInt(n, 10)
	}
	return strings.TrimPrefix(s, "+")
}

// KeySegment quotes a key for a qualified name when it holds a character of
// the path syntax (dot, brackets, quote, space) or is empty.
func KeySegment(k string) string {
	if k == "" || strings.ContainsAny(k, ".[]\" \t\\") {
		return strconv.Quote(k)
	}
	return k
}

// JoinKeyPath joins segments with "."; an index segment ("[2]") attaches to
// the one before it.
func JoinKeyPath(segs []string) string {
	var b strings.Builder
	for i, s := range segs {
		if i > 0 && !strings.HasPrefix(s, "[") {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

func indexSegment(i int) string { return "[" + strconv.Itoa(i) + "]" }
