package claims

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// evaluator holds one run's caches: every file is read and split once,
// every glob compiled once and matched once per checkout.
type evaluator struct {
	in       Input
	byKey    map[string]Repo
	all      []Repo // `*`: every checkout once, by identity
	globs    map[string]*Glob
	globMsgs map[string]string
	sets     map[string][]int32 // identity + "\x00" + glob → indexes of the matching tracked paths
	contents map[fileKey]readResult
	fileSets map[string]*fileSet
	declared map[string]bool
	// bytesRead counts what legs read against Options.MaxBytes; budgetStop
	// is the first file that did not fit ("" while within budget).
	bytesRead  int64
	budgetStop string
	// configBroken: the config has an error, so an undeclared key may be
	// one the broken config meant to declare.
	configBroken bool
}

func newEvaluator(in Input) *evaluator {
	e := &evaluator{in: in, byKey: map[string]Repo{}, globs: map[string]*Glob{}, globMsgs: map[string]string{},
		sets: map[string][]int32{}, contents: map[fileKey]readResult{}, fileSets: map[string]*fileSet{}, declared: map[string]bool{"*": true, "brain": true}}
	for _, r := range in.Config.Repos {
		e.declared[r.Key] = true
	}
	seen := map[string]bool{}
	for _, r := range in.Repos {
		if _, dup := e.byKey[r.Key()]; !dup {
			e.byKey[r.Key()] = r
		}
		if !seen[r.Identity()] {
			seen[r.Identity()] = true
			e.all = append(e.all, r)
		}
	}
	if in.Options.Consumer != "" {
		e.declared[in.Options.Consumer] = true
	}
	for _, d := range in.ConfigDiagnostics {
		e.configBroken = e.configBroken || d.Severity == SeverityError
	}
	return e
}

// sizeFor sizes the per-pattern memos for a law of n legs: each leg adds
// a glob and a file set, and growing the maps one rehash at a time was a
// visible part of a short run.
func (e *evaluator) sizeFor(n int) {
	if len(e.globs) > 0 || len(e.sets) > 0 || len(e.fileSets) > 0 {
		return
	}
	e.globs, e.globMsgs = make(map[string]*Glob, n), make(map[string]string, n)
	e.sets, e.fileSets = make(map[string][]int32, n), make(map[string]*fileSet, n)
}

// unknownKey returns the first repo key of a leg that names nothing.
func (e *evaluator) unknownKey(l *Leg) string {
	if !e.declared[l.Repo] {
		return l.Repo
	}
	for _, x := range l.Exclusions {
		if x.Repo != "" && !e.declared[x.Repo] {
			return x.Repo
		}
	}
	return ""
}

func (e *evaluator) glob(pattern string) (*Glob, string) {
	if g, ok := e.globs[pattern]; ok {
		return g, e.globMsgs[pattern]
	}
	g, msg := CompileGlob(pattern)
	e.globs[pattern], e.globMsgs[pattern] = g, msg
	return g, msg
}

// globError is the first include or exclusion glob that does not compile.
func (e *evaluator) globError(l *Leg) string {
	if _, msg := e.glob(l.Include); msg != "" {
		return msg
	}
	for _, x := range l.Exclusions {
		if _, msg := e.glob(x.Glob); msg != "" {
			return msg
		}
	}
	return ""
}

// targets are the checkouts a leg looks into, those on disk first.
func (e *evaluator) targets(l *Leg) []Repo {
	if l.Repo == "*" {
		return e.all
	}
	if r, ok := e.byKey[l.Repo]; ok {
		return []Repo{r}
	}
	if e.in.Options.Consumer == "" && e.declared[l.Repo] {
		return []Repo{missingRepo(l.Repo)} // declared, but the workspace could not open it
	}
	return nil
}

// excluded applies a leg's exclusions to one path of one checkout. A
// qualified exclusion bites every key that aliases the checkout.
func (e *evaluator) excluded(l *Leg, r Repo, p string) bool {
	for _, x := range l.Exclusions {
		if x.Repo != "" && x.Repo != "*" {
			xr, ok := e.byKey[x.Repo]
			if !ok || xr.Identity() != r.Identity() {
				continue
			}
		}
		if g, _ := e.glob(x.Glob); g != nil && g.Match(p) {
			return true
		}
	}
	return false
}

// matchingFiles is the include's file set in one checkout, as indexes
// into r.Files() in path order (cached per checkout and pattern).
func (e *evaluator) matchingFiles(r Repo, g *Glob) []int32 {
	key := r.Identity() + "\x00" + g.Pattern
	if s, ok := e.sets[key]; ok {
		return s
	}
	files := r.Files()
	var out []int32
	if g.literal && !g.broken {
		want := strings.TrimPrefix(g.Pattern, "./")
		if i := sort.SearchStrings(files, want); i < len(files) && files[i] == want {
			out = append(out, int32(i))
		}
	} else {
		for i := sort.SearchStrings(files, g.Prefix()); i < len(files) && strings.HasPrefix(files[i], g.Prefix()); i++ {
			if g.Match(files[i]) {
				out = append(out, int32(i))
			}
		}
		if g.Prefix() != "" { // the identical-string shortcut can match outside the prefix
			if i := sort.SearchStrings(files, g.Pattern); i < len(files) && files[i] == g.Pattern && !strings.HasPrefix(g.Pattern, g.Prefix()) {
				out = append(out, int32(i))
				sort.Slice(out, func(a, b int) bool { return out[a] < out[b] })
			}
		}
	}
	e.sets[key] = out
	return out
}

// maxMatches bounds LegResult.Matches; counts and details use every match.
const maxMatches = 200

// needsHeal: a present leg with no match, whose moved rule must scan
// every tracked file (docs/claims.md).
func needsHeal(j *legJob) bool {
	if j.leg.Mode != ModePresent || j.pending != "" || j.hint != "" || len(j.onDisk) == 0 {
		return false
	}
	for i := range j.set.entries {
		if j.set.entries[i].unread {
			return false
		}
	}
	return len(j.matches) == 0
}

// judge turns a scanned leg into its result.
func (e *evaluator) judge(job *legJob) LegResult {
	l := job.leg
	lr := LegResult{Doc: l.Doc, Line: l.Line, Mode: l.Mode, ModeText: l.ModeText()}
	fail := func(s LegState, detail string) LegResult {
		lr.State, lr.Detail = s, detail
		return lr
	}
	onDisk, set, hint := job.onDisk, job.set.entries, job.hint
	if len(onDisk) == 0 && e.configBroken && e.unknownKey(l) != "" {
		return fail(StateUnevaluated, fmt.Sprintf("repo %q is not declared by a valid %s — fix the config first", e.unknownKey(l), ConfigFile))
	}
	if len(onDisk) == 0 {
		return fail(StateUnevaluated, "repo not on disk — run `multivac repos sync` to clone it")
	}
	for _, fs := range []*fileSet{job.set, job.heal} {
		if fs == nil {
			continue
		}
		for i := range fs.entries {
			if fs.entries[i].unread { // a verdict over files not read is no verdict: never ok
				lr.Budget = true
				return fail(StateUnevaluated, e.budgetDetail(fs.entries[i].label()))
			}
		}
	}
	n := job.total
	// Matches serve go-to-definition; a leg over thousands of lines keeps the first ones.
	if n > 0 {
		lr.Matches = make([]Match, 0, min(n, maxMatches))
	}
	for _, h := range job.matches {
		if len(lr.Matches) >= maxMatches {
			break
		}
		lr.Matches = appendMatches(lr.Matches, job.set, h, maxMatches-len(lr.Matches))
	}
	if l.Mode != ModePresent && len(set) == 0 {
		if hint != "" {
			return fail(StateVacuous, hint)
		}
		return fail(StateVacuous, vacuousDetail(l))
	}
	pendingSlug := job.pending

	switch l.Mode {
	case ModePresent:
		if n >= 1 {
			lr.State = StateOK
			return lr
		}
		if hint != "" {
			return fail(StateVacuous, hint)
		}
		if pendingSlug != "" {
			if len(set) == 0 {
				return fail(StateBroken, "glob matched no tracked files")
			}
			return fail(StateBroken, "no match in "+e.where(l))
		}
		return e.heal(job, len(set) == 0, lr)
	case ModeAbsent:
		if n == 0 {
			lr.State = StateOK
			return lr
		}
		return fail(StateBroken, "forbidden pattern at "+matchList(lr.Matches, n)+" — delete it, or retire/amend the claim first")
	case ModeUnique:
		switch {
		case n == 1:
			lr.State = StateOK
			return lr
		case n == 0:
			return fail(StateBroken, "expected exactly one match, found none — restore it or fix the regex")
		}
		return fail(StateBroken, fmt.Sprintf("expected exactly one match, found %d (%s) — deduplicate, or use count=%d if all are sanctioned", n, matchList(lr.Matches, n), n))
	case ModeCount:
		if n == l.N {
			lr.State = StateOK
			return lr
		}
		found := "none"
		if n > 0 {
			found = matchList(lr.Matches, n)
		}
		return fail(StateBroken, fmt.Sprintf("count=%s pinned, found %d (%s) — revert the new occurrence, or ratchet to count=%d in %s:%d", l.countText(), n, found, n, l.Doc, l.Line))
	case ModeEach:
		var bad []string
		next := 0 // job.matches walks with the entries
		for k, m := range set {
			found := next < len(job.matches) && int(job.matches[next].k) == k
			switch {
			case !l.Negated && !found:
				bad = append(bad, m.label())
			case l.Negated && found:
				bad = append(bad, Match{Repo: m.repo.Key(), Path: m.path, Line: int(job.matches[next].lines[0])}.String())
			}
			if found {
				next++
			}
		}
		if len(bad) == 0 {
			lr.State = StateOK
			return lr
		}
		if l.Negated {
			return fail(StateBroken, fmt.Sprintf("each!: forbidden pattern in %d of %d files (%s) — delete it, or exclude the file with !<glob>", len(bad), len(set), capList(bad, 3, " +")))
		}
		return fail(StateBroken, fmt.Sprintf("each: %d of %d files lack the pattern (%s) — add it there, or exclude the file with !<glob>", len(bad), len(set), capList(bad, 3, " +")))
	}
	return fail(StateUnevaluated, "unknown mode")
}

// where names the repo in "no match in …".
func (e *evaluator) where(l *Leg) string {
	if l.Repo == "*" {
		return "any declared repo"
	}
	return l.Repo
}

// untrackedHint: F is empty, yet the include (minus exclusions) names files
// that exist but are untracked in a working-tree read (docs/claims.md).
func (e *evaluator) untrackedHint(l *Leg, inc *Glob, targets []Repo) string {
	for _, r := range targets {
		var hits []string
		for _, p := range r.Untracked() {
			if inc.Match(p) && !e.excluded(l, r, p) {
				hits = append(hits, p)
			}
		}
		if len(hits) > 0 {
			sort.Strings(hits)
			more := ""
			if len(hits) > 3 {
				more = fmt.Sprintf(" (+%d more)", len(hits)-3)
				hits = hits[:3]
			}
			return "file exists but is untracked — `git add " + strings.Join(hits, " ") + "`" + more
		}
	}
	return ""
}

var kindRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\.([A-Za-z0-9]+)$`) })

// heal runs the exact moved rule of docs/claims.md for a present leg with
// no match, over the heal set the second batch scanned.
func (e *evaluator) heal(job *legJob, emptySet bool, lr LegResult) LegResult {
	l := job.leg
	kind := ""
	if m := kindRe().FindStringSubmatch(l.Include); m != nil {
		kind = "." + strings.ToLower(m[1])
	}
	var found, fenced []string
	foundPath := ""
	var foundMatches []Match
	for _, h := range job.healed {
		m := &job.heal.entries[h.k]
		if kind != "" && !strings.HasSuffix(strings.ToLower(m.path), kind) {
			fenced = append(fenced, m.label())
			continue
		}
		if len(found) == 0 {
			foundPath, foundMatches = m.path, matchesOf(job.heal, h, maxMatches)
		}
		found = append(found, m.label())
	}
	refused := ""
	if len(fenced) > 0 {
		refused = " — found in " + capList(fenced, 3, ", …") + ", refused as a heal target: not " + kind
	}
	switch {
	case len(found) == 1:
		lr.State = StateMoved
		var refusal string
		lr.Edit, refusal = e.rewrite(l, foundPath)
		if refusal != "" {
			lr.Detail = refusal
		} else if e.in.Options.Write && lr.Edit != nil {
			lr.Detail = "glob rewritten to " + foundPath + " — review the diff"
		} else {
			lr.Detail = "match moved to " + foundPath + " — rerun without --check to rewrite the glob"
		}
		lr.Matches = foundMatches[:min(len(foundMatches), maxMatches)]
		return lr
	case len(found) == 0 && emptySet:
		lr.State = StateVacuous
		lr.Detail = fmt.Sprintf("glob matched no tracked files and /%s/ found nowhere%s — fix the glob or retire the claim", l.Regex.Source, refused)
	case len(found) == 0:
		lr.State = StateBroken
		lr.Detail = "no match in " + e.where(l) + refused + " — restore the code or retire the claim"
	default:
		lr.State = StateBroken
		lr.Detail = fmt.Sprintf("found in %d files (%s) — narrow the regex or split into per-file legs", len(found), capList(found, 3, ", …"))
	}
	return lr
}

// rewrite replaces the leg's own include token with the literal path (not
// escaped for glob metacharacters, as multivac writes it). A path a glob
// token cannot hold (whitespace, or "-->" which would end the comment) is
// not written: the anchor would no longer parse.
func (e *evaluator) rewrite(l *Leg, newPath string) (*Edit, string) {
	if strings.IndexFunc(newPath, isJSSpace) >= 0 || strings.Contains(newPath, "-->") {
		return nil, "match moved to " + newPath + " — not rewritten: a glob token cannot hold that path (whitespace or -->); edit the glob by hand, e.g. with ? for each space"
	}
	doc := e.in.Docs[l.Doc]
	old := l.Repo + ":" + l.Include // the whole token, key kept
	start, end := l.LineStart+l.IncludeStart-len(l.Repo)-1, l.LineStart+l.IncludeEnd
	if start < l.LineStart || end > len(doc) || start > end || end > l.LineEnd || string(doc[start:end]) != old {
		return nil, ""
	}
	return &Edit{Doc: l.Doc, Start: start, End: end, NewText: l.Repo + ":" + newPath}, ""
}

func vacuousDetail(l *Leg) string {
	const head = "glob matched no tracked files — "
	switch l.Mode {
	case ModeAbsent:
		return head + "a rename greens this tombstone silently; fix the glob"
	case ModeUnique:
		return head + "fix the glob so the check can see"
	case ModeCount:
		return head + "count=" + l.countText() + " cannot ratchet; fix the glob"
	}
	return head + l.ModeText() + " over nothing proves nothing; a rename greens the claim silently; fix the glob"
}

// matchList: up to three key:path:line entries, then " +N more" (total
// counts every match, also those beyond maxMatches).
func matchList(ms []Match, total int) string {
	var s []string
	for _, m := range ms[:min(len(ms), 3)] {
		s = append(s, m.String())
	}
	out := strings.Join(s, ", ")
	if total > len(s) {
		out += fmt.Sprintf(" +%d more", total-len(s))
	}
	return out
}

// capList keeps max entries; the tail is " +N more" (more == " +") or the
// literal more text (", …").
func capList(items []string, max int, more string) string {
	if len(items) <= max {
		return strings.Join(items, ", ")
	}
	head := strings.Join(items[:max], ", ")
	if more == " +" {
		return fmt.Sprintf("%s +%d more", head, len(items)-max)
	}
	return head + more
}

// evalCodeLeg maps a symbol anchor's state onto a leg state (docs/claims.md).
func evalCodeLeg(c *CodeLeg) LegResult {
	lr := LegResult{Doc: c.Doc, Line: c.Line, Mode: ModeCode, ModeText: string(ModeCode)}
	with := func(base string) string {
		if c.Message != "" {
			return base + " (" + c.Message + ")"
		}
		return base
	}
	switch c.State {
	case "fresh":
		lr.State = StateOK
	case "moved-renamed":
		lr.State, lr.Detail = StateMoved, with("declaration moved or renamed — rerun without --check to rebind it")
	case "stale":
		lr.State, lr.Detail = StateBroken, with("body changed since the claim was reviewed — confirm or amend the claim")
	case "lost":
		lr.State, lr.Detail = StateBroken, with("declaration not found — rebind the anchor, or amend the claim")
	case "unpinned":
		lr.State, lr.Detail = StatePending, with("unpinned — never reviewed; pin it with clew-lsp confirm")
	case "unchecked":
		lr.State, lr.Detail = StateUnevaluated, with("unchecked — the anchor budget ran out before it was settled")
	default:
		lr.State, lr.Detail = StateUnevaluated, with(fmt.Sprintf("unknown anchor state %q", c.State))
	}
	return lr
}

// missingRepo stands for a declared repo the workspace did not pass.
type missingRepo string

func (m missingRepo) Key() string                { return string(m) }
func (m missingRepo) Identity() string           { return "\x00missing:" + string(m) }
func (m missingRepo) OnDisk() bool               { return false }
func (m missingRepo) Files() []string            { return nil }
func (m missingRepo) Read(string) ([]byte, bool) { return nil, false }
func (m missingRepo) Untracked() []string        { return nil }
func (m missingRepo) Facts() ReadFacts           { return ReadFacts{Kind: ReadNotOnDisk} }
