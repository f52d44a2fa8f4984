package contextmap

import (
	"slices"
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// The identifier index outlives its snapshot. Each base leaves its files'
// records and its index behind (in the Load's memo, and in the persistent
// store: lexpack.go); the next base trusts a record whose file's stat is
// the one recorded — the file is then neither read nor hashed nor scanned —
// and patches the index for the files it had to read. A stat is recorded
// only when the file had not changed for workspace.RacyWindow before the
// build started (workspace.TrustedStat: git's rule against a rewrite within
// the clock's granularity): any later write then moves its time, size or
// status-change time.

// cxRecord is what the index knows of one file's content.
type cxRecord struct {
	stat workspace.FileStat // the trusted stat; Ok false: read it again next time
	blob string
	st   anchors.FileStatus
	lang symbols.Language // the scan's language; "" without a scan
}

// cxIndexed is one base's files, their records and its index.
type cxIndexed struct {
	paths []string
	recs  []cxRecord
	lex   *cxLex
}

// cxMemo is the newest index of a Load's snapshots.
type cxMemo struct {
	mu   sync.Mutex
	last *cxIndexed
}

func (m *cxMemo) get() *cxIndexed {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.last
}

func (m *cxMemo) put(x *cxIndexed) {
	m.mu.Lock()
	m.last = x
	m.mu.Unlock()
}

// reusable is prev's record of p when the file's stat says its content is
// the recorded one and the scan is of the language p has now.
func (prev *cxIndexed) reusable(p string, st workspace.FileStat, lang symbols.Language) (int, bool) {
	if prev == nil || !st.Ok {
		return 0, false
	}
	j, ok := slices.BinarySearch(prev.paths, p)
	if !ok {
		return 0, false
	}
	r := prev.recs[j]
	// A file recorded unread (too large, binary, missing) has no scan
	// whose language could be wrong.
	if !workspace.StatUnchanged(r.stat, st) || r.st == anchors.FileOK && r.lang != lang {
		return 0, false
	}
	return j, true
}

// patch is prev's index for a new list of files: reused[i] is the index in
// prev of file i when its record was reused, else -1 and scans[i] is its new
// scan (nil without one). The file index must fit the keys' low bits as
// before (lexIdxBits of both lists equal).
func (prev *cxIndexed) patch(reused []int, scans []*cxLexFile, words *vocabSink) *cxLex {
	old := prev.lex
	bits := old.idxBits
	same := len(reused) == len(prev.paths)
	toNew := make([]int32, len(prev.paths))
	for i := range toNew {
		toNew[i] = -1
	}
	x := &cxLex{decls: make([][]string, len(reused)), idxBits: bits}
	var occAdd, decAdd []uint64
	for i, j := range reused {
		if j >= 0 {
			toNew[j] = int32(i)
			x.decls[i] = old.decls[j]
			same = same && j == i
			continue
		}
		same = false
		if lf := scans[i]; lf != nil {
			x.decls[i] = nonNil(lf.decls)
			occAdd, decAdd = appendKeys(occAdd, decAdd, lf, i, bits)
		}
	}
	if same {
		x.occ, x.dec = old.occ, old.dec // nothing changed: share the keys
	} else {
		x.occ = patchKeys(old.occ, toNew, occAdd, bits)
		x.dec = patchKeys(old.dec, toNew, decAdd, bits)
	}
	x.vocab = old.vocab.withWords(words)
	x.init()
	return x
}

// patchKeys keeps the keys of reused files under their new index (an
// order-preserving map: both lists are sorted by path) and merges in the
// new files' keys.
func patchKeys(keys []uint64, toNew []int32, add []uint64, bits uint) []uint64 {
	mask := uint64(1)<<bits - 1
	radixSort(add)
	out := make([]uint64, 0, len(keys)+len(add))
	for _, k := range keys {
		i := toNew[k&mask]
		if i < 0 {
			continue
		}
		k = k&^mask | uint64(i)
		for len(add) > 0 && add[0] < k {
			out, add = append(out, add[0]), add[1:]
		}
		out = append(out, k)
	}
	return append(out, add...)
}
