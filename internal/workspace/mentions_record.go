package workspace

import (
	"slices"
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// Mention records: what verify's mention coverage keeps of a code file
// between runs, so that a run on an unchanged tree reads (and lexes) only
// the files that may declare a mentioned name. A record holds the hashes
// of every name the coverage's first reading of the file could report for
// some set of mentioned names:
//
//   - a Go file the declaration lexer reads whole (symbols.GoDeclNames):
//     every name its keep function is asked about (each declaration's own
//     name; the lexer's flow does not depend on the answers);
//   - any other file (another language, a Go file the lexer refuses): every
//     name placesOf may report of it (and those the lexer asked about
//     before it refused).
//
// A file whose record holds none of the mentioned names has nothing to
// tell and is not read; one that may is read and read as without records.
// (Keeping the lexed files' declarations themselves, so that a hit needs
// no read either, made a cold run lex every name of every Go file into
// strings and store 11.7 MB for GOROOT, for a few hundred files' reads
// saved warm.) Files that are binary are recorded as such; a file over
// the size limit needs no record (its stat says so). Records follow the
// façade's racy rule (TrustedStat) and live in the persistent store
// (mentions_pack.go).

// mentionRecord is one file's record.
type mentionRecord struct {
	path  string
	stat  FileStat
	lang  symbols.Language
	st    anchors.FileStatus // FileOK or FileBinary
	names []uint32           // sorted, distinct nameHash of every name the file may report
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

// newMentionRecord reads text as the coverage does for the names in bases
// and records every name it could report for any: refs are the lexer's
// declarations of bases when it read the file (lexed), else the caller
// asks placesOf.
func newMentionRecord(p string, lang symbols.Language, text []byte, bases map[string]bool) (rec mentionRecord, refs []anchors.MentionRef, lexed bool) {
	rec = mentionRecord{path: p, lang: lang, st: anchors.FileOK}
	scratch := nameHashes.Get().(*[]uint32)
	hs := (*scratch)[:0]
	add := func(name []byte) { hs = append(hs, nameHash(name)) }
	if lang == symbols.Go {
		refs, lexed = lexedRefs(p, text, bases, add)
		if !lexed && !goNamePlaces(text, func(name []byte, _ bool) bool { add(name); return true }) {
			eachWord(text, func(w []byte) bool { add(w); return true })
		}
	} else {
		eachWord(text, func(w []byte) bool { add(w); return true })
	}
	slices.Sort(hs)
	rec.names = slices.Clone(slices.Compact(hs))
	*scratch = hs
	nameHashes.Put(scratch)
	return rec, refs, lexed
}

// nameHashes are newMentionRecord's buffers of a file's name hashes, kept
// between files: a record keeps an exact copy of the distinct ones.
var nameHashes = sync.Pool{New: func() any { return new([]uint32) }}

// mayHold reports whether the file may declare one of the names (their
// hashes in hb).
func (r *mentionRecord) mayHold(hb map[uint32]bool) bool {
	if r.st != anchors.FileOK {
		return false
	}
	for _, h := range r.names {
		if hb[h] {
			return true
		}
	}
	return false
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
