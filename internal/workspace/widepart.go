package workspace

import (
	"crypto/sha256"
	"path"
	"sort"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// widePart is a repository-wide pass's answer for the files on disk: which
// candidates were scanned (their statuses), which were accepted and parsed
// (in candidate order, indexed), and what parsing them spent of the
// budget. Under one disk state and one set of needs it does not change, so
// the pass after a keystroke scans only the open buffers among the
// candidates and merges them in, instead of walking thousands of files'
// memoised answers again.
type widePart struct {
	status  map[string]anchors.FileStatus // every disk candidate scanned
	sums    map[string][sha256.Size]byte  // the accepted files' hashes
	entries []parsed                      // the accepted files, in candidate order
	pos     map[string]int                // entry by path
	files   int                           // files parsed (budget)
	bytes   int64                         // bytes parsed (budget)
	skipped []SkippedFile
	ix      *anchors.Index // entries, indexed in order
	dirs    map[string]bool
}

// partKey is everything a widePart depends on besides the disk state: the
// needs, the candidates' families and hint directories, the files the
// cheap pass read (they are no candidates), the budget, and which listed
// candidates are open buffers (those are scanned each time, never part).
func (r *checkRun) partKey(needs, cands [sha256.Size]byte, families map[string]bool) [sha256.Size]byte {
	b := r.sp.b
	k := (&keyer{}).sum(needs).sum(cands).sum(r.cheapPaths).
		int(b.MaxFiles).int(int(b.MaxBytes)).int(int(b.MaxFileBytes))
	var open []string
	for p := range r.s.overlays {
		if _, done := r.status[p]; done || !r.s.inList(p) {
			continue
		}
		if lang, ok := r.s.Language(p); ok && families[LanguageFamily(lang)] {
			open = append(open, p)
		}
	}
	sort.Strings(open)
	for _, p := range open {
		k.str(p)
	}
	return k.done()
}

// candLess is the candidates' order: the hints' directories first, then
// path order (candidates, mergeCandidates).
func candLess(dirs map[string]bool) func(a, b string) bool {
	return func(a, b string) bool {
		na, nb := dirs[path.Dir(a)], dirs[path.Dir(b)]
		if na != nb {
			return na
		}
		return a < b
	}
}

// fromPart answers the repository-wide pass from a memoised widePart and
// a scan of the open buffers among the candidates. It declines (false)
// without a part, after a lazy read, when a buffer is SQL (histories are
// replayed whole), or when the budget could stop the pass: then the pass
// runs in full, as a fresh check would.
func (r *checkRun) fromPart(pk [sha256.Size]byte, families, dirs map[string]bool, scan func([]string) ([]parsed, error)) (bool, error) {
	if r.lazy {
		return false, nil
	}
	part, ok := r.memo.parts.get(pk)
	if !ok {
		return false, nil
	}
	var open []string
	var openBytes int64
	for p, b := range r.s.overlays {
		if _, done := r.status[p]; done {
			continue
		}
		lang, ok := r.s.Language(p)
		if !ok || !families[LanguageFamily(lang)] {
			continue
		}
		if lang == symbols.SQL {
			return false, nil
		}
		open = append(open, p)
		openBytes += int64(len(b))
	}
	less := candLess(dirs)
	sort.Slice(open, func(i, j int) bool { return less(open[i], open[j]) })
	files, bytes := r.sp.read()
	if b := r.sp.b; files+part.files+len(open) > b.MaxFiles || bytes+part.bytes+openBytes >= b.MaxBytes {
		return false, nil
	}
	results, err := scan(open)
	if err != nil {
		return true, err
	}
	var over []parsed
	for _, res := range results {
		if res.st == anchors.FileUnread {
			continue
		}
		r.status[res.path] = res.st
		if res.decls != nil {
			r.sums[res.path] = res.sum
			over = append(over, res)
		}
	}
	r.sp.spendN(part.files, part.bytes)
	r.wideStatus, r.wideSums, r.wideSkipped = part.status, part.sums, part.skipped

	// The index key lists the accepted files in candidate order.
	key := &keyer{}
	for i, j := 0, 0; i < len(part.entries) || j < len(over); {
		if i == len(part.entries) || j < len(over) && less(over[j].path, part.entries[i].path) {
			key.str(over[j].path).sum(over[j].sum)
			j++
		} else {
			key.str(part.entries[i].path).sum(part.entries[i].sum)
			i++
		}
	}
	r.wideKey, r.ix = key.done(), nil
	switch ix, ok := r.memo.wide.get(r.wideKey); {
	case ok && !r.sp.stopped():
		r.wide = ix
	case len(over) == 0:
		r.wide = part.ix
	default:
		// The part's index patched with the buffers, each at its
		// candidate rank: lookups answer as an index of all of them.
		rank := func(p string) int {
			if i, ok := part.pos[p]; ok {
				return 2 * i
			}
			return 2*sort.Search(len(part.entries), func(i int) bool { return !less(part.entries[i].path, p) }) - 1
		}
		ix := anchors.NewIndexPatched(part.ix, nil, rank)
		for _, o := range over {
			ix.Add(o.path, o.decls)
		}
		r.wide = ix
		if !r.sp.stopped() {
			r.memo.wide.put(r.wideKey, ix)
		}
	}
	return true, nil
}

// newPart keeps what a complete repository-wide pass learnt of the disk's
// candidates; ix is the pass's index, reused when no buffer was accepted.
func (r *checkRun) newPart(results, accepted []parsed, ix *anchors.Index, dirs map[string]bool) *widePart {
	p := &widePart{status: map[string]anchors.FileStatus{}, sums: map[string][sha256.Size]byte{}, pos: map[string]int{}, dirs: dirs}
	openAccepted := false
	for _, res := range results {
		if _, open := r.s.overlays[res.path]; open {
			openAccepted = openAccepted || res.decls != nil
			continue
		}
		p.status[res.path] = res.st
		switch res.st {
		case anchors.FileBinary:
			p.skipped = append(p.skipped, SkippedFile{res.path, anchors.ReasonBinary})
		case anchors.FileTooLarge:
			p.skipped = append(p.skipped, SkippedFile{res.path, anchors.ReasonFileTooLarge})
		}
		if res.spent {
			p.files++
			p.bytes += int64(res.size)
		}
		if res.decls != nil {
			p.pos[res.path] = len(p.entries)
			p.sums[res.path] = res.sum
			p.entries = append(p.entries, res)
		}
	}
	if !openAccepted {
		p.ix = ix
		return p
	}
	p.ix = anchors.NewIndex()
	for _, e := range p.entries {
		p.ix.Add(e.path, e.decls)
	}
	return p
}

// statusOf is a file's status in this check: read by it, or scanned by the
// memoised part of its repository-wide pass.
func (r *checkRun) statusOf(p string) (anchors.FileStatus, bool) {
	if st, ok := r.status[p]; ok {
		return st, true
	}
	st, ok := r.wideStatus[p]
	return st, ok
}

// sumOf is an indexed file's content hash.
func (r *checkRun) sumOf(p string) ([sha256.Size]byte, bool) {
	if s, ok := r.sums[p]; ok {
		return s, true
	}
	s, ok := r.wideSums[p]
	return s, ok
}
