package workspace

// SetMemoLimits shrinks every memo and cache to n entries for the
// snapshots loaded afterwards; the returned func restores the sizes.
func SetMemoLimits(n int) (restore func()) {
	m, c := memoLimits, cacheLimits
	memoLimits.indexes, memoLimits.verdicts, memoLimits.suggestions, memoLimits.needs, memoLimits.history = n, n, n, n, n
	cacheLimits.tables, cacheLimits.docs = n, n
	return func() { memoLimits, cacheLimits = m, c }
}

// SetMentionPrefilter turns the Go layout test of the mention prefilter on
// or off (off: the word test alone); the returned func restores it.
func SetMentionPrefilter(on bool) (restore func()) {
	was := mentionPrefilter
	mentionPrefilter = on
	return func() { mentionPrefilter = was }
}

// MentionCoverageSettled is Snapshot.MentionCoverage and how many mentions
// it settled without parsing every candidate file.
func (s *Snapshot) MentionCoverageSettled(rep *Report) (MentionCoverage, int) {
	return s.mentionCoverage(rep)
}

// DocVersions is how many versions of one doc the doc cache keeps.
const DocVersions = docVersions

// SetGoBodyFilter turns the body-hash test of the history-less rename
// search on or off (off: every Go file is parsed); the returned func
// restores it.
func SetGoBodyFilter(on bool) (restore func()) {
	was := goBodyFilter
	goBodyFilter = on
	return func() { goBodyFilter = was }
}
