package anchors

import "github.com/clew-lsp/clew-lsp/internal/anchors/hash"

// resolveLines checks a line-range anchor. Unlike ClewWiki's, ranges
// relocate: when the pinned block is not at its lines but appears exactly
// once elsewhere in the same file, the anchor is range_moved, so a line
// inserted above a range is not a false "stale".
func resolveLines(a Anchor, env Env) Result {
	content, _, r, ok := readTarget(a, env)
	if !ok {
		return r
	}
	lines := hash.SplitLines(content)
	inRange := a.EndLine <= len(lines)
	var actual string
	if inRange {
		actual = hash.Sum(hash.NormalisedLines(lines[a.StartLine-1 : a.EndLine]))
	}
	bind := func(start, end int, sum string) *Binding {
		return &Binding{Form: FormLines, Kind: "lines", Path: a.Path, StartLine: start, EndLine: end, DeclHash: sum}
	}
	base := Detail{Path: a.Path, LineStart: a.StartLine, LineEnd: a.EndLine}
	if !a.Pinned() {
		if !inRange {
			base.Reason = ReasonRangeMissing
			return Result{State: StateLost, Detail: base}
		}
		base.Reason = ReasonUnpinned
		return Result{State: StateUnpinned, Detail: base, Found: bind(a.StartLine, a.EndLine, actual)}
	}
	if inRange && actual == a.DeclSHA {
		base.Reason = ReasonIdentityMatched
		return Result{State: StateFresh, Detail: base, Found: bind(a.StartLine, a.EndLine, actual)}
	}
	if start, ok := relocate(lines, a.EndLine-a.StartLine+1, a.DeclSHA); ok {
		end := start + a.EndLine - a.StartLine
		d := Detail{Reason: ReasonRangeMoved, Path: a.Path, LineStart: start, LineEnd: end}
		return Result{State: StateMovedRenamed, Detail: d, Found: bind(start, end, a.DeclSHA)}
	}
	if inRange {
		base.Reason = ReasonRangeChanged
		base.ExpectedHash, base.ActualHash = a.DeclSHA, actual
		return Result{State: StateStale, Detail: base, Found: bind(a.StartLine, a.EndLine, actual)}
	}
	base.Reason = ReasonRangeMissing
	return Result{State: StateLost, Detail: base}
}

// relocate finds the single window of n lines whose normalised hash is sum.
// Two or more matches are not a relocation: the engine does not guess.
func relocate(lines []string, n int, sum string) (int, bool) {
	match := 0
	for s := 0; s+n <= len(lines); s++ {
		if hash.Sum(hash.NormalisedLines(lines[s:s+n])) == sum {
			if match != 0 {
				return 0, false
			}
			match = s + 1
		}
	}
	return match, match != 0
}
