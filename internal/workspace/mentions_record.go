package workspace

import (
	"slices"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// Mention records: what verify's mention coverage keeps of a code file
// between runs, so that a run on an unchanged tree reads (and lexes) only
// the files that changed. A record holds whatever the coverage's first
// reading of the file can answer for any set of mentioned names:
//
//   - a Go file the declaration lexer reads whole (symbols.GoDeclNames,
//     every name kept): all its declarations and its package name. Its
//     declarations of the names asked are the lexer's answer for those
//     names — the lexer's flow does not depend on the names it keeps, and
//     an overload group is kept or dropped whole — so the file is never
//     read again while its stat holds;
//   - any other file (another language, a Go file the lexer refuses): the
//     hashes of every name the prefilter could report of it (placesOf's
//     names, and those the lexer asked about), so a file whose record holds
//     no mentioned name is not read; one that may is read and scanned as
//     without records.
//
// Files that are binary are recorded as such; a file over the size limit
// needs no record (its stat says so). Records follow the façade's racy rule
// (TrustedStat) and live in the persistent store (mentions_pack.go).

// mentionRecord is one file's record.
type mentionRecord struct {
	path  string
	stat  FileStat
	lang  symbols.Language
	st    anchors.FileStatus // FileOK or FileBinary
	lexed bool
	pkg   string   // lexed: goPackage
	decls string   // lexed: every declaration, encoded (appendGoNames)
	names []uint32 // not lexed: sorted, distinct nameHash of every name placesOf may report
}

// nameHash is FNV-1a over a name; a collision costs a read, never an
// answer.
func nameHash[T string | []byte](b T) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(b); i++ {
		h ^= uint32(b[i])
		h *= 16777619
	}
	return h
}

// newMentionRecord reads text as the coverage does, for every name; all
// are the declarations of a lexed record.
func newMentionRecord(p string, lang symbols.Language, text []byte) (rec mentionRecord, all []symbols.GoName) {
	rec = mentionRecord{path: p, lang: lang, st: anchors.FileOK}
	var hs []uint32
	add := func(name []byte) { hs = append(hs, nameHash(name)) }
	if lang == symbols.Go {
		names, ok := symbols.GoDeclNames(text, func(name []byte) bool { add(name); return true })
		if ok {
			rec.lexed, rec.pkg, rec.decls = true, goPackage(p, text), string(appendGoNames(nil, names))
			return rec, names
		}
		if !goNamePlaces(text, func(name []byte, _ bool) bool { add(name); return true }) {
			eachWord(text, func(w []byte) bool { add(w); return true })
		}
	} else {
		eachWord(text, func(w []byte) bool { add(w); return true })
	}
	slices.Sort(hs)
	rec.names = slices.Compact(hs)
	return rec, nil
}

// mayHold reports whether the file may declare one of the names (their
// hashes in hb, their strings in bases): a lexed record answers exactly,
// another by hash.
func (r *mentionRecord) mayHold(bases map[string]bool, hb map[uint32]bool) bool {
	if r.st != anchors.FileOK {
		return false
	}
	if !r.lexed {
		for _, h := range r.names {
			if hb[h] {
				return true
			}
		}
		return false
	}
	hit := false
	ok := eachGoName(r.decls, func(n symbols.GoName) bool {
		hit = bases[strings.TrimSuffix(n.Name, "()")]
		return !hit
	})
	return hit || !ok
}

// refs are a lexed record's declarations of bases, as lexedRefs gives
// them; ok is false when the record does not decode.
func (r *mentionRecord) refs(bases map[string]bool) ([]anchors.MentionRef, bool) {
	var names []symbols.GoName
	ok := eachGoName(r.decls, func(n symbols.GoName) bool {
		// keep is asked a declaration's own name, before the overload
		// suffix (`init()`).
		if bases[strings.TrimSuffix(n.Name, "()")] {
			n.Kind, n.Name, n.Container = strings.Clone(n.Kind), strings.Clone(n.Name), strings.Clone(n.Container)
			n.QualifiedName = n.Name
			if n.Container != "" {
				n.QualifiedName = n.Container + "." + n.Name
			}
			names = append(names, n)
		}
		return true
	})
	if !ok {
		return nil, false
	}
	return goNameRefs(r.path, strings.Clone(r.pkg), names), true
}

// goNameRefs are the lexer's declarations as mention references.
func goNameRefs(p, pkg string, names []symbols.GoName) []anchors.MentionRef {
	if len(names) == 0 {
		return nil
	}
	out := make([]anchors.MentionRef, len(names))
	decls := make([]symbols.Decl, len(names))
	for i, n := range names {
		decls[i] = symbols.Decl{Kind: n.Kind, Name: n.Name, QualifiedName: n.QualifiedName, Container: n.Container,
			StartLine: n.StartLine, EndLine: n.EndLine, StartByte: n.StartByte, EndByte: n.EndByte}
		out[i] = anchors.MentionRef{Ref: anchors.Ref{Path: p, Decl: &decls[i]}, Package: pkg}
	}
	return out
}

// keptNames are the names of all whose own name is in bases, in order.
func keptNames(all []symbols.GoName, bases map[string]bool) []symbols.GoName {
	var out []symbols.GoName
	for _, n := range all {
		if bases[strings.TrimSuffix(n.Name, "()")] {
			out = append(out, n)
		}
	}
	return out
}
