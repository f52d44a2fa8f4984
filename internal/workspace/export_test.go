package workspace

import (
	"slices"
	"time"
)

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
	cov, settled, _ := s.mentionCoverage(rep)
	return cov, settled
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

// MentionCoverageReads is Snapshot.MentionCoverage and how many code files
// its first reading read (the others were answered by mention records).
func (s *Snapshot) MentionCoverageReads(rep *Report) (MentionCoverage, int) {
	cov, _, read := s.mentionCoverage(rep)
	return cov, read
}

// MentionPackKey is the store key of root's mention records.
func MentionPackKey(root string) [32]byte { return mentionPackKey(root) }

// DecodeMentionRecords reports whether an entry decodes for root, and how
// many records it holds.
func DecodeMentionRecords(data []byte, root string) (int, bool) {
	recs, err := decodeMentionRecords(data, root)
	if err != nil {
		return 0, false
	}
	return len(recs), true
}

// ReencodeMentionRecords decodes an entry and encodes it again.
func ReencodeMentionRecords(data []byte, root string) ([]byte, bool) {
	recs, err := decodeMentionRecords(data, root)
	if err != nil {
		return nil, false
	}
	return encodeMentionRecords(recs, root), true
}

// SetMentionPackWriteEvery sets how often one process rewrites a root's
// mention records; the returned func restores it.
func SetMentionPackWriteEvery(d time.Duration) (restore func()) {
	was := mentionPackWrites.Set(d)
	return func() { mentionPackWrites.Set(was) }
}

// SetWidePartWriteEvery spaces the rewrites of a root's stored
// repository-wide pass; the returned func restores it.
func SetWidePartWriteEvery(d time.Duration) (restore func()) {
	was := widePartWrites.Set(d)
	return func() { widePartWrites.Set(was) }
}

// WidePartsTaken counts the repository-wide passes answered from the
// persistent store since the process started.
func WidePartsTaken() int64 { return widePartsTaken.Load() }

// WidePartKey is the store key of root's repository-wide pass.
func WidePartKey(root string) [32]byte { return widePartKey(root) }

// WidePartPaths are the candidates of a stored repository-wide pass of
// root (false when the entry does not decode).
func WidePartPaths(data []byte, root string) ([]string, bool) {
	_, recs, ok := decodeWidePart(data, root)
	var out []string
	for _, c := range recs {
		out = append(out, c.path)
	}
	return out, ok
}

// SetGiveUpIn makes the repository-wide pass's parse of the files in
// paths give up, as at the parse's time bound; the returned func undoes it.
func SetGiveUpIn(paths ...string) (restore func()) {
	giveUpIn = func(p string) bool { return slices.Contains(paths, p) }
	return func() { giveUpIn = nil }
}
