package workspace

import (
	"context"
	"sort"
	"strings"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/claims"
)

// Siblings opens the repositories a brain's `.multivac/config.yml`
// declares. The real one (gitstate) reads each at its channel ref through
// go-git, blobs only, and falls back to the working tree when the ref does
// not resolve. It is injected, like Files and Git.
type Siblings interface {
	Open(brainRoot string, entry claims.RepoEntry, channel string, worktree bool) claims.Repo
}

// TrackedLister is implemented by Files adapters that know git's index, so
// the claims engine can tell tracked files from untracked ones.
type TrackedLister interface {
	Tracked() ([]string, error)
}

// UseSiblings sets how declared sibling repositories are opened (nil: they
// are reported as not on disk).
func (s *Snapshot) UseSiblings(sib Siblings) { s.siblings = sib }

// IsBrain reports whether the workspace holds a multivac brain: the claims
// engine is on when `.multivac/config.yml` or the law file exists.
func (s *Snapshot) IsBrain() bool {
	for _, p := range []string{claims.ConfigFile, claims.LawFile} {
		if _, st := s.ReadFile(p); st == anchors.FileOK {
			return true
		}
	}
	return s.legacyLaw()
}

// legacyLaw reports multivac's legacy layout: a law at the root
// (`invariants.md` holding a claim table or an `@anchor` leg) and none in
// `.multivac/`. multivac refuses it; so does verify, saying how to move it.
func (s *Snapshot) legacyLaw() bool {
	if _, st := s.ReadFile(claims.LawFile); st == anchors.FileOK {
		return false
	}
	b, st := s.ReadFile(claims.LegacyLawFile)
	return st == anchors.FileOK && claims.LooksLikeLaw(b)
}

// checkClaims evaluates the brain's claims (when there is one) and merges
// the result into the report: claims, coverage, diagnostics, the text
// section and the exit code. Symbol legs are the report's anchors that
// carry a claim ID.
func (s *Snapshot) checkClaims(ctx context.Context, rep *Report, opt CheckOptions) error {
	if !s.prepareClaims().brainOn {
		return nil
	}
	budget := s.config.Budget
	if opt.Budget != nil {
		budget = *opt.Budget
	}
	prep := s.prepareClaims()
	// Legs read files of any size; the run's byte budget bounds them, and
	// a leg it stops is unevaluated, never ok.
	in := claims.Input{Docs: prep.docs, LegacyLaw: prep.legacy, Parsed: prep.parsed,
		Options: claims.Options{Strict: opt.Strict, Write: opt.Write, MaxBytes: budget.MaxBytes}}
	if b, st := s.ReadFile(claims.ConfigFile); st == anchors.FileOK {
		in.Config, in.ConfigDiagnostics = claims.ParseConfig(b)
	} else {
		in.Config, in.ConfigMissing = claims.DefaultConfig(), true
	}
	in.Repos = append(in.Repos, prep.brain)
	for _, entry := range in.Config.Repos {
		if entry.Key == "brain" {
			continue // `brain: .` is the brain itself, already first: one read line
		}
		channel := in.Config.ChannelFor(entry.Key)
		if s.siblings != nil {
			in.Repos = append(in.Repos, s.siblings.Open(s.root, entry, channel, opt.Worktree))
		} else {
			in.Repos = append(in.Repos, &claims.MemRepo{Name: entry.Key, Missing: true,
				ReadFacts: claims.ReadFacts{Kind: claims.ReadNotOnDisk}})
		}
	}
	for _, a := range rep.Anchors {
		if a.Claim == "" {
			continue
		}
		in.CodeLegs = append(in.CodeLegs, claims.CodeLeg{Doc: a.Doc, Line: a.Line, Claim: a.Claim,
			State: string(a.State), Message: explain(a, TextOptions{})})
	}
	res, err := claims.Evaluate(ctx, in)
	if err != nil {
		return err
	}
	rep.claims = res
	rep.Claims = res.Claims
	if rep.Claims == nil {
		rep.Claims = []ClaimReport{}
	}
	rep.Coverage = res.Coverage
	for _, d := range res.Diagnostics {
		rep.Diagnostics = append(rep.Diagnostics, s.lineDiagnostic(d))
	}
	rep.claimsReport = claims.Report(res)
	rep.claimFindings = s.buildClaimFindings(rep)
	return nil
}

// claimsReadSet lists the brain's tracked files that some leg's include
// glob covers, so they can be read in parallel before the engine, which
// reads one file at a time, asks for them. It is only a warm-up: the engine
// still decides what matches.
func (s *Snapshot) claimsReadSet(parsed map[string]claims.ParsedDoc, tracked []string) []string {
	n := 0
	for _, pd := range parsed {
		n += len(pd.Legs)
	}
	literal, seen := make(map[string]bool, n), make(map[string]bool, n)
	var globs []*claims.Glob
	for _, pd := range parsed {
		for _, l := range pd.Legs {
			if (l.Repo != "brain" && l.Repo != "*") || seen[l.Include] {
				continue
			}
			seen[l.Include] = true
			if !strings.ContainsAny(l.Include, "*?[]{}()!+@\\") {
				literal[l.Include] = true
			} else if g, msg := claims.CompileGlob(l.Include); msg == "" && g != nil {
				globs = append(globs, g)
			}
		}
	}
	var out []string
	for _, p := range tracked {
		if literal[p] {
			out = append(out, p)
			continue
		}
		for _, g := range globs {
			if g.Match(p) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// lineDiagnostic converts a claims diagnostic (doc and line) into one that
// spans its whole line, so the editor can underline it.
func (s *Snapshot) lineDiagnostic(d claims.Diagnostic) Diagnostic {
	out := Diagnostic{Doc: d.Doc, Line: d.Line, Severity: Severity(d.Severity), Code: d.Code, Message: d.Message}
	out.StartByte, out.EndByte = s.LineSpan(d.Doc, d.Line)
	return out
}

// lineSpan returns the byte span of a 1-based line of a file (without its
// line break); (0, 0) when the file or line does not exist. Line starts are
// computed once per file and snapshot: a law with a thousand failing legs
// asks for a thousand lines of one file.
func (s *Snapshot) LineSpan(p string, line int) (int, int) {
	text, st := s.ReadFile(p)
	if st != anchors.FileOK || line < 1 {
		return 0, 0
	}
	var starts []int
	if v, ok := s.lineStarts.Load(p); ok {
		starts = v.([]int)
	} else {
		starts = []int{0}
		for i, c := range text {
			if c == '\n' {
				starts = append(starts, i+1)
			}
		}
		s.lineStarts.Store(p, starts)
	}
	if line > len(starts) {
		return 0, 0
	}
	start := starts[line-1]
	end := len(text)
	if line < len(starts) {
		end = starts[line] - 1
	}
	if end > start && text[end-1] == '\r' {
		end--
	}
	return start, end
}

// ClaimEdits returns verify's claim self-heal: moved globs rewritten in
// place, grouped by doc like Rebinds.
func (r *Report) ClaimEdits() []DocEdit {
	if r.claims == nil {
		return nil
	}
	byDoc := map[string][]anchors.Edit{}
	for _, e := range r.claims.Edits {
		byDoc[e.Doc] = append(byDoc[e.Doc], anchors.Edit{Start: e.Start, End: e.End, New: e.NewText})
	}
	return groupEdits(byDoc)
}

// buildClaimFindings returns the claims engine's editor diagnostics (one per
// non-ok leg on its `@anchor` line, one per failing row), with line spans.
func (s *Snapshot) buildClaimFindings(r *Report) map[string][]Finding {
	out := map[string][]Finding{}
	if r.claims == nil {
		return out
	}
	for _, d := range r.claims.EditorDiagnostics() {
		ld := s.lineDiagnostic(d)
		out[d.Doc] = append(out[d.Doc], Finding{Path: d.Doc, StartByte: ld.StartByte, EndByte: ld.EndByte,
			Severity: ld.Severity, Code: d.Code, Message: d.Message})
	}
	return out
}

// snapshotRepo is the brain's own checkout as the claims engine sees it:
// git's tracked files, with content from the working tree and the editor's
// buffers.
type snapshotRepo struct {
	s         *Snapshot
	identity  string // asked for every file of every leg: computed once
	tracked   []string
	untracked []string
}

func (s *Snapshot) brainRepo() *snapshotRepo {
	r := &snapshotRepo{s: s, identity: s.root + "@worktree"}
	all := s.Files()
	if tl, ok := s.files.(TrackedLister); ok {
		if tracked, err := tl.Tracked(); err == nil {
			in := make(map[string]bool, len(tracked))
			for _, p := range tracked {
				in[p] = true
			}
			for _, p := range all {
				if in[p] {
					r.tracked = append(r.tracked, p)
				} else {
					r.untracked = append(r.untracked, p)
				}
			}
			sort.Strings(r.tracked)
			return r
		}
	}
	r.tracked = all
	return r
}

func (r *snapshotRepo) Key() string      { return "brain" }
func (r *snapshotRepo) Identity() string { return r.identity }
func (r *snapshotRepo) OnDisk() bool     { return true }
func (r *snapshotRepo) Files() []string  { return r.tracked }
func (r *snapshotRepo) Read(p string) ([]byte, bool) {
	b, st := r.s.ReadFile(p)
	if st != anchors.FileTooLarge {
		return b, st == anchors.FileOK
	}
	// Over budget.max_file_bytes: anchors skip it, but a leg must see a
	// forbidden pattern in it. Read it for this run only (not kept in the
	// snapshot); an unsaved buffer already holds its bytes.
	if b == nil {
		var err error
		if b, err = r.s.files.Read(p); err != nil {
			return nil, false
		}
	}
	return b, true
}

// Size lets the claims byte budget refuse a file before reading it; a
// file the snapshot already holds costs no system call.
func (r *snapshotRepo) Size(p string) (int64, bool) {
	if b, ok := r.s.overlays[p]; ok {
		return int64(len(b)), true
	}
	r.s.reads.mu.Lock()
	c, ok := r.s.reads.m[p]
	r.s.reads.mu.Unlock()
	if ok && c.st != anchors.FileTooLarge {
		return int64(len(c.b)), true
	}
	n, err := r.s.files.Size(p)
	return n, err == nil
}
func (r *snapshotRepo) Untracked() []string { return r.untracked }
func (r *snapshotRepo) Facts() claims.ReadFacts {
	g := r.s.Git()
	sha := g.Head
	if len(sha) > 7 {
		sha = sha[:7]
	}
	return claims.ReadFacts{Kind: claims.ReadBrain, Branch: g.Branch, SHA: sha}
}
