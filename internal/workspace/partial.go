package workspace

import (
	"bytes"
	"context"
	"crypto/sha256"
	"sort"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// The cheap pass of a large repository is mostly tree-sitter parsing the
// hinted files whole, while a pinned anchor only asks for the declarations
// of one name (CheckOptions.PartialHinted). Of a hinted Go file it parses
// the top-level declarations that mention one of the names its anchors
// look for (symbols.ParseGoDecls): every declaration of such a name is in
// one of them, so stage 1 of the ladder — the verdict of every anchor
// still in its file — is the same as over the whole table.
//
// An anchor left open reads further: stages 2–4 look in every indexed
// file, suggestions rank every indexed declaration. Before the
// repository-wide pass, completeHinted parses whole every partial file
// that the open anchors' prefilters (the repository-wide pass's own, and
// anchors.GoSuggestFilter) cannot rule out. A file they rule out holds no
// answer and no suggestion for any open anchor, and the declarations its
// partial table holds are among its whole table's, so they cannot add
// one: the verdicts and suggestions are those of whole tables.

// hintedTable is one hinted file as loadAll read and parsed it.
type hintedTable struct {
	path    string
	lang    symbols.Language
	text    []byte
	sum     [sha256.Size]byte
	decls   []symbols.Decl
	partial bool              // decls are only the declarations that mention words
	layout  *symbols.GoLayout // partial: text's lexed layout, for the suggestion pass
	// lexed: no declaration was parsed (decls is empty, partial true):
	// every anchor of the file is fresh by the declarations the lexers
	// found (lexedDecls, see lexHinted; stored, so a warm run neither
	// lexes nor lays out the file: layout is then nil until needed,
	// layoutOf).
	lexed      bool
	lexedDecls []symbols.Decl
}

// lexState is what the cheap pass needs to decide a hinted Go file's
// anchors without parsing it: the anchors of each file partialWords
// lists, and where lexed files are in hinted.
type lexState struct {
	anchors map[string][]anchors.Anchor
	at      map[string]int
}

// partialWords are, per hinted Go file whose every anchor is a symbol
// anchor with an identifier for a name, those names; a file also hinted
// by a lines or doc anchor, or by a name that is no Go identifier, is
// parsed whole.
func partialWords(s *Snapshot, all []anchors.Anchor) (map[string][][]byte, lexState) {
	words := map[string][][]byte{}
	lex := lexState{anchors: map[string][]anchors.Anchor{}}
	whole := map[string]bool{}
	for _, a := range all {
		if lang, ok := s.Language(a.Path); !ok || lang != symbols.Go {
			continue
		}
		base := anchors.BaseName(a.QualifiedName)
		if a.Form != anchors.FormSymbol || !goIdentifier(base) {
			whole[a.Path] = true
			continue
		}
		words[a.Path] = append(words[a.Path], []byte(base))
		lex.anchors[a.Path] = append(lex.anchors[a.Path], a)
	}
	for p := range whole {
		delete(words, p)
		delete(lex.anchors, p)
	}
	return words, lex
}

func goIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// loadHintedGo gives hinted Go file j (words: the names its anchors look
// for) its declarations: its whole table when one is memoised or stored;
// else none at all when the lexers decide every anchor of the file fresh
// (lexHinted); else those of the declarations mentioning one of words
// (partial, with the file's layout); else the whole file parsed.
func (r *checkRun) loadHintedGo(j *hintedTable, words [][]byte) {
	c := r.s.tables
	key := tableKey{symbols.Go, j.sum}
	if t, ok := c.tables.get(key); ok {
		j.decls = t.Decls
		return
	}
	if store := c.persistent(); store != nil {
		if t, ok := stored(store, storeKey(symbols.Go, j.sum), symbols.Go); ok {
			c.tables.put(key, t)
			j.decls = t.Decls
			return
		}
	}
	as := r.lex.anchors[j.path]
	var lk [sha256.Size]byte
	store := c.persistent()
	if store != nil && len(as) > 0 {
		// A warm run: the declarations lexHinted found in these bytes for
		// these anchors, if they still decide every one of them.
		lk = lexedKey(j.sum, as)
		if t, ok := stored(store, lk, symbols.Go); ok && allFresh(as, t.Decls) {
			j.partial, j.lexed, j.lexedDecls = true, true, t.Decls
			return
		}
	}
	if layout, ok := symbols.LexGoLayout(j.text); ok {
		keep := mentioning(j.text, words)
		if decls, ok := lexHinted(layout, j.text, keep, as); ok {
			j.partial, j.layout, j.lexed, j.lexedDecls = true, layout, true, decls
			if store != nil {
				store.Put(lk, symbols.EncodeTable(symbols.Table{Language: symbols.Go, Decls: decls}))
			}
			return
		}
		if t, ok := c.partialGo(j.sum, j.text, layout, keep); ok {
			j.decls, j.partial, j.layout = t.Decls, true, layout
			return
		}
	}
	j.decls = c.parseSum(symbols.Go, j.sum, j.text).Decls
}

// lexHinted decides the anchors of a hinted Go file without tree-sitter:
// the declarations of each anchor's qualified name in what ParseGoDecls
// would parse of it (keep), as symbols.LexGoDecls finds and hashes them,
// and ok when every anchor is fresh by them (anchors.FreshInHint: one
// declaration of its identity, hashing as pinned) and that part is Go
// (symbols.KeptIsGo: go/parser accepts it, at about a fifth of
// tree-sitter's cost). On Go the lexers' declarations are the walker's;
// anything else — a file or a declaration the lexers refuse, a hash that
// differs from the pin, a second declaration of the name, a part Go
// refuses (where tree-sitter's error recovery decides) — is ok false,
// and the file is parsed.
func lexHinted(layout *symbols.GoLayout, src []byte, keep func(start, end int) bool, as []anchors.Anchor) ([]symbols.Decl, bool) {
	if len(as) == 0 {
		return nil, false
	}
	names := make([]string, len(as))
	for i, a := range as {
		names[i] = a.QualifiedName
	}
	kept := symbols.KeepGo(layout, src, keep) // the kept text, built once for both
	decls, ok := kept.LexDecls(names...)
	if !ok || !allFresh(as, decls) {
		return nil, false
	}
	// Text Go refuses is read by tree-sitter's error recovery, which the
	// lexers do not follow: parse.
	if !kept.IsGo() {
		return nil, false
	}
	return decls, true
}

// lexedKey is where a hinted Go file's lexed declarations are stored: its
// content's hash and every field of its anchors lexHinted reads.
func lexedKey(sum [sha256.Size]byte, as []anchors.Anchor) [sha256.Size]byte {
	k := (&keyer{}).str("go-lexed v1").sum(sum).int(len(as))
	for _, a := range as {
		k.str(string(a.Form)).str(a.Kind).str(a.QualifiedName).str(a.DeclSHA).str(a.BodySHA).int(a.Scheme)
	}
	return k.done()
}

// allFresh: every anchor of as is fresh by decls (anchors.FreshInHint).
func allFresh(as []anchors.Anchor, decls []symbols.Decl) bool {
	for _, a := range as {
		if _, ok := anchors.FreshInHint(a, decls); !ok {
			return false
		}
	}
	return true
}

// layoutOf is a partial hinted file's layout, lexed when it is first
// needed (a file lexHinted's stored answer decided has none yet); ok is
// false when the file does not lex (then it must be parsed whole).
func layoutOf(j *hintedTable) (*symbols.GoLayout, bool) {
	if j.layout == nil {
		l, ok := symbols.LexGoLayout(j.text)
		if !ok {
			return nil, false
		}
		j.layout = l
	}
	return j.layout, true
}

// lexedVerdict is the cheap pass's answer for an anchor whose hinted file
// was lexed, not parsed (loadHintedGo): the verdict lexHinted decided it
// by. ok is false for an anchor of any other file; then Resolve answers.
func (r *checkRun) lexedVerdict(a anchors.Anchor) (anchors.Result, bool) {
	if r.lex.at == nil {
		r.lex.at = map[string]int{}
		for i, j := range r.hinted {
			if j.lexed {
				r.lex.at[j.path] = i
			}
		}
	}
	i, ok := r.lex.at[a.Path]
	if !ok || !r.hinted[i].lexed {
		return anchors.Result{}, false
	}
	j := &r.hinted[i]
	if res, ok := anchors.FreshInHint(a, j.lexedDecls); ok {
		return res, true
	}
	// Not one of the anchors lexHinted decided (it saw every anchor of
	// the file, so this is not expected): the file gets its partial
	// table, and Resolve answers from it.
	r.unlex(j)
	r.reindexHinted([]string{j.path})
	return anchors.Result{}, false
}

// unlex gives a lexed hinted file the partial table it would have had.
func (r *checkRun) unlex(j *hintedTable) {
	if !j.lexed {
		return
	}
	j.lexed, j.lexedDecls = false, nil
	layout, ok := layoutOf(j)
	var t symbols.Table
	if ok {
		t, ok = r.s.tables.partialGo(j.sum, j.text, layout, mentioning(j.text, r.partialWords[j.path]))
	}
	if !ok {
		j.decls, j.partial = r.tableOf(j.path, j.lang, j.sum, j.text).Decls, false
		delete(r.partial, j.path)
		return
	}
	j.decls = t.Decls
}

// partialGo is symbols.ParseGoDecls(src, keep) (layout is src's), kept in
// the persistent store under the content's hash and the offsets of the
// declarations kept (what the table is a function of), so a second verify
// of an unchanged tree parses no hinted file again. A parse that fails (a
// syntax error in what is kept) is not kept: the caller parses the whole
// file, and that table is stored as usual.
func (c *tableCache) partialGo(sum [sha256.Size]byte, src []byte, layout *symbols.GoLayout, keep func(start, end int) bool) (symbols.Table, bool) {
	opt := symbols.Options{KeepBodyTokens: true}
	store := c.persistent()
	if store == nil {
		return symbols.ParseGoDeclsIn(layout, src, keep, opt)
	}
	k := (&keyer{}).str("go-partial").sum(sum)
	for _, r := range layout.Ranges() {
		if keep(r[0], r[1]) {
			k.int(r[0])
		}
	}
	key := k.done()
	if t, ok := stored(store, key, symbols.Go); ok {
		return t, true
	}
	t, ok := symbols.ParseGoDeclsIn(layout, src, keep, opt)
	if ok && !t.GaveUp {
		store.Put(key, symbols.EncodeTable(t))
	}
	return t, ok
}

// mentioning keeps the declarations of src that hold one of words.
func mentioning(src []byte, words [][]byte) func(start, end int) bool {
	return func(start, end int) bool {
		for _, w := range words {
			if bytes.Contains(src[start:end], w) {
				return true
			}
		}
		return false
	}
}

// completeHinted parses whole every partial hinted file an open anchor
// might find its answer in (before the repository-wide pass), or, with
// suggest, a suggestion in (for the anchors found lost), and re-indexes
// the hinted files. It reports whether it parsed any.
func (r *checkRun) completeHinted(ctx context.Context, open []anchors.Anchor, suggest bool) (bool, error) {
	if len(r.partial) == 0 {
		return false, nil
	}
	if suggest {
		return r.completeForSuggestions(ctx, open)
	}
	var needs []need
	for _, a := range open {
		n, ok := r.needOf(a)
		if !ok || n.family != LanguageFamily(symbols.Go) {
			continue
		}
		needs = append(needs, n)
	}
	var todo []int
	for i, j := range r.hinted {
		if j.partial {
			todo = append(todo, i)
		}
	}
	whole := make([]bool, len(todo))
	parallel(len(todo), func(k int) {
		if ctx.Err() != nil {
			return
		}
		j := &r.hinted[todo[k]]
		c := &candidate{b: j.text, lang: symbols.Go}
		for _, n := range needs {
			if n.wantsIn(c) {
				j.decls, j.partial = r.tableOf(j.path, j.lang, j.sum, j.text).Decls, false
				j.lexed, j.lexedDecls = false, nil
				whole[k] = true
				return
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return false, err
	}
	var upgraded []string
	for k, i := range todo {
		if whole[k] {
			upgraded = append(upgraded, r.hinted[i].path)
			delete(r.partial, r.hinted[i].path)
		}
	}
	return r.reindexHinted(upgraded), nil
}

// reindexHinted rebuilds the cheap index after the tables of changed
// were re-parsed; it reports whether there were any.
func (r *checkRun) reindexHinted(upgraded []string) bool {
	if len(upgraded) == 0 {
		return false
	}
	sort.Strings(upgraded)
	key := (&keyer{}).sum(r.cheapKey)
	for _, p := range upgraded {
		key.str(p)
		if !r.partial[p] {
			key.str("whole")
		}
	}
	r.cheapKey = key.done()
	r.cheap, _ = r.cheapIndex(r.hinted)
	r.ix = nil
	return true
}

// completeForSuggestions re-parses each partial hinted file with, besides
// the declarations its anchors named, every declaration that may hold a
// suggestion for one of the lost anchors (one anchors.GoSuggestFilter on
// the declaration's text and brace groups, which reads each file's words
// once for all the lost anchors), and then every declaration that
// mentions the name of a suggestion found: a name is parsed as the whole
// file parses it once every declaration mentioning it is kept (two
// `func init()` become `init()`), and a suggestion shows its name.
func (r *checkRun) completeForSuggestions(ctx context.Context, lost []anchors.Anchor) (bool, error) {
	ls := make([]lostAnchor, len(lost))
	origins := make([][]string, len(lost))
	for i, a := range lost {
		origin := r.origin(a)
		ls[i], origins[i] = lostAnchor{a, origin}, origin
	}
	filter := anchors.NewGoSuggestFilter(lost, origins)
	store := r.s.tables.persistent()
	var lk []byte
	if store != nil {
		lk = lostKey(lost, origins)
	}
	var todo []int
	for i, j := range r.hinted {
		if j.partial {
			todo = append(todo, i)
		}
	}
	changed := make([]bool, len(todo))
	parallel(len(todo), func(k int) {
		if ctx.Err() != nil {
			return
		}
		j := &r.hinted[todo[k]]
		words := r.partialWords[j.path]
		var key [32]byte
		if store != nil {
			// A warm run: what an earlier run kept of these bytes for
			// these lost anchors, parsed from the stored partial table.
			key = suggestKeepKey(lk, j.sum, words, j.lexed)
			if data, ok := store.Get(key); ok {
				var ranges [][2]int // only a partial outcome's offsets are checked against them
				if len(data) > 0 && data[0] == suggestPartial {
					if l, ok := layoutOf(j); ok {
						ranges = l.Ranges()
					}
				}
				if outcome, keep, ok := decodeSuggestKeep(data, ranges); ok && r.replaySuggestKeep(j, outcome, keep) {
					changed[k] = outcome != suggestNone
					return
				}
			}
		}
		outcome, keep, ranges, done := r.suggestKeep(j, words, ls, filter)
		changed[k] = outcome != suggestNone
		if store != nil && done {
			store.Put(key, encodeSuggestKeep(outcome, keep, ranges))
		}
	})
	if err := ctx.Err(); err != nil {
		return false, err
	}
	var upgraded []string
	for k, i := range todo {
		if changed[k] {
			upgraded = append(upgraded, r.hinted[i].path)
			if !r.hinted[i].partial {
				delete(r.partial, r.hinted[i].path)
			}
		}
	}
	return r.reindexHinted(upgraded), nil
}

// lostAnchor is a lost anchor and its pinned body's tokens.
type lostAnchor struct {
	a      anchors.Anchor
	origin []string
}

// suggestKeep is completeForSuggestions' work on one hinted file j: the
// declarations that may hold a suggestion are kept, parsed, and every
// declaration mentioning a suggestion's name kept too, until nothing
// grows. outcome says whether j's table changed (partial: the offsets
// kept; whole: parsed whole); done is false when the file was not
// finished (then nothing is stored).
func (r *checkRun) suggestKeep(j *hintedTable, words [][]byte, ls []lostAnchor, filter *anchors.GoSuggestFilter) (outcome int, keep map[int]bool, ranges [][2]int, done bool) {
	layout, ok := layoutOf(j)
	if !ok {
		j.decls, j.partial = r.tableOf(j.path, j.lang, j.sum, j.text).Decls, false
		j.lexed, j.lexedDecls = false, nil
		return suggestWhole, nil, nil, true
	}
	ranges, groups := layout.Ranges(), layout.BraceGroups()
	named := mentioning(j.text, words)
	keep, done = map[int]bool{}, true
	grew := false
	var ff *anchors.GoFileFilter
	for _, c := range ranges {
		if !j.lexed && named(c[0], c[1]) {
			keep[c[0]] = true
			continue
		}
		// A lexed file has no table yet, and its named declarations
		// are kept only if the filter lets them through: they decided
		// the file's anchors already (lexHinted), one the filter rules
		// out is no suggestion, and none is an open anchor's answer
		// (completeHinted's needs left the file partial). A suggestion's
		// name brings every declaration mentioning it in below.
		if ff == nil {
			ff = filter.File(j.text, ranges)
		}
		// The groups inside c, in the order they close: those that close
		// in it (none opens before a declaration and closes in it).
		lo := sort.Search(len(groups), func(i int) bool { return groups[i].End > c[0] })
		hi := lo + sort.Search(len(groups)-lo, func(i int) bool { return groups[lo+i].End > c[1] })
		if ff.May(c[0], c[1], groups[lo:hi]) {
			keep[c[0]], grew = true, true
		}
	}
	for grew {
		j.lexed, j.lexedDecls = false, nil
		t, ok := r.s.tables.partialGo(j.sum, j.text, layout, func(start, _ int) bool { return keep[start] })
		if !ok {
			j.decls, j.partial = r.tableOf(j.path, j.lang, j.sum, j.text).Decls, false
			return suggestWhole, nil, ranges, true
		}
		j.decls, outcome = t.Decls, suggestPartial
		grew = false
		for _, l := range ls {
			for _, s := range anchors.FileSuggestions(l.a, j.path, t.Decls, l.origin) {
				base := []byte(anchors.BaseName(s.Candidate().QualifiedName))
				for _, c := range ranges {
					if !keep[c[0]] && bytes.Contains(j.text[c[0]:c[1]], base) {
						keep[c[0]], grew = true, true
					}
				}
			}
		}
		// A table from a parse that gave up (the time limit) may lack a
		// suggestion: what it led to keep is not stored.
		done = done && !t.GaveUp
	}
	return outcome, keep, ranges, done
}

// replaySuggestKeep gives j the table suggestKeep gave it in an earlier
// run; false when that cannot be had (then suggestKeep runs).
func (r *checkRun) replaySuggestKeep(j *hintedTable, outcome int, keep map[int]bool) bool {
	switch outcome {
	case suggestWhole:
		j.decls, j.partial = r.tableOf(j.path, j.lang, j.sum, j.text).Decls, false
		j.lexed, j.lexedDecls = false, nil
	case suggestPartial:
		layout, ok := layoutOf(j)
		if !ok {
			return false
		}
		t, ok := r.s.tables.partialGo(j.sum, j.text, layout, func(start, _ int) bool { return keep[start] })
		if !ok {
			return false
		}
		j.decls = t.Decls
		j.lexed, j.lexedDecls = false, nil
	}
	return true
}
