package workspace

import (
	"context"
	"crypto/sha256"
	"path"
	"runtime"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// CheckOptions tune one check.
type CheckOptions struct {
	// Strict makes unpinned anchors gate (verify --strict).
	Strict bool
	// Budget, when set, replaces the configured budget as is (tests and
	// benchmarks use it to starve or to lift the limits).
	Budget *Budget
	// Write says the caller will apply the self-heal (verify without
	// --check); it only changes the wording of moved claim legs.
	Write bool
	// Worktree reads sibling repositories' working trees instead of their
	// channel refs (multivac's --worktree).
	Worktree bool
	// Mentions adds the mention coverage (Report.MentionCoverage): verify
	// reports it; the server's diagnosis passes leave it out, as it reads
	// every code file that declares a mentioned name.
	Mentions bool
	// PartialHinted parses, of a hinted Go file, only the declarations
	// that mention the names its anchors look for (symbols.ParseGoDecls),
	// and parses the rest of the file only when an anchor left open might
	// find its answer or a suggestion there (partial.go). The verdicts
	// are those of whole tables; the report's DeclIndex holds only what
	// was parsed, so callers that read it (completion, confirm) leave
	// this off. verify sets it.
	PartialHinted bool
	// Clock, when set, is what the budget's max_ms bounds instead of
	// wall-clock time: verify gives its process's processor time, so the
	// same tree stops at the same point however loaded the machine is.
	Clock func() time.Duration
}

// Check verifies every code anchor of the snapshot. It never fails on broken
// input; it returns ctx.Err() only when cancelled.
func (s *Snapshot) Check(ctx context.Context, opt CheckOptions) (*Report, error) {
	b := s.config.Budget
	if opt.Budget != nil {
		b = *opt.Budget
	}
	run := &checkRun{s: s, sp: newSpender(b, opt.Clock), extra: anchors.NewIndex(), memo: s.memo,
		status: map[string]anchors.FileStatus{}, sums: map[string][sha256.Size]byte{}, sqlDirs: map[string]bool{}}

	docs, diags := s.parseDocs()
	all := docs.anchors
	// The mention coverage's reading of the code files needs no anchor's
	// answer: it runs beside the anchors' passes.
	var ment *mentionsRun
	if opt.Mentions {
		ment = s.startMentions(docs.hinted)
		defer ment.wait() // an early return leaves nothing reading
		run.gate = ment.gate
	}

	// Cheap pass: only the hinted files.
	if opt.PartialHinted {
		run.partialWords, run.lex = partialWords(s, all)
	}
	if err := run.loadAll(ctx, docs.hinted); err != nil {
		return nil, err
	}
	results := make([]anchors.Result, len(all))
	var unsettled []int
	for i, a := range all {
		var settled bool
		results[i], settled = run.resolveCheap(a, docs.keys[i])
		if !settled {
			unsettled = append(unsettled, i)
		}
	}

	// Repository-wide pass, only for what the cheap pass left open.
	if len(unsettled) == 0 {
		run.gate.share(nil) // no pass to share: the coverage reads alone, now
	} else {
		open := make([]anchors.Anchor, len(unsettled))
		for j, i := range unsettled {
			open[j] = all[i]
		}
		run.warmOrigins(open)
		if _, err := run.completeHinted(ctx, open, false); err != nil {
			return nil, err
		}
		if err := run.repoWide(ctx, open); err != nil {
			return nil, err
		}
		run.gate.share(nil) // the pass did not scan: the coverage reads alone
		complete := !run.sp.stopped()
		var lost []int
		for _, i := range unsettled {
			if complete {
				results[i] = run.resolveWide(all[i], docs.keys[i])
				if results[i].State == anchors.StateLost {
					lost = append(lost, i)
				}
			} else {
				// Never report lost (or a guess) for a search that did not
				// finish: the anchor keeps its last known state.
				results[i] = anchors.Result{State: anchors.StateUnchecked,
					Detail: anchors.Detail{Reason: anchors.ReasonBudget, Path: all[i].Path}}
			}
		}
		// A lost anchor's suggestions rank every indexed declaration:
		// the partial hinted files that may hold one are parsed whole.
		if len(lost) > 0 {
			lostAnchors := make([]anchors.Anchor, len(lost))
			for j, i := range lost {
				lostAnchors[j] = all[i]
			}
			more, err := run.completeHinted(ctx, lostAnchors, true)
			if err != nil {
				return nil, err
			}
			for _, i := range lost {
				if more {
					results[i] = run.resolveWide(all[i], docs.keys[i])
				}
			}
		}
	}

	rep := &Report{
		Complete:           !run.sp.stopped(),
		UncheckedAnchorIDs: []string{},
		Anchors:            make([]AnchorReport, 0, len(all)),
		Claims:             []ClaimReport{},
		Diagnostics:        diags,
		Skipped:            run.skipped(),
	}
	for i, a := range all {
		r := results[i]
		if r.State == anchors.StateLost && r.Detail.Reason == anchors.ReasonDeclarationMissing && r.Detail.Note == "" {
			r.Detail.Note = s.sqlDropNote(a)
		}
		ar := AnchorReport{
			ID: a.ID(), Doc: a.Doc, Line: a.Line, Claim: a.Claim, Kind: a.Kind,
			QualifiedName: a.QualifiedName, Path: a.Path, State: r.State, Detail: r.Detail,
			Anchor: a, Found: r.Found,
		}
		if a.Form == anchors.FormLines {
			ar.QualifiedName = anchors.LinesRef(a.Path, a.StartLine, a.EndLine)
		}
		ar.Gating = s.config.IsBlocking(string(r.State), opt.Strict)
		if r.State == anchors.StateUnchecked {
			rep.UncheckedAnchorIDs = append(rep.UncheckedAnchorIDs, a.ID())
		}
		rep.Anchors = append(rep.Anchors, ar)
	}
	rep.index = run.index()
	rep.Budget = run.sp.report()
	rep.FallbackShare = fallbackShare(all)
	// The rest of the mention coverage needs the anchors' answers; it
	// runs while the claims' preparation (WarmClaims) may still be reading.
	if opt.Mentions {
		cov, _, _ := s.mentionsFinish(ment.wait(), rep)
		rep.MentionCoverage = &cov
	}
	if err := s.checkClaims(ctx, rep, opt); err != nil {
		return nil, err
	}
	rep.Exit = exitCode(rep)
	return rep, nil
}

// parsedDocs is every anchor of every doc, in doc then line order, with
// their memo keys (parsedDoc.keys) and their hinted paths (sorted, once).
type parsedDocs struct {
	anchors []anchors.Anchor
	keys    [][sha256.Size]byte
	hinted  []string
}

func (s *Snapshot) parseDocs() (parsedDocs, []Diagnostic) {
	var out parsedDocs
	diags := append([]Diagnostic{}, s.cfgDiags...)
	many := false
	// One batch read for the docs not read yet (one open of each folder,
	// four system calls a file), not a path walk and a stat for each.
	s.Preload(s.Docs())
	for _, doc := range s.Docs() {
		text, st, sum := s.readDoc(doc)
		if st != anchors.FileOK {
			continue
		}
		parsed := s.tables.parseDocSum(doc, text, sum)
		switch {
		case len(parsed.anchors) == 0:
		case out.anchors == nil:
			// The first doc's anchors are used as they are (a workspace
			// whose anchors are in one large doc copied them on every
			// keystroke); capped, so a second doc's append copies
			// instead of writing into the cached slices.
			out.anchors, out.keys, out.hinted = slices.Clip(parsed.anchors), slices.Clip(parsed.keys), parsed.paths
		default:
			out.anchors = append(out.anchors, parsed.anchors...)
			out.keys = append(out.keys, parsed.keys...)
			many = true
		}
		for _, d := range parsed.diags {
			diags = append(diags, fromAnchorDiag(d))
		}
	}
	if many {
		out.hinted = hintedPaths(out.anchors)
	}
	return out, diags
}

func fromAnchorDiag(d anchors.Diagnostic) Diagnostic {
	return Diagnostic{Doc: d.Doc, Line: d.Line, Severity: d.Severity, Code: d.Code, Message: d.Message,
		StartByte: d.Span.Start, EndByte: d.Span.End}
}

func hintedPaths(all []anchors.Anchor) []string {
	seen := map[string]bool{}
	var out []string
	for _, a := range all {
		if !seen[a.Path] {
			seen[a.Path] = true
			out = append(out, a.Path)
		}
	}
	sort.Strings(out)
	return out
}

func fallbackShare(all []anchors.Anchor) FallbackShare {
	f := FallbackShare{Total: len(all)}
	for _, a := range all {
		// A doc section has an identity (its heading); a whole doc or a
		// line range does not.
		if a.Form != anchors.FormSymbol && a.Section == "" {
			f.Fallback++
		}
	}
	if f.Total > 0 {
		f.Share = float64(int(float64(f.Fallback)/float64(f.Total)*10000+0.5)) / 10000
	}
	return f
}

// exitCode follows docs/exit-codes.md: 2 for a config error, 1 when
// anything gates or a doc has a parse error, else 0.
func exitCode(r *Report) int {
	code := 0
	for _, d := range r.Diagnostics {
		if d.Code == CodeConfigInvalid {
			return 2
		}
		if d.Severity == SeverityError {
			code = 1
		}
	}
	for _, a := range r.Anchors {
		if a.Gating {
			code = 1
		}
	}
	if r.claims != nil && r.claims.Exit > code {
		code = r.claims.Exit
	}
	return code
}

// checkRun is the mutable state of one check: which files were read, the
// index built from them, and the budget.
type checkRun struct {
	s    *Snapshot
	sp   *spender
	memo *checkMemo
	// The index is stacked: the hinted files (cheap), files read lazily
	// during resolution (extra, in practice none), the files of the
	// repository-wide pass (wide). cheapKey and wideKey fingerprint them.
	cheap, extra, wide *anchors.Index
	ix                 *anchors.Index // the stack of the current phase
	lazy               bool           // extra holds a file: skip the memos
	cheapKey, wideKey  [sha256.Size]byte
	status             map[string]anchors.FileStatus
	sums               map[string][sha256.Size]byte // content hash of every indexed file
	cheapPaths         [sha256.Size]byte            // the hinted files' paths (not contents)
	// The memoised part of a repository-wide pass (widepart.go): its
	// files' statuses and hashes, read through statusOf and sumOf.
	wideStatus  map[string]anchors.FileStatus
	wideSums    map[string][sha256.Size]byte
	wideSkipped []SkippedFile
	sqlDirs     map[string]bool // folders whose SQL history the cheap index holds
	// partialWords are, per hinted Go file, the names its anchors look
	// for (CheckOptions.PartialHinted); hinted holds what loadAll indexed
	// and partial which of those tables are partial (partial.go).
	partialWords map[string][][]byte
	hinted       []hintedTable
	partial      map[string]bool
	lex          lexState // hinted Go files decided without a parse (partial.go)
	// gate hands the repository-wide pass's needs to mention coverage's
	// reading, when it runs beside (mentions_share.go).
	gate *scanGate
	// key is the buffer resolveCheap and resolveWide build their memo
	// keys in (one anchor at a time: a key per anchor allocated most of
	// a keystroke's garbage).
	key keyer
	// paths are pathsOf's files, sorted (suggest).
	paths   []string
	pathsOf *anchors.Index
}

// mentionsRun is the mention coverage's first part, running beside the
// anchors' passes.
type mentionsRun struct {
	wg    sync.WaitGroup
	first *mentionsRead
	gate  *scanGate
}

// startMentions starts the coverage's first part; its reading of the
// hinted files does not wait for the repository-wide pass's offer (they
// are never its candidates).
func (s *Snapshot) startMentions(hinted []string) *mentionsRun {
	m := &mentionsRun{gate: newScanGate(hinted)}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer m.gate.readOver() // no reading (no mentions): nothing to wait for
		m.first = s.mentionsFirst(true, m.gate)
	}()
	return m
}

// wait is the first part's answer, once it is done.
func (m *mentionsRun) wait() *mentionsRead {
	m.gate.share(nil)
	m.wg.Wait()
	return m.first
}

// keyBuf is r.key emptied, for one key built and hashed before the next.
func (r *checkRun) keyBuf() *keyer {
	r.key.h = r.key.h[:0]
	return &r.key
}

// index is the check's whole index, as a single one built in read order.
func (r *checkRun) index() *anchors.Index {
	if r.ix == nil {
		parts := []*anchors.Index{r.cheap, r.extra}
		if r.wide != nil {
			parts = append(parts, r.wide)
		}
		r.ix = anchors.NewIndexOver(parts...)
	}
	return r.ix
}

func (r *checkRun) env() anchors.Env {
	return anchors.Env{Index: r.index(), File: r.file, Origin: r.origin, PreExisting: r.preExisting, Suggest: r.suggest,
		SameHistory: r.s.sameSQLHistory}
}

// resolveCheap resolves an anchor against the hinted files. A verdict read
// off the hinted file alone (Settled) is memoised by the anchor and that
// file's content; the others are only a step towards the repository-wide
// pass, so their suggestions are not computed.
func (r *checkRun) resolveCheap(a anchors.Anchor, ak [sha256.Size]byte) (anchors.Result, bool) {
	if res, ok := r.lexedVerdict(a); ok {
		return res, true
	}
	k := cheapKey{anchor: ak, st: r.status[a.Path], sum: r.sums[a.Path]}
	if r.s.isSQL(a.Path) {
		// The verdict reads the whole migrations folder.
		key := r.keyBuf()
		for _, p := range r.s.sqlFolder(path.Dir(a.Path)) {
			key.str(p).int(int(r.status[p])).sum(r.sums[p])
		}
		k.sql, k.sum = true, key.done()
	}
	if res, ok := r.memo.settled.get(k); ok {
		return res, true
	}
	// Whether stage 1 settles an anchor depends on its hinted file alone,
	// like the verdict: an anchor the repository-wide pass will resolve
	// is not resolved here again on every keystroke.
	if _, open := r.memo.open.get(k); open {
		return anchors.Result{}, false
	}
	env := r.env()
	env.NoSuggestions = true
	res := anchors.Resolve(a, env)
	settled := res.Settled(a)
	if !r.lazy {
		if settled {
			r.memo.settled.put(k, res)
		} else {
			r.memo.open.put(k, struct{}{})
		}
	}
	return res, settled
}

// resolveWide resolves an anchor the cheap pass left open against the whole
// index, memoised by the anchor and the fingerprints of every file the
// index holds.
func (r *checkRun) resolveWide(a anchors.Anchor, ak [sha256.Size]byte) anchors.Result {
	memo := !r.lazy
	k := r.keyBuf().sum(ak).sum(r.cheapKey).sum(r.wideKey).done()
	if memo {
		if res, ok := r.memo.final.get(k); ok {
			return res
		}
	}
	res := anchors.Resolve(a, r.env())
	if memo {
		r.memo.final.put(k, res)
	}
	return res
}

// suggest ranks the index's declarations for a lost anchor file by file,
// keeping each file's list while its content is unchanged.
func (r *checkRun) suggest(a anchors.Anchor, origin []string) []anchors.Candidate {
	ix := r.index()
	ak := anchorKey(&keyer{}, a)
	for _, t := range origin {
		ak.str(t)
	}
	base := ak.done()
	var lists [][]anchors.Suggestion
	if r.pathsOf != ix {
		// Sorted once per index, not once per lost anchor.
		r.paths, r.pathsOf = ix.Paths(), ix
	}
	for _, p := range r.paths {
		sum, ok := r.sumOf(p)
		if !ok || r.partial[p] {
			// A partial table's list is not the file's (partial.go).
			lists = append(lists, anchors.FileSuggestions(a, p, ix.Decls(p), origin))
			continue
		}
		k := suggKey{base, p, sum}
		l, hit := r.memo.sugg.get(k)
		if !hit {
			l = anchors.FileSuggestions(a, p, ix.Decls(p), origin)
			r.memo.sugg.put(k, l)
		}
		lists = append(lists, l)
	}
	return anchors.BestSuggestions(a, lists)
}

// tableOf is the declaration table of p's content: an open buffer's
// through the table cache's per-buffer versions (parseVersion: the newest
// few kept, none written to the persistent store), a disk file's by
// content alone.
func (r *checkRun) tableOf(p string, lang symbols.Language, sum [sha256.Size]byte, text []byte) symbols.Table {
	if _, open := r.s.overlays[p]; open {
		return r.s.tables.parseVersion(p, lang, sum, text)
	}
	return r.s.tables.parseSum(lang, sum, text)
}

// file is the ladder's view of a file: read once per check, within budget.
func (r *checkRun) file(p string) ([]byte, anchors.FileStatus) {
	if st, ok := r.statusOf(p); ok {
		if st != anchors.FileOK {
			return nil, st
		}
		b, _ := r.s.ReadFile(p)
		return b, st
	}
	return r.load(p)
}

// load reads a file the hinted pass did not within the budget and indexes
// its declarations.
func (r *checkRun) load(p string) ([]byte, anchors.FileStatus) {
	if st, ok := r.statusOf(p); ok {
		b, _ := r.s.ReadFile(p)
		return b, st
	}
	if !r.sp.allow() {
		r.status[p] = anchors.FileUnread
		return nil, anchors.FileUnread
	}
	b, st, sum := r.s.readSum(p)
	r.status[p] = st
	if st != anchors.FileOK {
		return nil, st
	}
	r.sp.spend(len(b))
	r.sums[p] = sum
	r.lazy = true
	// A SQL file is indexed with its folder's history only (loadAll and
	// repoWide); the ladder reads no SQL file outside those.
	if lang, ok := r.s.Language(p); ok && lang != symbols.SQL {
		r.extra.Add(p, r.tableOf(p, lang, sum, b).Decls)
	}
	return b, st
}

// loadAll reads the hinted files in path order within the budget (so the
// same files are read as one by one), parses them in parallel and indexes
// them in path order. The index is memoised by the list of (path, status,
// content hash): a keystroke in a doc reuses it whole.
func (r *checkRun) loadAll(ctx context.Context, paths []string) error {
	type job = hintedTable
	paths = r.withSQLFolders(paths)
	if len(r.status) == 0 {
		r.status = make(map[string]anchors.FileStatus, len(paths))
		r.sums = make(map[string][sha256.Size]byte, len(paths))
	}
	jobs := make([]job, 0, len(paths))
	// About 50 bytes a file (its path, status and hash): sized once.
	key := &keyer{h: make([]byte, 0, 64*len(paths))}
	if r.partialWords != nil {
		key.str("partial")
	}
	states := make([]fileState, len(paths))
	for i, p := range paths {
		if err := ctx.Err(); err != nil {
			return err
		}
		// Read ahead a window at a time through the adapter's ManyReader
		// (same bytes and statuses as ReadFile), never far past where the
		// budget stops.
		if i%preloadWindow == 0 && !r.sp.stopped() {
			r.s.Preload(paths[i:min(i+preloadWindow, len(paths))])
		}
		if _, ok := r.status[p]; ok {
			continue
		}
		if !r.sp.allow() {
			r.status[p] = anchors.FileUnread
			key.str(p).int(int(anchors.FileUnread))
			states[i] = fileState{st: anchors.FileUnread}
			continue
		}
		b, st, sum := r.s.readSum(p)
		r.status[p] = st
		key.str(p).int(int(st))
		states[i] = fileState{st: st}
		if st != anchors.FileOK {
			continue
		}
		r.sp.spend(len(b))
		r.sums[p] = sum
		key.sum(sum)
		states[i].sum = sum
		if lang, ok := r.s.Language(p); ok {
			jobs = append(jobs, job{path: p, lang: lang, text: b, sum: sum})
		}
	}
	r.cheapKey = key.done()
	pk := &keyer{h: key.h[:0]} // key's buffer is done with
	for _, p := range paths {
		pk.str(p)
	}
	r.cheapPaths = pk.done()
	if ix, ok := r.memo.cheap.get(r.cheapKey); ok && r.partialWords == nil {
		r.cheap = ix
		return nil
	}
	// A partial index is never a base to patch (partial.go).
	if r.partialWords == nil {
		if ix := r.patchCheap(paths, states); ix != nil {
			r.cheap = ix
			r.memo.cheap.put(r.cheapKey, ix)
			return nil
		}
	}
	parallel(len(jobs), func(i int) {
		j := &jobs[i]
		if words, ok := r.partialWords[j.path]; ok && j.lang == symbols.Go {
			r.loadHintedGo(j, words)
			return
		}
		j.decls = r.tableOf(j.path, j.lang, j.sum, j.text).Decls
	})
	r.hinted = jobs
	r.partial = map[string]bool{}
	for _, j := range jobs {
		if j.partial {
			r.partial[j.path] = true
		}
	}
	var sqlHistory bool
	r.cheap, sqlHistory = r.cheapIndex(jobs)
	if r.partialWords == nil {
		r.memo.cheap.put(r.cheapKey, r.cheap)
		r.memo.setCheapBase(r.cheap, paths, states, sqlHistory)
	}
	return nil
}

// cheapIndex indexes the hinted files' tables in path order, a SQL file
// with its folder's history; it reports whether there was SQL history.
func (r *checkRun) cheapIndex(jobs []hintedTable) (*anchors.Index, bool) {
	ix := anchors.NewIndex()
	histories := map[string][]int{} // SQL folder → its jobs, in path order
	var dirs []string
	for i, j := range jobs {
		if j.lang != symbols.SQL {
			ix.Add(j.path, j.decls)
			continue
		}
		d := path.Dir(j.path)
		if histories[d] == nil {
			dirs = append(dirs, d)
		}
		histories[d] = append(histories[d], i)
	}
	for _, d := range dirs {
		tabs := make([]symbols.Table, len(histories[d]))
		for k, i := range histories[d] {
			tabs[k] = r.s.tables.parseSum(symbols.SQL, jobs[i].sum, jobs[i].text)
		}
		for k, t := range symbols.ReplaySQL(tabs) {
			ix.Add(jobs[histories[d][k]].path, t.Decls)
		}
	}
	return ix, len(dirs) > 0
}

// withSQLFolders adds to sorted paths every SQL file of the folders of the
// SQL files among them: a SQL file is read as its folder's history
// (sqlhistory.go). It notes the folders in sqlDirs.
func (r *checkRun) withSQLFolders(paths []string) []string {
	if !slices.ContainsFunc(paths, r.s.isSQL) {
		return paths
	}
	seen := map[string]bool{}
	for _, p := range paths {
		seen[p] = true
	}
	out := append([]string(nil), paths...)
	for _, p := range paths {
		d := path.Dir(p)
		if !r.s.isSQL(p) || r.sqlDirs[d] {
			continue
		}
		r.sqlDirs[d] = true
		for _, q := range r.s.sqlFolder(d) {
			if !seen[q] {
				seen[q] = true
				out = append(out, q)
			}
		}
	}
	if len(out) > len(paths) {
		sort.Strings(out)
	}
	return out
}

// preloadWindow is how many hinted files loadAll reads ahead.
const preloadWindow = 256

// parallel runs do(0..n-1) on one worker per processor.
func parallel(n int, do func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				do(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

func (r *checkRun) skipped() []SkippedFile {
	out := append([]SkippedFile(nil), r.wideSkipped...)
	for p, st := range r.status {
		switch st {
		case anchors.FileBinary:
			out = append(out, SkippedFile{p, anchors.ReasonBinary})
		case anchors.FileTooLarge:
			out = append(out, SkippedFile{p, anchors.ReasonFileTooLarge})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// language maps a path to its grammar, honouring languages.disable.
func (s *Snapshot) Language(p string) (symbols.Language, bool) {
	lang, ok := symbols.LanguageForPath(p)
	if !ok {
		return "", false
	}
	for _, d := range s.config.Languages.Disable {
		if string(lang) == d {
			return "", false
		}
	}
	return lang, true
}

// family groups grammars a declaration can move between without changing
// what it is (a TS function moved into a .tsx file, a C function into C++).
func LanguageFamily(lang symbols.Language) string {
	switch lang {
	case "typescript", "tsx", "javascript":
		return "js"
	case "c", "cpp":
		return "c"
	}
	return string(lang)
}

func sameDir(a, b string) bool { return path.Dir(a) == path.Dir(b) }
