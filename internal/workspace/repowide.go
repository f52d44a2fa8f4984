package workspace

import (
	"context"
	"crypto/sha256"
	"path"
	"runtime"
	"sort"
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// goBodyFilter: without the pinned body, a Go anchor's rename search
// reads the files' body hashes (need.goBody); tests turn it off to compare.
var goBodyFilter = true

// giveUpIn, set by tests, makes the repository-wide pass's parse of the
// files it names give up, as at the parse's time bound.
var giveUpIn func(path string) bool

// historyDepth is how many versions of a hinted file are searched for the
// declaration an anchor was pinned on.
const historyDepth = 20

// need is what one unsettled anchor asks of a candidate file before it is
// worth parsing.
type need struct {
	family string
	base   []byte   // stage 2: the identifier must occur as a word
	goFunc bool     // a Go function or method: it must occur as one is declared
	goMeth bool     // a Go method: also as an interface declares one
	rare   [][]byte // stages 3/4: rare tokens of the pinned body, when known
	shape  *anchors.BodyPattern
	body   bool // the anchor can be recovered by body (stages 3/4)
	// goBody: a Go anchor's pinned body hash when history does not hold
	// the body: a file may hold the answer only if it lists that hash
	// (symbols.GoBodyHashes).
	goBody string
	key    [sha256.Size]byte
}

// fingerprint is everything wants reads: the memo key of its answers.
func (n need) fingerprint(lang symbols.Language, body []string) [sha256.Size]byte {
	k := (&keyer{}).str(n.family).str(string(lang)).str(string(n.base)).str(n.goBody)
	switch {
	case n.goMeth:
		k.int(2)
	case n.goFunc:
		k.int(1)
	default:
		k.int(0)
	}
	if n.body {
		k.int(1)
	} else {
		k.int(0)
	}
	k.int(len(body))
	for _, t := range body {
		k.str(t)
	}
	return k.done()
}

// needFor is the need of an open anchor in language lang; body is the
// pinned body's tokens when history holds it (nil otherwise).
func needFor(a anchors.Anchor, lang symbols.Language, body []string) need {
	n := need{family: LanguageFamily(lang), base: []byte(anchors.BaseName(a.QualifiedName)), body: a.BodySHA != "",
		goFunc: lang == symbols.Go && (a.Kind == "function" || a.Kind == "method"), goMeth: lang == symbols.Go && a.Kind == "method"}
	if !n.body || len(body) == 0 || symbols.IsKeyLanguage(lang) {
		// A key's value tokens are in canonical (sorted) order, not the
		// file's, so the shape test would reject a file that holds it.
		body = nil
		if n.body && lang == symbols.Go && goBodyFilter {
			n.goBody = a.BodySHA
		}
	} else {
		for _, t := range rareTokens(body) {
			n.rare = append(n.rare, []byte(t))
		}
		p := anchors.NewBodyPattern(body, anchors.SyntaxFor(lang))
		n.shape = &p
	}
	n.key = n.fingerprint(lang, body)
	return n
}

func (n need) wants(content []byte, lang symbols.Language) bool {
	return n.wantsIn(&candidate{b: content, lang: lang})
}

// candidate is one file as the prefilter reads it: what the needs derive
// from its bytes is computed once for all of them.
type candidate struct {
	b      []byte
	lang   symbols.Language
	lexed  bool
	bodies []string // symbols.GoBodyHashes
	lexOK  bool
}

// holdsGoBody reports whether the Go file may hold a body of hash h: it
// lists it, or does not lex plainly (then only a parse can tell).
func (c *candidate) holdsGoBody(h string) bool {
	if !c.lexed {
		c.bodies, c.lexOK = symbols.GoBodyHashes(c.b)
		c.lexed = true
	}
	if !c.lexOK {
		return true
	}
	for _, b := range c.bodies {
		if b == h {
			return true
		}
	}
	return false
}

func (n need) wantsIn(c *candidate) bool {
	content, lang := c.b, c.lang
	if len(n.base) > 0 && declaresNameAs(content, n.base, n.shapeIn(lang)) {
		return true
	}
	if !n.body {
		return false
	}
	if n.shape == nil {
		if n.goBody != "" && lang == symbols.Go {
			return c.holdsGoBody(n.goBody)
		}
		return true // the pinned body is unknown: nothing to filter by
	}
	for _, t := range n.rare {
		if !anchors.ContainsRare(content, t) {
			return false
		}
	}
	return n.shape == nil || n.shape.MayOccur(content)
}

// needOf is what the repository-wide search looks for on behalf of a
// symbol anchor in a language with declaration tables (ok false otherwise).
func (r *checkRun) needOf(a anchors.Anchor) (need, bool) {
	if a.Form != anchors.FormSymbol {
		return need{}, false
	}
	lang, ok := symbols.LanguageForPath(a.Path)
	if !ok {
		return need{}, false
	}
	var body []string
	if a.BodySHA != "" {
		body = r.origin(a)
	}
	return needFor(a, lang, body), true
}

// repoWide reads the workspace's other code files within the budget, and
// parses, in parallel, only those that could hold an answer for one of the
// open anchors: the identifier's bytes for a move (stage 2), a rare token of
// the pinned body for a rename (stages 3/4).
//
// Under one disk state a disk file's content is fixed, so what a need's
// prefilter said of it, and the file's hash, are memoised by path
// (checkMemo): the pass after a keystroke reads only the open buffers and
// the files no earlier pass scanned for that need. The files accepted are
// then indexed as one part, memoised by the list of (path, hash) it holds.
func (r *checkRun) repoWide(ctx context.Context, open []anchors.Anchor) error {
	needs := make([]need, 0, len(open))
	families := map[string]bool{}
	var hintDirs []string
	for _, a := range open {
		n, ok := r.needOf(a)
		if !ok {
			continue
		}
		needs = append(needs, n)
		families[n.family] = true
		hintDirs = append(hintDirs, a.Path)
	}
	if len(needs) == 0 {
		r.wide, r.ix = anchors.NewIndex(), nil
		return nil
	}
	// The answers for this very set of needs, one lookup per file.
	keys := make([]string, len(needs))
	for i, n := range needs {
		keys[i] = string(n.key[:])
	}
	sort.Strings(keys)
	setKey := &keyer{}
	for _, k := range keys {
		setKey.str(k)
	}
	combo, ok := r.memo.combos.get(setKey.done())
	if !ok {
		combo = &comboSet{m: map[string]comboEntry{}}
		r.memo.combos.put(setKey.done(), combo)
	}
	sets := make([]*wantSet, len(needs))
	for i, n := range needs {
		ws, ok := r.memo.wants.get(n.key)
		if !ok {
			ws = &wantSet{m: map[string]bool{}}
			r.memo.wants.put(n.key, ws)
		}
		sets[i] = ws
	}
	scan := func(cands []string) ([]parsed, error) {
		return r.scanCandidates(ctx, cands, needs, sets, combo)
	}
	ck, dirs := candidateKey(families, hintDirs)
	pk := r.partKey(setKey.done(), ck, families)
	if done, err := r.fromPart(pk, families, dirs, scan); done || err != nil {
		return err
	}
	cands := r.candidates(ck, families, dirs)
	if r.partFromStore(pk, cands, dirs) {
		if done, err := r.fromPart(pk, families, dirs, scan); done || err != nil {
			return err
		}
	}
	// The pass may answer from what earlier passes of this Load read (the
	// memo: a server's, between two disk changes), so the stored pass
	// keeps only stats older than the Load (persistPart): a file written
	// since is read again.
	start := r.s.LoadedAt()
	// The coverage's reading tests the candidates in hand; scan reads
	// only those it did not.
	r.gate.share(newWideShare(r, cands, needs, sets, combo))
	results, err := scan(cands)
	if err != nil {
		return err
	}
	key := &keyer{}
	var accepted []parsed
	var sqlDirs []string
	complete := true
	for _, res := range results {
		if res.st == anchors.FileUnread {
			complete = false
			continue // not attempted: the budget stopped first
		}
		r.status[res.path] = res.st
		if res.decls != nil && r.s.isSQL(res.path) {
			// Indexed with its folder's history, below.
			if d := path.Dir(res.path); !r.sqlDirs[d] {
				r.sqlDirs[d] = true
				sqlDirs = append(sqlDirs, d)
			}
			continue
		}
		if res.decls != nil {
			r.sums[res.path] = res.sum
			key.str(res.path).sum(res.sum)
			accepted = append(accepted, res)
		}
	}
	for _, d := range sqlDirs {
		for _, f := range r.sqlHistory(d) {
			key.str(f.path).sum(f.sum)
			accepted = append(accepted, parsed{path: f.path, sum: f.sum, decls: f.decls, st: anchors.FileOK})
		}
	}
	r.wideKey = key.done()
	r.ix = nil
	var ix *anchors.Index
	if hit, ok := r.memo.wide.get(r.wideKey); ok && !r.sp.stopped() {
		ix = hit
	} else {
		ix = anchors.NewIndex()
		for _, res := range accepted {
			ix.Add(res.path, res.decls)
		}
		if !r.sp.stopped() {
			r.memo.wide.put(r.wideKey, ix)
		}
	}
	r.wide = ix
	if complete && len(sqlDirs) == 0 && !r.lazy && !r.sp.stopped() {
		r.memo.parts.put(pk, r.newPart(results, accepted, ix, dirs))
		r.persistPart(pk, cands, results, start)
	}
	return nil
}

// parsed is what the repository-wide pass learnt of one candidate.
type parsed struct {
	path  string
	sum   [sha256.Size]byte
	decls []symbols.Decl
	st    anchors.FileStatus
	size  int
	spent bool // parsed within the budget (counted in files and bytes)
	// gaveUp: the parse stopped at its time bound (symbols.Table.GaveUp):
	// decls are not the file's, and nothing of this pass may outlive it.
	gaveUp bool
}

// scanCandidates runs the prefilter over cands in parallel, scanChunk
// files per job read in one batch, and parses the files it accepts within
// the budget; results are in cands' order.
func (r *checkRun) scanCandidates(ctx context.Context, cands []string, needs []need, sets []*wantSet, combo *comboSet) ([]parsed, error) {
	results := make([]parsed, len(cands))
	jobs := make(chan int)
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), max(1, len(cands)))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for first := range jobs {
				last := min(first+scanChunk, len(cands))
				if r.visitChunk(ctx, first, last, cands, needs, sets, combo, results) {
					continue
				}
				reads := r.prefetch(cands[first:last], combo)
				for i := first; i < last; i++ {
					r.scanOne(ctx, i, cands, needs, sets, combo, results, reads[cands[i]])
				}
			}
		}()
	}
	for i := 0; i < len(cands); i += scanChunk {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return results, ctx.Err()
}

// scanChunk is how many candidates one worker reads at once (through the
// adapter's ManyReader: an open, a stat and a read per file, where a
// lone read resolves every path component).
const scanChunk = 64

// visitChunk is scanOne for candidates first..last-1 through the adapter's
// VisitMany: the files to read are read in one batch into one reused
// buffer, each scanned (and parsed, when wanted) before the next is read,
// so the thousands of files the pass drops are never copied; the others
// are scanned from the memo. It reports false, doing nothing, when the
// adapter cannot visit or the budget stopped (then prefetch reads).
func (r *checkRun) visitChunk(ctx context.Context, first, last int, cands []string, needs []need, sets []*wantSet, combo *comboSet, results []parsed) bool {
	mv, ok := r.s.files.(ManyVisitor)
	if !ok || r.sp.stopped() {
		return false
	}
	batch := r.toRead(cands[first:last], combo)
	at := make(map[string]int, len(batch))
	for _, p := range batch {
		at[p] = -1
	}
	for i := first; i < last; i++ {
		if _, read := at[cands[i]]; read {
			at[cands[i]] = i
			continue
		}
		r.scanOne(ctx, i, cands, needs, sets, combo, results, nil)
	}
	max := r.s.maxFileBytes()
	mv.VisitMany(batch, max, func(k int, fr FileRead) {
		r.scanOne(ctx, at[batch[k]], cands, needs, sets, combo, results, preReadOf(fr, max))
	})
	return true
}

// toRead are the disk candidates among paths whose prefilter answers are
// not memoised (those scan would read), in paths' order.
func (r *checkRun) toRead(paths []string, combo *comboSet) []string {
	var todo []string
	r.memo.factsMu.Lock()
	for _, p := range paths {
		if _, open := r.s.overlays[p]; open {
			continue
		}
		if _, known := r.memo.facts[p]; known {
			continue
		}
		todo = append(todo, p)
	}
	r.memo.factsMu.Unlock()
	batch := todo[:0]
	for _, p := range todo {
		if _, ok := combo.get(p); ok {
			continue
		}
		if anchors.CheckPath(p) != "" {
			continue
		}
		batch = append(batch, p)
	}
	return batch
}

// prefetch reads, in one batch, the disk candidates among paths whose
// prefilter answers are not memoised (those scan would read).
func (r *checkRun) prefetch(paths []string, combo *comboSet) map[string]*preRead {
	mr, ok := r.s.files.(ManyReader)
	if !ok || r.sp.stopped() {
		return nil
	}
	batch := r.toRead(paths, combo)
	if len(batch) == 0 {
		return nil
	}
	out := make(map[string]*preRead, len(batch))
	max := r.s.maxFileBytes()
	res := mr.ReadMany(batch, max)
	for i, p := range batch {
		if pre := preReadOf(res[i], max); pre != nil {
			out[p] = pre
		}
	}
	return out
}

// preRead is a candidate's bytes and status as readUncached gives them,
// read ahead in a batch.
type preRead struct {
	b  []byte
	st anchors.FileStatus
}

// preReadOf is a batch read as readUncached would give it; nil when the
// batch failed on it (readCandidate then reads it alone).
func preReadOf(fr FileRead, max int64) *preRead {
	b, st, ok := fr.content(max)
	if !ok {
		return nil
	}
	return &preRead{b: b, st: st}
}

// readCandidate is readUncached, from a read made ahead when there is one.
func (r *checkRun) readCandidate(p string, pre *preRead) ([]byte, anchors.FileStatus) {
	if pre == nil {
		return r.s.readUncached(p)
	}
	return pre.b, pre.st
}

// scanOne is scanCandidates' work for candidate i.
func (r *checkRun) scanOne(ctx context.Context, i int, cands []string, needs []need, sets []*wantSet, combo *comboSet, results []parsed, pre *preRead) {
	p := cands[i]
	results[i].path = p
	// Scanning a file for the prefilter costs time only; the
	// files and bytes limits count the files parsed.
	if ctx.Err() != nil || !r.sp.allowScan() {
		results[i].st = anchors.FileUnread
		return
	}
	lang, _ := r.s.Language(p)
	var fact diskFact
	var b []byte
	var wanted bool
	if _, open := r.s.overlays[p]; open {
		fact, b, wanted = r.scan(p, lang, needs, sets, nil)
	} else if e, ok := combo.get(p); ok {
		fact, wanted = e.fact, e.wanted
	} else {
		fact, b, wanted = r.scan(p, lang, needs, sets, pre)
		combo.put(p, comboEntry{fact, wanted})
	}
	results[i].st, results[i].sum, results[i].size = fact.st, fact.sum, fact.size
	if fact.st != anchors.FileOK || !wanted {
		return
	}
	if !r.sp.allow() {
		results[i].st = anchors.FileUnread
		return
	}
	r.sp.spend(fact.size)
	results[i].spent = true
	t, sum := r.table(p, lang, fact, b)
	if giveUpIn != nil && giveUpIn(p) {
		t = symbols.Table{Language: lang, GaveUp: true}
	}
	results[i].decls, results[i].gaveUp = t.Decls, t.GaveUp
	if !fact.hashed && t.Decls != nil {
		// Dropped unhashed by an earlier pass: hashed now, from the read
		// the table was parsed from.
		results[i].sum = sum
		if _, open := r.s.overlays[p]; !open {
			fact.sum, fact.hashed = sum, true
			r.memo.putFact(p, fact)
			combo.put(p, comboEntry{fact, true})
		}
	}
}

// scan is the prefilter's verdict on one candidate: whether any need wants
// it. An open buffer is always scanned; a disk file is read only when a
// need has not scanned it under this disk state. b is nil when the file
// was not read.
func (r *checkRun) scan(p string, lang symbols.Language, needs []need, sets []*wantSet, pre *preRead) (diskFact, []byte, bool) {
	if ob, ok := r.s.overlays[p]; ok {
		f := diskFact{st: classify(ob, r.s.config.Budget.MaxFileBytes), size: len(ob)}
		if f.st != anchors.FileOK {
			return f, nil, false
		}
		f.sum, f.hashed = r.s.overlaySum(p, ob), true
		c := &candidate{b: ob, lang: lang}
		for _, n := range needs {
			if n.family == LanguageFamily(lang) && n.wantsIn(c) {
				return f, ob, true
			}
		}
		return f, ob, false
	}
	m := r.memo
	m.factsMu.Lock()
	fact, known := m.facts[p]
	m.factsMu.Unlock()
	if known {
		all, wanted := true, false
		for i, n := range needs {
			if n.family != LanguageFamily(lang) {
				continue
			}
			sets[i].mu.Lock()
			w, ok := sets[i].m[p]
			sets[i].mu.Unlock()
			if !ok {
				all = false
				continue
			}
			if w {
				wanted = true
				break
			}
		}
		if fact.st != anchors.FileOK || all || wanted {
			return fact, nil, wanted && fact.st == anchors.FileOK
		}
	}
	prev := fact
	b, st := r.readCandidate(p, pre)
	fact = diskFact{st: st, size: len(b)}
	if known && prev.hashed && prev.st == st && prev.size == len(b) {
		// Under one disk state a file's content is fixed: its hash too.
		fact.sum, fact.hashed = prev.sum, true
	}
	if st != anchors.FileOK {
		m.putFact(p, fact)
		return fact, nil, false
	}
	wanted := false
	c := &candidate{b: b, lang: lang}
	for i, n := range needs {
		if n.family != LanguageFamily(lang) {
			continue
		}
		w := n.wantsIn(c)
		sets[i].mu.Lock()
		sets[i].m[p] = w
		sets[i].mu.Unlock()
		if w {
			wanted = true
			break
		}
	}
	// Only a file some need wants is hashed (its table's key); a dropped
	// one is hashed if a later pass wants it (scanOne).
	if wanted && !fact.hashed {
		fact.sum, fact.hashed = sha256.Sum256(b), true
	}
	m.putFact(p, fact)
	return fact, b, wanted
}

// table is a candidate's declaration table and its content hash: memoised
// by content, or parsed from b (read again when the scan answered from the
// memo).
func (r *checkRun) table(p string, lang symbols.Language, fact diskFact, b []byte) (symbols.Table, [sha256.Size]byte) {
	if fact.hashed {
		if t, ok := r.s.tables.lookup(lang, fact.sum); ok {
			return t, fact.sum
		}
	}
	sum := fact.sum
	if b == nil {
		var st anchors.FileStatus
		if b, st = r.s.readUncached(p); st != anchors.FileOK {
			return symbols.Table{}, sum
		}
		sum = sha256.Sum256(b)
	} else if !fact.hashed {
		sum = sha256.Sum256(b)
	}
	return r.tableOf(p, lang, sum, b), sum
}

// candidateKey is the memo key of the listed candidates for these
// families and hints, and the hints' directories.
func candidateKey(families map[string]bool, hintDirs []string) ([sha256.Size]byte, map[string]bool) {
	key := &keyer{}
	fams := make([]string, 0, len(families))
	for f := range families {
		fams = append(fams, f)
	}
	sort.Strings(fams)
	for _, f := range fams {
		key.str(f)
	}
	key.int(-1)
	dirs := map[string]bool{}
	for _, h := range hintDirs {
		dirs[path.Dir(h)] = true
	}
	for _, d := range sortedKeys(dirs) {
		key.str(d)
	}
	return key.done(), dirs
}

// candidates are the code files of the open anchors' language families not
// read yet, the hints' directories first (a move is most often next door),
// then path order. The list is memoised for the disk's files (by k, from
// candidateKey).
func (r *checkRun) candidates(k [sha256.Size]byte, families, dirs map[string]bool) []string {
	listed, ok := r.memo.cands.get(k)
	if !ok {
		var near, far []string
		for _, p := range r.s.listed() {
			lang, ok := r.s.Language(p)
			if !ok || !families[LanguageFamily(lang)] {
				continue
			}
			if dirs[path.Dir(p)] {
				near = append(near, p)
			} else {
				far = append(far, p)
			}
		}
		listed = append(near, far...)
		r.memo.cands.put(k, listed)
	}
	near, far := r.newCandidates(families, dirs)
	out := make([]string, 0, len(listed)+len(near)+len(far))
	for _, p := range listed {
		if _, done := r.status[p]; !done {
			out = append(out, p)
		}
	}
	if len(near)+len(far) == 0 {
		return out
	}
	// Unsaved new files take their place in path order, as Files() has them.
	return mergeCandidates(out, near, far, dirs)
}

// newCandidates are the unsaved new files among the candidates.
func (r *checkRun) newCandidates(families, dirs map[string]bool) (near, far []string) {
	for p := range r.s.overlays {
		if _, done := r.status[p]; done || r.s.inList(p) {
			// Listed files are in listed; a new file some anchor hints
			// was indexed by the cheap pass already (twice, it was one
			// declaration seen as two: ambiguous with itself).
			continue
		}
		if lang, ok := r.s.Language(p); ok && families[LanguageFamily(lang)] {
			if dirs[path.Dir(p)] {
				near = append(near, p)
			} else {
				far = append(far, p)
			}
		}
	}
	return near, far
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// mergeCandidates inserts unsaved new files into the near and far runs of
// listed, each run in path order.
func mergeCandidates(listed, near, far []string, dirs map[string]bool) []string {
	var ln, lf []string
	for _, p := range listed {
		if dirs[path.Dir(p)] {
			ln = append(ln, p)
		} else {
			lf = append(lf, p)
		}
	}
	ln = append(ln, near...)
	lf = append(lf, far...)
	sort.Strings(ln)
	sort.Strings(lf)
	return append(ln, lf...)
}

// origin returns the body tokens of the declaration an anchor was pinned
// on, found in the hinted file's history by its pinned hashes. It is nil
// when history has no such version (or there is no git).
func (r *checkRun) origin(a anchors.Anchor) []string {
	key := originKey(a)
	if toks, ok := r.memo.origins.get(key); ok {
		return toks
	}
	toks := r.pinnedBody(a, r.history(a))
	r.memo.origins.put(key, toks)
	return toks
}

func originKey(a anchors.Anchor) string {
	return a.Path + "\x00" + a.DeclSHA + "," + a.BodySHA
}

// history is the versions of a's file origin searches (nil without git,
// a grammar or a pin).
func (r *checkRun) history(a anchors.Anchor) [][]byte {
	if _, ok := symbols.LanguageForPath(a.Path); !ok || r.s.git == nil || !a.Pinned() {
		return nil
	}
	return r.s.git.History(a.Path, historyDepth)
}

// pinnedBody is origin's search of the versions, newest first.
func (r *checkRun) pinnedBody(a anchors.Anchor, versions [][]byte) []string {
	lang, _ := symbols.LanguageForPath(a.Path)
	for _, blob := range versions {
		if lang == symbols.Go {
			if toks, found, decided := r.goPinned(a, blob); decided {
				if found {
					return toks
				}
				continue
			}
		}
		if toks, found := pinnedIn(a, r.s.tables.parse(lang, blob).Decls); found {
			return toks
		}
	}
	return nil
}

// pinnedIn is the body of the first of decls the anchor was pinned on.
func pinnedIn(a anchors.Anchor, decls []symbols.Decl) ([]string, bool) {
	for _, d := range decls {
		if (a.BodySHA != "" && d.BodyHash == a.BodySHA) || d.DeclHash == a.DeclSHA {
			return d.Body.Strings(), true
		}
	}
	return nil, false
}

// goPinned is pinnedIn for one version of a Go file without parsing it
// whole; decided is false when it cannot tell (the version is parsed
// whole then). Under the current hash scheme a declaration with the pin's
// DeclSHA has the pin's tokens, so its body is the pinned one: every
// declaration pinnedIn can return has BodyHash a.BodySHA, and in a
// well-formed file its body is one of the groups symbols.GoBodySpans
// finds. A version without such a group holds none (a depth-1 clone's
// only version of a broken anchor's file, most often); in the others only
// the declarations around them are parsed, in the file's order, so the
// first found is the first pinnedIn would find in the whole table. A
// partial parse that fails or finds nothing leaves it to the whole parse.
func (r *checkRun) goPinned(a anchors.Anchor, blob []byte) (toks []string, found, decided bool) {
	return goPinned(a, blob, r.s.tables.partialGo)
}

// partialGoParse is tableCache.partialGo's shape: the table of the
// declarations of src that keep accepts.
type partialGoParse func(sum [sha256.Size]byte, src []byte, layout *symbols.GoLayout, keep func(start, end int) bool) (symbols.Table, bool)

func goPinned(a anchors.Anchor, blob []byte, partial partialGoParse) (toks []string, found, decided bool) {
	if a.BodySHA == "" || a.Scheme != symbols.HashScheme {
		return nil, false, false
	}
	spans, ok := symbols.GoBodySpans(blob, a.BodySHA)
	if !ok {
		return nil, false, false
	}
	if len(spans) == 0 {
		return nil, false, true
	}
	layout, ok := symbols.LexGoLayout(blob)
	if !ok {
		return nil, false, false
	}
	t, ok := partial(sha256.Sum256(blob), blob, layout, func(start, end int) bool {
		for _, sp := range spans {
			if sp[0] < end && start < sp[1] {
				return true
			}
		}
		return false
	})
	if !ok || t.GaveUp {
		return nil, false, false
	}
	toks, found = pinnedIn(a, t.Decls)
	return toks, found, found
}

// warmOrigins is origin for each open anchor whose need reads it (a
// symbol anchor pinned with a body), the versions parsed on all cores:
// each is the parse of a whole file or two, and the needs of the
// repository-wide pass and of completeHinted wait for them. The history
// is read one anchor at a time, as origin reads it.
func (r *checkRun) warmOrigins(open []anchors.Anchor) {
	type job struct {
		a        anchors.Anchor
		key      string
		versions [][]byte
		toks     []string
	}
	var jobs []job
	seen := map[string]bool{}
	for _, a := range open {
		if a.Form != anchors.FormSymbol || a.BodySHA == "" {
			continue
		}
		key := originKey(a)
		if seen[key] {
			continue
		}
		seen[key] = true
		if _, ok := r.memo.origins.get(key); ok {
			continue
		}
		jobs = append(jobs, job{a: a, key: key, versions: r.history(a)})
	}
	parallel(len(jobs), func(i int) {
		jobs[i].toks = r.pinnedBody(jobs[i].a, jobs[i].versions)
	})
	for _, j := range jobs {
		r.memo.origins.put(j.key, j.toks)
	}
}

// rareTokens picks up to two identifier-like tokens of a body, longest
// first: long identifiers are rare across a code base, so requiring them
// skips almost every file without parsing it.
func rareTokens(body []string) []string {
	seen := map[string]bool{}
	var ids []string
	for _, t := range body {
		if len(t) < 4 || seen[t] || commonWords[t] || !isIdent(t) {
			continue
		}
		seen[t] = true
		ids = append(ids, t)
	}
	sort.SliceStable(ids, func(i, j int) bool {
		if len(ids[i]) != len(ids[j]) {
			return len(ids[i]) > len(ids[j])
		}
		return ids[i] < ids[j]
	})
	if len(ids) > 2 {
		ids = ids[:2]
	}
	return ids
}

func isIdent(s string) bool {
	for i, c := range s {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}

// commonWords are keywords and names too frequent to filter by.
var commonWords = map[string]bool{
	"return": true, "func": true, "function": true, "const": true, "self": true, "this": true,
	"null": true, "true": true, "false": true, "else": true, "break": true, "continue": true,
	"string": true, "String": true, "error": true, "void": true, "static": true, "public": true,
	"private": true, "final": true, "while": true, "range": true, "len": true, "nil": true,
	"None": true, "True": true, "False": true, "await": true, "async": true, "throw": true,
	"catch": true, "case": true, "switch": true, "default": true, "import": true, "from": true,
	"struct": true, "class": true, "new": true, "let": true, "var": true, "int": true,
	"bool": true, "byte": true, "char": true, "double": true, "float": true, "size": true,
}

// readUncached reads a file for the repository-wide pass without keeping it
// in the snapshot: those files are many and needed once.
func (s *Snapshot) readUncached(p string) ([]byte, anchors.FileStatus) {
	if b, ok := s.overlays[p]; ok {
		return b, classify(b, s.config.Budget.MaxFileBytes)
	}
	return s.readDisk(p)
}

// nameShape is how a declared name must occur for the move prefilter.
type nameShape int

const (
	anyWord    nameShape = iota // as a whole word
	goFunction                  // `func Name(`, `func (r T) Name[`
	goMethod                    // that, or an interface's `Name(` at the start of a line (or after `{`, `;`)
)

func (n need) shapeIn(lang symbols.Language) nameShape {
	switch {
	case lang != symbols.Go || !n.goFunc:
		return anyWord
	case n.goMeth:
		return goMethod
	}
	return goFunction
}

// declaresName reports whether name occurs in content as a whole word: a
// declaration's name is always one token, so a word test never loses one
// that a substring test finds. goFunc narrows it to how Go declares a
// function or method: `func Name(`, `func (r T) Name[`.
func declaresName(content, name []byte, goFunc bool) bool {
	if goFunc {
		return declaresNameAs(content, name, goFunction)
	}
	return declaresNameAs(content, name, anyWord)
}

// declaresNameAs is declaresName for one shape.
func declaresNameAs(content, name []byte, shape nameShape) bool {
	k := anchors.RarestByte(name)
	for off := 0; ; {
		i := anchors.IndexRare(content[off:], name, k)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(name)
		off = i + 1
		if i > 0 && isWordByte(content[i-1]) || end < len(content) && isWordByte(content[end]) {
			continue
		}
		if shape == anyWord || goFuncShape(content, i, end) || shape == goMethod && goIfaceMethodShape(content, i, end) {
			return true
		}
	}
}

// eachWord calls fn with every maximal run of word bytes in text, in
// order, until fn returns false.
func eachWord(text []byte, fn func(word []byte) bool) {
	for i := 0; i < len(text); {
		if !isWordByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isWordByte(text[j]) {
			j++
		}
		if !fn(text[i:j]) {
			return
		}
		i = j
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// goIfaceMethodShape: the word at [i, end) starts an interface element
// (after a line break, `{` or `;`, blanks between) and is followed by `(`.
func goIfaceMethodShape(content []byte, i, end int) bool {
	for end < len(content) && (content[end] == ' ' || content[end] == '\t') {
		end++
	}
	if end == len(content) || content[end] != '(' {
		return false
	}
	for i > 0 && (content[i-1] == ' ' || content[i-1] == '\t') {
		i--
	}
	return i == 0 || content[i-1] == '\n' || content[i-1] == '{' || content[i-1] == ';'
}

// goFuncShape: the word at [i, end) is preceded by `func` or a receiver's
// `)` and followed by `(` or `[`, blanks between.
func goFuncShape(content []byte, i, end int) bool {
	for end < len(content) && (content[end] == ' ' || content[end] == '\t') {
		end++
	}
	if end == len(content) || content[end] != '(' && content[end] != '[' {
		return false
	}
	for i > 0 && (content[i-1] == ' ' || content[i-1] == '\t') {
		i--
	}
	return i > 0 && content[i-1] == ')' ||
		i >= 4 && string(content[i-4:i]) == "func" && (i == 4 || !isWordByte(content[i-5]))
}

// maxFileBytes is the size above which a file is not read (readDisk's).
func (s *Snapshot) maxFileBytes() int64 {
	if m := s.config.Budget.MaxFileBytes; m != 0 {
		return m
	}
	return DefaultBudget().MaxFileBytes
}
