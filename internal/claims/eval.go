package claims

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Input is everything one run needs, already read by the workspace layer.
type Input struct {
	// Docs are the brain's Markdown files by brain-relative path; pass the
	// ones LawDoc selects (extra paths are ignored).
	Docs map[string][]byte
	// Config is the parsed `.multivac/config.yml` and ConfigDiagnostics what
	// ParseConfig said about it. ConfigMissing: the brain has a law but no
	// config, so defaults apply and the run says so.
	Config            Config
	ConfigDiagnostics []Diagnostic
	ConfigMissing     bool
	// Repos: the brain's own checkout first (key "brain"), then every
	// declared repo in config order. A consumer-scoped run passes only the
	// consumer checkout.
	Repos []Repo
	// CodeLegs are `@code` anchors that carry a claim ID, as resolved by the
	// anchors engine (docs/claims.md).
	CodeLegs []CodeLeg
	Options  Options
	// Parsed, when set, holds ParseDocs of Docs (as strings): a caller
	// that already parsed the law passes it so it is parsed once per run.
	Parsed map[string]ParsedDoc
	// LegacyLaw: the brain keeps its law in a root `invariants.md` (and
	// none in `.multivac/`), multivac's old layout; the run refuses it.
	LegacyLaw bool
}

// Options are verify's flags and scope.
type Options struct {
	Strict bool
	// Write: a brain-scoped run without --check, whose moved globs are
	// rewritten (the edits are in Result.Edits either way; only the wording
	// of the detail changes).
	Write bool
	// Consumer is the repo key of a consumer-scoped run ("" = brain scope).
	Consumer string
	// BrainDir is printed by the consumer-scope coverage line.
	BrainDir string
	// MaxBytes is the run's byte budget for what legs read (0: none). A
	// leg over a file the budget kept unread is unevaluated, and gates
	// like a broken leg of its mode: a tombstone never passes unread.
	MaxBytes int64
}

// CodeLeg is a `@code` anchor with a claim ID, already resolved.
type CodeLeg struct {
	Doc     string
	Line    int
	Claim   string
	State   string // fresh | stale | moved-renamed | lost | unpinned | unchecked
	Message string // the anchor's own detail, e.g. "body_changed in src/pay.ts"
}

// LawDoc reports whether a brain-relative path is scanned for anchors:
// `*.md` in the root, in `.multivac/` and in `.multivac/changes/` (not
// deeper, not the archive). Symlinked files should not be passed.
func LawDoc(p string) bool {
	if !strings.HasSuffix(p, ".md") {
		return false
	}
	dir := path.Dir(p)
	return dir == "." || dir == ".multivac" || dir == ".multivac/changes"
}

const changesDir = ".multivac/changes"

// ParsedDoc is one law doc's legs and parse diagnostics.
type ParsedDoc struct {
	Legs  []Leg
	Diags []Diagnostic
	// The law's claim rows, read from the same copy of its text (LawFile
	// only; hasRows says they were).
	rows     []Row
	rowDiags []Diagnostic
	hasRows  bool
}

// ParseDocs parses every doc LawDoc selects, once, and the law's rows,
// from the docs as strings (by path), so the law is not copied again.
func ParseDocs(docs map[string]string) map[string]ParsedDoc {
	out := make(map[string]ParsedDoc, len(docs))
	legs := 0
	for p, text := range docs {
		if LawDoc(p) {
			legs += strings.Count(text, "@anchor")
		}
	}
	ereCache.reserve(legs) // every leg's line holds "@anchor": the run's regexes, sized once
	for p, text := range docs {
		if LawDoc(p) {
			pd := ParsedDoc{}
			pd.Legs, pd.Diags = parseDoc(p, text)
			if p == LawFile {
				pd.rows, pd.rowDiags = parseRows(text)
				pd.hasRows = true
			}
			out[p] = pd
		}
	}
	return out
}

// Evaluate runs every claim leg. It never fails on broken input (that is
// a Diagnostic); the error is only the context's, between legs.
func Evaluate(ctx context.Context, in Input) (res *Result, err error) {
	defer func() {
		// A bug here must not take the server down: it becomes a finding.
		if r := recover(); r != nil {
			res, err = &Result{Claims: []ClaimResult{}, Exit: 1, Diagnostics: []Diagnostic{parseError(LawFile, 1,
				fmt.Sprintf("internal error while evaluating claims: %v — please report it", r))}}, nil
		}
	}()
	return evaluate(ctx, in)
}

func evaluate(ctx context.Context, in Input) (*Result, error) {
	e := newEvaluator(in)
	res := &Result{Strict: in.Options.Strict, Consumer: in.Options.Consumer, BrainDir: in.Options.BrainDir,
		Pending: map[string]string{}, Diagnostics: []Diagnostic{}, Claims: []ClaimResult{}}

	// Diagnostics from the config first, then the files in path order.
	res.Diagnostics = append(res.Diagnostics, in.ConfigDiagnostics...)
	if in.LegacyLaw {
		// multivac refuses the old layout (exit 2) rather than read its
		// legs as orphans; nothing is evaluated until the law moves.
		res.Diagnostics = append(res.Diagnostics, Diagnostic{Doc: LegacyLawFile, Line: 1, Severity: SeverityError, Code: CodeConfig,
			Message: "the law is at the repository root, multivac's legacy layout — move it: mkdir -p .multivac && git mv invariants.md " + LawFile + " (and create " + ConfigFile + " with multivac init); nothing was evaluated"})
		for _, r := range in.Repos {
			res.Reads = append(res.Reads, ReadLine(r.Key(), r.Facts()))
		}
		res.Exit = 2
		return res, nil
	}
	if in.ConfigMissing {
		// multivac refuses a law without its config (exit 2); the legs are
		// still evaluated with the defaults so the report shows them.
		res.ConfigMissing = true
		res.Diagnostics = append(res.Diagnostics, Diagnostic{Doc: ConfigFile, Line: 1, Severity: SeverityError, Code: CodeConfig,
			Message: "missing — a law needs it (exit 2); the legs below were evaluated with the defaults; create it (multivac init) to declare repos and blocking:"})
	}

	var rows []Row
	var rowDiags []Diagnostic
	if pd, ok := in.Parsed[LawFile]; ok && pd.hasRows {
		rows, rowDiags = pd.rows, pd.rowDiags
	} else {
		rows, rowDiags = ParseRows(in.Docs[LawFile])
	}
	rowByID := make(map[string]Row, len(rows))
	var rowOrder []string
	for _, r := range rows {
		if _, seen := rowByID[r.ID]; !seen {
			rowOrder = append(rowOrder, r.ID)
		}
		rowByID[r.ID] = r // duplicates: the last one wins, as in multivac
	}

	var docs []string
	for p := range in.Docs {
		if LawDoc(p) {
			docs = append(docs, p)
		}
	}
	sort.Strings(docs)
	parsed := make([]ParsedDoc, len(docs))
	nlegs := 0
	for i, d := range docs {
		pd, ok := in.Parsed[d]
		if !ok {
			pd.Legs, pd.Diags = ParseDoc(d, in.Docs[d])
		}
		parsed[i] = pd
		nlegs += len(pd.Legs)
	}
	legs := make([]Leg, 0, nlegs)
	var changes []Change
	for i, d := range docs {
		pd := parsed[i]
		l, diags := pd.Legs, pd.Diags
		legs = append(legs, l...)
		res.Diagnostics = append(res.Diagnostics, diags...)
		if d == LawFile {
			res.Diagnostics = append(res.Diagnostics, rowDiags...)
		}
		if path.Dir(d) == changesDir {
			if ch, ok := ParseChange(d, in.Docs[d]); ok {
				changes = append(changes, ch)
			}
		}
	}
	pending := pendingClaims(changes)
	e.sizeFor(len(legs))

	// Coverage counts anchors that parsed, whatever their scope or key.
	anchored := make(map[string]bool, len(rows))
	for _, l := range legs {
		anchored[l.Claim] = true
	}
	for _, c := range in.CodeLegs {
		anchored[c.Claim] = true
	}
	res.TotalRows = len(rowOrder)
	for _, id := range rowOrder {
		if anchored[id] {
			res.Coverage.Anchored++
		} else {
			res.Unanchored = append(res.Unanchored, id)
		}
	}
	res.Coverage.Claims = len(rowOrder)

	// Scope, then keys (docs/claims.md), then row states.
	type work struct {
		doc  string
		line int
		leg  *Leg
		code *CodeLeg
	}
	todo := make([]work, 0, len(legs)+len(in.CodeLegs))
	orphanWarned := map[string]bool{}
	for i := range legs {
		l := &legs[i]
		if in.Options.Consumer != "" && l.Repo != in.Options.Consumer && l.Repo != "*" {
			continue
		}
		// After a config error the keys it failed to declare are not news:
		// those legs are unevaluated, not a second, misleading parse error.
		if k := e.unknownKey(l); k != "" && !e.configBroken {
			res.Diagnostics = append(res.Diagnostics, parseError(l.Doc, l.Line,
				fmt.Sprintf("unknown repo key %q — declare it under repos: in %s", k, ConfigFile)))
			continue
		}
		if msg := e.globError(l); msg != "" {
			res.Diagnostics = append(res.Diagnostics, parseError(l.Doc, l.Line, msg))
			continue
		}
		todo = append(todo, work{l.Doc, l.Line, l, nil})
	}
	if in.Options.Consumer != "" && len(rowOrder) > 0 {
		res.Coverage = Coverage{Claims: len(rowOrder)}
		seen := map[string]bool{}
		for _, w := range todo {
			if _, ok := rowByID[w.leg.Claim]; ok && !seen[w.leg.Claim] {
				seen[w.leg.Claim] = true
				res.Coverage.Anchored++
			}
		}
	}
	for i := range in.CodeLegs {
		c := &in.CodeLegs[i]
		todo = append(todo, work{c.Doc, c.Line, nil, c})
	}
	sort.SliceStable(todo, func(i, j int) bool {
		if todo[i].doc != todo[j].doc {
			return todo[i].doc < todo[j].doc
		}
		return todo[i].line < todo[j].line
	})

	// Every leg's file set first, then one pass over the files for all of
	// them, then one more for the present legs whose match moved.
	jobs := make([]*legJob, len(todo))
	var scanned []*legJob
	for i, w := range todo {
		if w.leg == nil {
			continue
		}
		if row, ok := rowByID[w.leg.Claim]; ok && row.Effective() == StateRetired && w.leg.Mode != ModeAbsent {
			continue
		}
		jobs[i] = e.prepare(w.leg, pending[w.leg.Claim])
		scanned = append(scanned, jobs[i])
	}
	e.batch(scanned, false)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var heals []*legJob
	for _, j := range scanned {
		if needsHeal(j) {
			j.heal = e.healSet(j)
			heals = append(heals, j)
		}
	}
	e.batch(heals, true)

	byClaim := make(map[string]int, len(rowOrder))
	perClaim := make(map[string]int, len(rowOrder)) // each claim's legs, so its Legs are allocated once
	for _, w := range todo {
		if w.leg != nil {
			perClaim[w.leg.Claim]++
		} else {
			perClaim[w.code.Claim]++
		}
	}
	for i, w := range todo {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		claim, mode := "", Mode("")
		if w.leg != nil {
			claim, mode = w.leg.Claim, w.leg.Mode
		} else {
			claim, mode = w.code.Claim, ModeCode
		}
		row, hasRow := rowByID[claim]
		rowState := StateActive
		if hasRow {
			rowState = row.Effective()
		} else if !orphanWarned[w.doc+":"+strconv.Itoa(w.line)] {
			orphanWarned[w.doc+":"+strconv.Itoa(w.line)] = true
			res.Diagnostics = append(res.Diagnostics, warning(w.doc, w.line,
				fmt.Sprintf("orphan leg: claim %s has no row in %s — it is evaluated and can gate; add the row or fix the ID", claim, LawFile)))
		}
		var lr LegResult
		switch {
		case rowState == StateRetired && mode != ModeAbsent:
			lr = retiredLeg(w.doc, w.line, w.leg) // retired rows keep only their tombstones
		case w.leg != nil:
			lr = e.judge(jobs[i])
		default:
			lr = evalCodeLeg(w.code)
		}
		lr.Claim, lr.RowState = claim, rowState
		if slug := pending[claim]; slug != "" && lr.State != StateOK && lr.State != StateUnevaluated && lr.State != StatePending {
			lr.Detail = "declared by open change " + slug + " — pending; " + lr.Detail
			lr.State = StatePending
			lr.Edit = nil
		}
		if lr.State == StatePending && pending[claim] != "" {
			res.Pending[claim] = pending[claim]
		}
		lr.Gating, lr.Note = gate(lr, in.Config, in.Options.Strict)
		if lr.Edit != nil && in.Options.Write {
			res.Edits = append(res.Edits, *lr.Edit)
		}
		idx, ok := byClaim[claim]
		if !ok {
			idx = len(res.Claims)
			byClaim[claim] = idx
			cr := ClaimResult{ID: claim, State: lr.State, Legs: make([]LegResult, 0, perClaim[claim])}
			if hasRow {
				cr.Row = &RowRef{Doc: LawFile, Line: row.Line}
			}
			res.Claims = append(res.Claims, cr)
		}
		cr := &res.Claims[idx]
		cr.Legs = append(cr.Legs, lr)
		if rank(lr.State) > rank(cr.State) {
			cr.State = lr.State
		}
	}

	if in.Options.Consumer == "" {
		res.Finished = finishedChanges(changes, res.Claims, in.Options.Strict)
	}
	for _, r := range in.Repos {
		res.Reads = append(res.Reads, ReadLine(r.Key(), r.Facts()))
	}
	res.Exit = exitCode(res)
	return res, nil
}

// retiredLeg lists a leg of a retired row that is not a tombstone.
func retiredLeg(doc string, line int, l *Leg) LegResult {
	lr := LegResult{Doc: doc, Line: line, Mode: ModeCode, ModeText: string(ModeCode), State: LegRetired,
		Detail: "not evaluated — the row is retired; only its absent legs (tombstones) are checked"}
	if l != nil {
		lr.Mode, lr.ModeText = l.Mode, l.ModeText()
	}
	return lr
}

// gate applies the exit matrix (docs/claims.md) to one leg.
func gate(lr LegResult, cfg Config, strict bool) (bool, string) {
	bad := lr.State == StateBroken || lr.State == StateVacuous || lr.Budget
	switch {
	case !bad:
		return false, ""
	case lr.RowState == StateProposed:
		return false, " · proposed row — informational, never blocks"
	case lr.RowState == StateDrift:
		return false, " · drift row — recorded finding, never blocks"
	case strict || cfg.Blocks(lr.Mode):
		return true, " · blocking"
	}
	return false, fmt.Sprintf(" · reported only — %q is not in blocking: and this run is not --strict", string(lr.Mode))
}

func finishedChanges(changes []Change, claims []ClaimResult, strict bool) []FinishedChange {
	state := map[string]LegState{}
	for _, c := range claims {
		state[c.ID] = c.State
	}
	sorted := append([]Change(nil), changes...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Doc < sorted[j].Doc })
	var out []FinishedChange
	for _, ch := range sorted {
		if ch.Status != "open" || len(ch.Claims) == 0 {
			continue
		}
		done := true
		for _, id := range ch.Claims {
			if s, ok := state[id]; !ok || s != StateOK {
				done = false
			}
		}
		for _, st := range ch.Repos {
			if st != "landed" {
				done = false
			}
		}
		if done {
			out = append(out, FinishedChange{Slug: ch.Slug, Gating: strict})
		}
	}
	return out
}

// exitCode: 2 for an invalid config, 1 for a parse diagnostic or a gating
// line, else 0. Warnings never change it.
func exitCode(r *Result) int {
	exit := 0
	for _, d := range r.Diagnostics {
		switch {
		case d.Code == CodeConfig && d.Severity == SeverityError:
			return 2
		case d.Code == CodeParse && d.Severity == SeverityError:
			exit = 1
		}
	}
	if r.blocking() > 0 {
		exit = 1
	}
	return exit
}

// blocking counts gating legs plus every other gating line.
func (r *Result) blocking() int {
	n := 0
	for _, c := range r.Claims {
		for _, l := range c.Legs {
			if l.Gating {
				n++
			}
		}
	}
	for _, f := range r.Finished {
		if f.Gating {
			n++
		}
	}
	return n
}

func itoa(n int) string { return strconv.Itoa(n) }
