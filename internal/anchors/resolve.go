package anchors

import (
	"fmt"
	"path"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors/hash"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// FileStatus says what happened when the engine asked for a file.
type FileStatus int

const (
	FileOK       FileStatus = iota
	FileMissing             // not in the workspace
	FileBinary              // skipped: holds a NUL byte
	FileTooLarge            // skipped: over the size limit
	FileUnread              // not read: the budget stopped first
)

// Env is what resolution may look at. It is plain data and functions over
// bytes, so the same ladder runs under the CLI, the server and the tests.
type Env struct {
	Index *Index
	// File returns a file's content and status (lines and doc anchors, and
	// telling a missing hinted file from an undeclared name).
	File func(path string) ([]byte, FileStatus)
	// Origin optionally returns the body tokens of the declaration the
	// anchor was pinned on (found in history), for similarity suggestions.
	Origin func(a Anchor) []string
	// PreExisting optionally says whether a declaration (path, kind, name)
	// was already at its place when the anchor was pinned (from history).
	// Such a twin is never a move or rename target. known is false when
	// history cannot tell (no git, the pin is not committed).
	PreExisting func(a Anchor, path, kind, qname string) (existed, known bool)
	// Suggest optionally replaces the ranking of Index's declarations for a
	// lost anchor's "did you mean" (a caller that memoises FileSuggestions
	// per file); NoSuggestions skips them, for a verdict the caller throws
	// away (the cheap pass before a repository-wide search).
	Suggest       func(a Anchor, origin []string) []Candidate
	NoSuggestions bool
	// SameHistory optionally says whether path belongs to the hinted
	// file's append-only history (the SQL files of a migrations folder):
	// a declaration found there counts as found in the hinted file.
	SameHistory func(hint, path string) bool
}

// inHint reports whether a declaration of path is one of the hinted file's.
func (env Env) inHint(a Anchor, path string) bool {
	return path == a.Path || env.SameHistory != nil && env.SameHistory(a.Path, path)
}

// Resolve runs the ladder for one anchor. It never fails; what it cannot
// decide from env it reports as lost or unchecked with a reason.
func Resolve(a Anchor, env Env) Result {
	switch a.Form {
	case FormLines:
		return resolveLines(a, env)
	case FormDoc:
		return resolveDoc(a, env)
	}
	return resolveSymbol(a, env)
}

func boolp(b bool) *bool { return &b }

func bindingOf(r Ref) *Binding {
	return &Binding{
		Form: FormSymbol, Kind: r.Decl.Kind, QualifiedName: r.Decl.QualifiedName, Path: r.Path,
		StartLine: r.Decl.StartLine, EndLine: r.Decl.EndLine,
		DeclHash: r.Decl.DeclHash, BodyHash: r.Decl.BodyHash, Signature: r.Decl.Signature,
	}
}

func found(state State, reason string, r Ref) Result {
	return Result{
		State:  state,
		Detail: Detail{Reason: reason, Path: r.Path, LineStart: r.Decl.StartLine, LineEnd: r.Decl.EndLine},
		Found:  bindingOf(r),
	}
}

// FreshInHint is Resolve's answer for a pinned symbol anchor whose
// hinted file holds exactly one declaration of its identity, that one
// named by the anchor's kind and hashing as pinned (decl hash, and the
// body hash the pin holds or its absence): fresh, identity_matched, the
// declaration found. decls must hold every declaration of the hinted file
// that carries the anchor's qualified name (others are ignored). ok is
// false for any other case: then only Resolve over the file's table
// answers.
func FreshInHint(a Anchor, decls []symbols.Decl) (Result, bool) {
	if a.Form != FormSymbol || !a.Pinned() {
		return Result{}, false
	}
	want := familyIdentity(a.Path, a.Kind, a.QualifiedName)
	var best *symbols.Decl
	for i := range decls {
		d := &decls[i]
		if d.QualifiedName != a.QualifiedName || familyIdentity(a.Path, d.Kind, d.QualifiedName) != want {
			continue
		}
		if best != nil {
			return Result{}, false // rank decides between several
		}
		best = d
	}
	if best == nil || !KindNames(a.Path, a.Kind, best.Kind) || best.DeclHash != a.DeclSHA || best.BodyHash != a.BodySHA {
		return Result{}, false
	}
	return found(StateFresh, ReasonIdentityMatched, Ref{Path: a.Path, Decl: best}), true
}

func resolveSymbol(a Anchor, env Env) Result {
	ix := env.Index
	if ix == nil {
		ix = NewIndex()
	}
	// The identity is the name within the kind's family: `struct X` finds
	// `type X = …`, `const f` finds the arrow function f. rank prefers the
	// exact kind.
	identity := ix.lookup(familyTable, familyIdentity(a.Path, a.Kind, a.QualifiedName))

	// Stage 1: same identity in the hinted file.
	var inHint, elsewhere []Ref
	for _, r := range identity {
		if env.inHint(a, r.Path) {
			inHint = append(inHint, r)
		} else {
			elsewhere = append(elsewhere, r)
		}
	}
	if len(inHint) > 0 {
		best, tied := rank(inHint, a)
		if tied != nil {
			return ambiguous(a, tied)
		}
		switch {
		case !a.Pinned():
			return found(StateUnpinned, ReasonIdentityMatched, best)
		case !KindNames(a.Path, a.Kind, best.Decl.Kind):
			r := found(StateStale, ReasonKindChanged, best)
			r.Detail.OldKind, r.Detail.NewKind = a.Kind, best.Decl.Kind
			r.Detail.ExpectedHash, r.Detail.ActualHash = a.DeclSHA, best.Decl.DeclHash
			return r
		case best.Decl.DeclHash == a.DeclSHA:
			return found(StateFresh, ReasonIdentityMatched, best)
		case !comparable(a, best.Decl):
			r := found(StateUnchecked, ReasonHashScheme, best)
			r.Detail.ExpectedHash, r.Detail.ActualHash = a.DeclSHA, best.Decl.DeclHash
			r.Detail.Note = schemeNote(a)
			return r
		default:
			r := found(StateStale, ReasonBodyChanged, best)
			r.Detail.ExpectedHash, r.Detail.ActualHash = a.DeclSHA, best.Decl.DeclHash
			return r
		}
	}

	// Stage 2: same identity in another file, new since the pin.
	var twins []Ref
	var note string
	elsewhere, twins, note = newSincePin(a, env, elsewhere, twins)
	if len(elsewhere) > 0 {
		best, tied := rank(elsewhere, a)
		if tied != nil {
			return ambiguous(a, tied)
		}
		r := found(StateMovedRenamed, ReasonMoved, best)
		r.Detail.MovedTo = best.Path
		r.Detail.Note = note
		if !KindNames(a.Path, a.Kind, best.Decl.Kind) {
			r.Detail.OldKind, r.Detail.NewKind = a.Kind, best.Decl.Kind
		}
		if a.Pinned() {
			r.Detail.BodyChanged = boolp(best.Decl.DeclHash != a.DeclSHA)
			if *r.Detail.BodyChanged {
				r.Detail.ExpectedHash, r.Detail.ActualHash = a.DeclSHA, best.Decl.DeclHash
			}
		}
		return r
	}

	if a.BodySHA != "" {
		byBody := ix.lookup(bodyTable, a.BodySHA)
		container := ContainerOf(a.QualifiedName)
		// Stage 3: same kind, same container, same body, other name. A
		// top-level declaration's container is its file: a top-level function
		// renamed into another file is moved_and_renamed, not renamed.
		var renamed, anywhere []Ref
		for _, r := range byBody {
			if !sameFamilyAt(a, r) || r.Decl.QualifiedName == a.QualifiedName {
				continue
			}
			anywhere = append(anywhere, r)
			if ContainerOf(r.Decl.QualifiedName) == container && (container != "" || env.inHint(a, r.Path)) {
				renamed = append(renamed, r)
			}
		}
		var n3, n4 string
		renamed, twins, n3 = newSincePin(a, env, renamed, twins)
		if len(renamed) > 0 {
			r := renamedResult(a, renamed, ReasonRenamed)
			r.Detail.Note = n3
			return r
		}
		// Stage 4: same kind, same body, anywhere.
		anywhere, twins, n4 = newSincePin(a, env, anywhere, twins)
		if len(anywhere) > 0 {
			r := renamedResult(a, anywhere, ReasonMovedAndRenamed)
			r.Detail.Note = n4
			return r
		}
	}

	// Stage 5: nothing (new since the pin).
	r := lost(a, env)
	if len(twins) > 0 && r.State == StateLost {
		r.Detail.Suggestions = withTwins(twins, r.Detail.Suggestions)
		t := twins[0]
		r.Detail.Note = fmt.Sprintf("%s %s in %s:%d was already there when the anchor was pinned, so it is not where the code went", t.Decl.Kind, t.Decl.QualifiedName, t.Path, t.Decl.StartLine)
	}
	return r
}

// NoteNoHistory is the detail note of a move or rename found without the
// history that would tell a new declaration from a twin that was always
// there.
const NoteNoHistory = "history cannot tell whether this declaration was already there when the anchor was pinned (no git history of the pin, or the pin was written after the code had moved), so a twin is not ruled out"

// newSincePin drops the candidates that were already at their place when the
// anchor was pinned (they are twins, not the moved code) and adds them to
// twins. note is NoteNoHistory when history could not tell for a kept one.
func newSincePin(a Anchor, env Env, cands, twins []Ref) ([]Ref, []Ref, string) {
	if len(cands) == 0 || !a.Pinned() {
		return cands, twins, ""
	}
	if env.PreExisting == nil {
		return cands, twins, NoteNoHistory
	}
	var kept []Ref
	note := ""
	for _, r := range cands {
		existed, known := env.PreExisting(a, r.Path, r.Decl.Kind, r.Decl.QualifiedName)
		switch {
		case !known:
			note = NoteNoHistory
			kept = append(kept, r)
		case existed:
			twins = append(twins, r)
		default:
			kept = append(kept, r)
		}
	}
	return kept, twins, note
}

// withTwins puts the twins first among the suggestions (they are the
// likeliest replacement), without duplicates, at most MaxSuggestions.
func withTwins(twins []Ref, sugg []Candidate) []Candidate {
	var out []Candidate
	seen := map[Candidate]bool{}
	for _, t := range twins {
		c := t.candidate()
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	for _, c := range sugg {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	if len(out) > MaxSuggestions {
		out = out[:MaxSuggestions]
	}
	return out
}

// sameFamilyAt reports whether r is of the anchor's kind or of its family.
func sameFamilyAt(a Anchor, r Ref) bool {
	return r.Decl.Kind == a.Kind || familyIdentity(a.Path, a.Kind, "") == familyIdentity(r.Path, r.Decl.Kind, "")
}

// comparable reports whether a pin's hash can be compared with the current
// one: the same scheme, or a scheme-1 pin of a declaration no newer rule
// shaped (its hash is the same under both). A pin from a newer scheme is
// never comparable.
func comparable(a Anchor, d *symbols.Decl) bool {
	return a.Scheme == symbols.HashScheme || a.Scheme == 1 && !d.SchemeSensitive
}

func schemeNote(a Anchor) string {
	if a.Scheme > symbols.HashScheme {
		return fmt.Sprintf("pinned under hash scheme %d, newer than this clew-lsp's (%d): upgrade clew-lsp to check it", a.Scheme, symbols.HashScheme)
	}
	return fmt.Sprintf("pinned under hash scheme %d; this clew-lsp hashes with scheme %d, whose token rules read this declaration differently — run `clew-lsp confirm --rehash` to re-pin it if its code is unchanged since the pin", a.Scheme, symbols.HashScheme)
}

func renamedResult(a Anchor, cands []Ref, reason string) Result {
	best, tied := rank(cands, a)
	if tied != nil {
		return ambiguous(a, tied)
	}
	r := found(StateMovedRenamed, reason, best)
	if best.Path != a.Path {
		r.Detail.MovedTo = best.Path
	}
	if best.Decl.QualifiedName != a.QualifiedName {
		r.Detail.RenamedTo = best.Decl.QualifiedName
	}
	r.Detail.SignatureChanged = boolp(best.Decl.DeclHash != a.DeclSHA)
	return r
}

// rank applies the "no guessing" rule: prefer an identical decl hash, then
// the hint's directory; if several remain, return them all as tied.
func rank(cands []Ref, a Anchor) (Ref, []Ref) {
	if len(cands) == 1 {
		return cands[0], nil
	}
	set := cands
	if same := filter(set, func(r Ref) bool { return KindNames(a.Path, a.Kind, r.Decl.Kind) }); len(same) > 0 {
		set = same // the exact kind (or one the umbrella word names) first
	}
	if a.Pinned() {
		if same := filter(set, func(r Ref) bool { return r.Decl.DeclHash == a.DeclSHA }); len(same) > 0 {
			set = same
		}
	}
	if len(set) > 1 {
		dir := path.Dir(a.Path)
		if same := filter(set, func(r Ref) bool { return path.Dir(r.Path) == dir }); len(same) > 0 {
			set = same
		}
	}
	// Then the file the hinted one became when it moved: the same file
	// name, and the same folder name above it (staging/dns/svc.yaml →
	// archive/dns/svc.yaml), so a key every manifest has (apiVersion)
	// follows its own file.
	for _, tail := range []int{1, 2} {
		if len(set) > 1 {
			want := pathTail(a.Path, tail)
			if same := filter(set, func(r Ref) bool { return pathTail(r.Path, tail) == want }); len(same) > 0 {
				set = same
			}
		}
	}
	if len(set) == 1 {
		return set[0], nil
	}
	return Ref{}, set
}

// pathTail is the last n segments of a slash path.
func pathTail(p string, n int) string {
	i := len(p)
	for ; n > 0 && i > 0; n-- {
		i = strings.LastIndexByte(p[:i], '/')
		if i < 0 {
			return p
		}
	}
	return p[i+1:]
}

func filter(refs []Ref, keep func(Ref) bool) []Ref {
	var out []Ref
	for _, r := range refs {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

func ambiguous(a Anchor, tied []Ref) Result {
	c := make([]Candidate, 0, len(tied))
	for _, r := range tied {
		c = append(c, r.candidate())
	}
	sortCandidates(c)
	return Result{State: StateLost, Detail: Detail{Reason: ReasonAmbiguous, Path: a.Path, Candidates: c}}
}

func lost(a Anchor, env Env) Result {
	reason := ReasonDeclarationMissing
	if env.File != nil {
		switch _, st := env.File(a.Path); st {
		case FileMissing:
			reason = ReasonFileMissing
		case FileBinary:
			return Result{State: StateUnchecked, Detail: Detail{Reason: ReasonBinary, Path: a.Path}}
		case FileTooLarge:
			return Result{State: StateUnchecked, Detail: Detail{Reason: ReasonFileTooLarge, Path: a.Path}}
		case FileUnread:
			return Result{State: StateUnchecked, Detail: Detail{Reason: ReasonBudget, Path: a.Path}}
		}
	}
	if reason == ReasonDeclarationMissing {
		if _, ok := symbols.LanguageForPath(a.Path); !ok {
			reason = ReasonUnsupported
		}
	}
	r := Result{State: StateLost, Detail: Detail{Reason: reason, Path: a.Path}}
	if env.NoSuggestions {
		return r
	}
	var origin []string
	if env.Origin != nil {
		origin = env.Origin(a)
	}
	if env.Suggest != nil {
		r.Detail.Suggestions = env.Suggest(a, origin)
	} else {
		r.Detail.Suggestions = suggest(a, env.Index, origin)
	}
	return r
}

func resolveDoc(a Anchor, env Env) Result {
	content, st, r, ok := readTarget(a, env)
	if !ok {
		return r
	}
	_ = st
	if a.Section != "" {
		return resolveSection(a, content)
	}
	sum := hash.Doc(content)
	b := &Binding{Form: FormDoc, Kind: "doc", Path: a.Path, DeclHash: sum}
	switch {
	case !a.Pinned():
		return Result{State: StateUnpinned, Detail: Detail{Reason: ReasonUnpinned, Path: a.Path}, Found: b}
	case sum == a.DeclSHA:
		return Result{State: StateFresh, Detail: Detail{Reason: ReasonIdentityMatched, Path: a.Path}, Found: b}
	}
	return Result{State: StateStale, Detail: Detail{Reason: ReasonContentChanged, Path: a.Path,
		ExpectedHash: a.DeclSHA, ActualHash: sum}, Found: b}
}

// readTarget fetches the file a lines/doc anchor names, turning every status
// other than OK into the matching verdict.
func readTarget(a Anchor, env Env) ([]byte, FileStatus, Result, bool) {
	if env.File == nil {
		return nil, FileMissing, Result{State: StateLost, Detail: Detail{Reason: ReasonFileMissing, Path: a.Path}}, false
	}
	content, st := env.File(a.Path)
	switch st {
	case FileOK:
		return content, st, Result{}, true
	case FileMissing:
		return nil, st, Result{State: StateLost, Detail: Detail{Reason: ReasonFileMissing, Path: a.Path}}, false
	case FileBinary:
		return nil, st, Result{State: StateUnchecked, Detail: Detail{Reason: ReasonBinary, Path: a.Path}}, false
	case FileTooLarge:
		return nil, st, Result{State: StateUnchecked, Detail: Detail{Reason: ReasonFileTooLarge, Path: a.Path}}, false
	}
	return nil, st, Result{State: StateUnchecked, Detail: Detail{Reason: ReasonBudget, Path: a.Path}}, false
}
