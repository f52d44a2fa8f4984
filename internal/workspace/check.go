package workspace

import (
	"context"
	"path"
	"runtime"
	"sort"
	"sync"

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
}

// Check verifies every code anchor of the snapshot. It never fails on broken
// input; it returns ctx.Err() only when cancelled.
func (s *Snapshot) Check(ctx context.Context, opt CheckOptions) (*Report, error) {
	b := s.config.Budget
	if opt.Budget != nil {
		b = *opt.Budget
	}
	run := &checkRun{s: s, sp: newSpender(b), ix: anchors.NewIndex(),
		status: map[string]anchors.FileStatus{}, origins: map[string][]string{}, pins: map[string]string{},
		sqlDirs: map[string]bool{}}

	docs, diags := s.parseDocs()
	all := docs.anchors

	// Cheap pass: only the hinted files.
	if err := run.loadAll(ctx, hintedPaths(all)); err != nil {
		return nil, err
	}
	results := make([]anchors.Result, len(all))
	var unsettled []int
	for i, a := range all {
		results[i] = anchors.Resolve(a, run.env())
		if !results[i].Settled(a) {
			unsettled = append(unsettled, i)
		}
	}

	// Repository-wide pass, only for what the cheap pass left open.
	if len(unsettled) > 0 {
		open := make([]anchors.Anchor, len(unsettled))
		for j, i := range unsettled {
			open[j] = all[i]
		}
		if err := run.repoWide(ctx, open); err != nil {
			return nil, err
		}
		complete := !run.sp.stopped()
		for _, i := range unsettled {
			if complete {
				results[i] = anchors.Resolve(all[i], run.env())
			} else {
				// Never report lost (or a guess) for a search that did not
				// finish: the anchor keeps its last known state.
				results[i] = anchors.Result{State: anchors.StateUnchecked,
					Detail: anchors.Detail{Reason: anchors.ReasonBudget, Path: all[i].Path}}
			}
		}
	}

	rep := &Report{
		Complete:           !run.sp.stopped(),
		UncheckedAnchorIDs: []string{},
		Anchors:            []AnchorReport{},
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
	rep.index = run.ix
	rep.Budget = run.sp.report()
	rep.FallbackShare = fallbackShare(all)
	if err := s.checkClaims(ctx, rep, opt); err != nil {
		return nil, err
	}
	if opt.Mentions {
		cov := s.ScanMentions(nil, rep).Coverage
		rep.MentionCoverage = &cov
	}
	rep.Exit = exitCode(rep)
	return rep, nil
}

// parsedDocs is every anchor of every doc, in doc then line order.
type parsedDocs struct {
	anchors []anchors.Anchor
}

func (s *Snapshot) parseDocs() (parsedDocs, []Diagnostic) {
	var out parsedDocs
	diags := append([]Diagnostic{}, s.cfgDiags...)
	for _, doc := range s.Docs() {
		text, st := s.ReadFile(doc)
		if st != anchors.FileOK {
			continue
		}
		parsed := s.tables.parseDoc(doc, text)
		out.anchors = append(out.anchors, parsed.anchors...)
		for _, d := range parsed.diags {
			diags = append(diags, fromAnchorDiag(d))
		}
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
	s       *Snapshot
	sp      *spender
	ix      *anchors.Index
	status  map[string]anchors.FileStatus
	origins map[string][]string
	pins    map[string]string // anchor pin → the commit that wrote it ("" unknown)
	sqlDirs map[string]bool   // folders whose SQL history is indexed
}

func (r *checkRun) env() anchors.Env {
	return anchors.Env{Index: r.ix, File: r.file, Origin: r.origin, PreExisting: r.preExisting, SameHistory: r.s.sameSQLHistory}
}

// file is the ladder's view of a file: read once per check, within budget.
func (r *checkRun) file(p string) ([]byte, anchors.FileStatus) {
	if st, ok := r.status[p]; ok {
		if st != anchors.FileOK {
			return nil, st
		}
		b, _ := r.s.ReadFile(p)
		return b, st
	}
	return r.load(p)
}

// load reads a hinted file within the budget and indexes its declarations.
func (r *checkRun) load(p string) ([]byte, anchors.FileStatus) {
	if st, ok := r.status[p]; ok {
		b, _ := r.s.ReadFile(p)
		return b, st
	}
	if !r.sp.allow() {
		r.status[p] = anchors.FileUnread
		return nil, anchors.FileUnread
	}
	b, st := r.s.ReadFile(p)
	r.status[p] = st
	if st != anchors.FileOK {
		return nil, st
	}
	r.sp.spend(len(b))
	if lang, ok := r.s.Language(p); ok {
		if lang == symbols.SQL {
			r.indexSQLFolder(path.Dir(p))
		} else {
			r.ix.Add(p, r.s.tables.parse(lang, b).Decls)
		}
	}
	return b, st
}

// indexSQLFolder indexes every SQL file of dir as the folder's replayed
// history, reading the ones not read yet within the budget. A file the
// budget left unread is left out of the history.
func (r *checkRun) indexSQLFolder(dir string) {
	if r.sqlDirs[dir] {
		return
	}
	r.sqlDirs[dir] = true
	paths, tabs := r.s.replaySQL(r.s.sqlFolder(dir), func(p string) ([]byte, bool) {
		if st, ok := r.status[p]; ok {
			b, _ := r.s.ReadFile(p)
			return b, st == anchors.FileOK
		}
		if !r.sp.allow() {
			r.status[p] = anchors.FileUnread
			return nil, false
		}
		b, st := r.s.ReadFile(p)
		r.status[p] = st
		if st != anchors.FileOK {
			return nil, false
		}
		r.sp.spend(len(b))
		return b, true
	})
	for i, p := range paths {
		r.ix.Add(p, tabs[i].Decls)
	}
}

// loadAll is load for many files: read in path order within the budget
// (so the same files are read as one by one), parsed in parallel, indexed
// in path order.
func (r *checkRun) loadAll(ctx context.Context, paths []string) error {
	type job struct {
		path  string
		lang  symbols.Language
		text  []byte
		decls []symbols.Decl
	}
	var jobs []job
	var sqlDirs []string
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, ok := r.status[p]; ok {
			continue
		}
		if !r.sp.allow() {
			r.status[p] = anchors.FileUnread
			continue
		}
		b, st := r.s.ReadFile(p)
		r.status[p] = st
		if st != anchors.FileOK {
			continue
		}
		r.sp.spend(len(b))
		if lang, ok := r.s.Language(p); ok {
			if lang == symbols.SQL {
				sqlDirs = append(sqlDirs, path.Dir(p))
				continue
			}
			jobs = append(jobs, job{path: p, lang: lang, text: b})
		}
	}
	parallel(len(jobs), func(i int) {
		jobs[i].decls = r.s.tables.parse(jobs[i].lang, jobs[i].text).Decls
	})
	for _, j := range jobs {
		r.ix.Add(j.path, j.decls)
	}
	for _, d := range sqlDirs {
		r.indexSQLFolder(d)
	}
	return nil
}

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
	var out []SkippedFile
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
