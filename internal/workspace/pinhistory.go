package workspace

import (
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// GitFileAt is the optional side of Git that reads a file as it was at a
// commit; workspace/gitstate implements it with go-git (objects only).
type GitFileAt interface {
	// FileAt returns path's content at the commit; ok is false when the
	// commit does not hold the file (or cannot be read).
	FileAt(commit, path string) (content []byte, ok bool)
}

// pinHistoryDepth bounds the doc commits searched for the one that wrote a
// pin: pins older than that are treated as without history.
const pinHistoryDepth = 200

// pinCommit is the commit that last wrote the anchor's pin: the oldest of
// the newest run of doc commits whose doc holds the anchor's sha= token.
// ok is false without history, or when the pin is not committed yet.
func (r *checkRun) pinCommit(a anchors.Anchor) (string, bool) {
	key := a.Doc + "\x00" + a.DeclSHA + "," + a.BodySHA
	if c, ok := r.memo.pins.get(key); ok {
		return c, c != ""
	}
	c := ""
	if log, ok := r.s.git.(GitLog); ok && a.Pinned() {
		token := a.SHAText()
		for _, gc := range log.Commits(a.Doc, pinHistoryDepth) {
			if gc.Content == nil || !strings.Contains(string(gc.Content), token) {
				break
			}
			c = gc.SHA
		}
	}
	r.memo.pins.put(key, c)
	return c, c != ""
}

// preExisting tells whether a declaration (path, kind family, name) was in
// path at the commit that wrote the anchor's pin: such a twin was never
// where the anchor's code went.
func (r *checkRun) preExisting(a anchors.Anchor, path, kind, qname string) (existed, known bool) {
	// The answer reads the doc's history and committed blobs only, so
	// it holds for the memo's disk state.
	k := preKey{a.Doc, a.DeclSHA + "," + a.BodySHA, a.Path, a.Kind, a.QualifiedName, path, kind, qname}
	if v, ok := r.memo.pre.get(k); ok {
		return v[0], v[1]
	}
	existed, known = r.preExistingAt(a, path, kind, qname)
	r.memo.pre.put(k, [2]bool{existed, known})
	return existed, known
}

// preKey is what preExisting's answer depends on.
type preKey struct{ doc, pin, hint, hintKind, hintName, path, kind, qname string }

func (r *checkRun) preExistingAt(a anchors.Anchor, path, kind, qname string) (existed, known bool) {
	at, ok := r.s.git.(GitFileAt)
	if !ok {
		return false, false
	}
	commit, ok := r.pinCommit(a)
	if !ok || !r.pinHeldAt(at, commit, a) {
		return false, false
	}
	lang, ok := r.s.Language(path)
	if !ok {
		return false, false
	}
	content, ok := at.FileAt(commit, path)
	if !ok {
		return false, true // the file did not exist: everything in it is new
	}
	return r.declaresAt(lang, path, content, kind, qname), true
}

// pinHeldAt reports whether the anchor's hinted file held its declaration at
// the pin commit. Only then does "already there at the pin" mean a twin: a
// pin written on code that had already moved (a doc committed together with
// the move) says nothing about which copy is the original.
func (r *checkRun) pinHeldAt(at GitFileAt, commit string, a anchors.Anchor) bool {
	// Asked once per twin candidate: memoised beside preExisting's
	// answers, under a key with no twin (no real question has an empty
	// path).
	k := preKey{doc: a.Doc, pin: a.DeclSHA + "," + a.BodySHA, hint: a.Path, hintKind: a.Kind, hintName: a.QualifiedName}
	if v, ok := r.memo.pre.get(k); ok {
		return v[0]
	}
	held := r.pinHeldAtCommit(at, commit, a)
	r.memo.pre.put(k, [2]bool{held, true})
	return held
}

func (r *checkRun) pinHeldAtCommit(at GitFileAt, commit string, a anchors.Anchor) bool {
	lang, ok := r.s.Language(a.Path)
	if !ok {
		return false
	}
	content, ok := at.FileAt(commit, a.Path)
	if !ok {
		return false
	}
	// By name, not hash: a decl hash leaves the name out, so a rename's
	// new name hashes like the pinned one.
	return r.declaresAt(lang, a.Path, content, a.Kind, a.QualifiedName)
}

// declaresAt reports whether content, a version of path in lang, declares
// qname in kind's family, as its table would say. A Go version is read by
// the declaration lexers where they can tell (lexedDeclares) and parsed
// whole otherwise.
func (r *checkRun) declaresAt(lang symbols.Language, path string, content []byte, kind, qname string) bool {
	if lang == symbols.Go {
		if declares, ok := lexedDeclares(path, content, kind, qname); ok {
			return declares
		}
	}
	for _, d := range r.s.tables.parse(lang, content).Decls {
		if d.QualifiedName == qname && anchors.SameFamily(path, d.Kind, kind) {
			return true
		}
	}
	return false
}

// lexedDeclares is declaresAt's answer for a Go file without tree-sitter,
// read as lexHinted reads a hinted file: the declarations of qname in
// those that mention its base name (every declaration of the name holds
// it), found by symbols.LexGoDecls, trusted where go/parser accepts that
// text (symbols.KeptIsGo). ok is false when it cannot tell: the file does
// not lex, a declaration of the name is of a kind the lexer does not
// read (a field, a const), or the text is not Go.
func lexedDeclares(path string, src []byte, kind, qname string) (declares, ok bool) {
	layout, ok := symbols.LexGoLayout(src)
	if !ok {
		return false, false
	}
	kept := symbols.KeepGo(layout, src, mentioning(src, [][]byte{[]byte(anchors.BaseName(qname))}))
	decls, ok := kept.LexDecls(qname)
	if !ok || !kept.IsGo() {
		return false, false
	}
	for _, d := range decls {
		if d.QualifiedName == qname && anchors.SameFamily(path, d.Kind, kind) {
			return true, true
		}
	}
	return false, true
}
