package workspace

import (
	"crypto/sha256"
	"encoding/binary"
	"sync/atomic"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// A complete repository-wide pass is also kept in the persistent store,
// one entry per workspace root, so the next process on an unchanged tree
// (a second verify, the context after a verify, a server restart) answers
// it from there instead of reading every candidate again. The entry holds
// the pass's key (partKey: the needs, the candidates' families and hints,
// the cheap pass's files, the budget), and per candidate, in candidate
// order, the trusted stat it was scanned under (filerecord.go), its
// status and, when accepted, its content hash. It is taken only when the
// candidates are the same list and every one has that stat still; the
// accepted files' tables come from the table store by hash, or are read
// and parsed again, and a file whose content is not the recorded hash
// drops the entry. Anything else — another key, a changed or new file, a
// malformed entry — runs the pass in full, as before, and rewrites it.

// widePartScheme names the layout below; change it with it or with what
// a pass's answer depends on.
const widePartScheme = "clew-lsp repository-wide part v1"

// widePartWrites spaces the rewrites of one root's entry in a
// long-running process (a server re-runs the pass as files change).
var widePartWrites = &WriteThrottle{Every: 10 * time.Second}

var widePartsTaken atomic.Int64 // passes answered from the store (tests)

func widePartKey(root string) [sha256.Size]byte {
	return sha256.Sum256([]byte(widePartScheme + "\x00" + root))
}

// storedCand is one candidate as the entry keeps it.
type storedCand struct {
	path     string
	st       anchors.FileStatus
	size     int
	spent    bool
	stat     FileStat
	accepted bool
	sum      [sha256.Size]byte
}

// persistPart writes a complete pass's results (in cands' order) as the
// root's entry, when every candidate's stat is one a record may trust for
// reads made after start and no parse gave up.
func (r *checkRun) persistPart(pk [sha256.Size]byte, cands []string, results []parsed, start time.Time) {
	store := Unbundled(r.s.tables.persistent())
	if store == nil || len(cands) == 0 || len(results) != len(cands) {
		return
	}
	stats := r.s.FileStats(cands) // none Ok without a FileStater: nothing is kept
	recs := make([]storedCand, len(results))
	for i, res := range results {
		stat := TrustedStat(stats[i], start)
		if !stat.Ok || res.path != cands[i] || res.st == anchors.FileUnread {
			return // a record that could never be taken
		}
		if res.gaveUp {
			return // a parse cut short is not the file's answer
		}
		recs[i] = storedCand{path: res.path, st: res.st, size: res.size, spent: res.spent, stat: stat,
			accepted: res.decls != nil, sum: res.sum}
	}
	key := widePartKey(r.s.root)
	if !widePartWrites.Due(key) {
		return
	}
	root := r.s.root
	PutLater(store, key, func() []byte { return encodeWidePart(root, pk, recs) })
}

// partFromStore puts the root's stored pass into the memo (for fromPart)
// when it answers pk for these candidates as the disk holds them now.
func (r *checkRun) partFromStore(pk [sha256.Size]byte, cands []string, dirs map[string]bool) bool {
	store := Unbundled(r.s.tables.persistent())
	if store == nil || r.lazy || len(cands) == 0 {
		return false
	}
	if _, ok := r.s.files.(FileStater); !ok {
		return false
	}
	data, ok := store.Get(widePartKey(r.s.root))
	if !ok {
		return false
	}
	stored, recs, ok := decodeWidePart(data, r.s.root)
	if !ok || stored != pk || len(recs) != len(cands) {
		return false
	}
	for i, c := range recs {
		if c.path != cands[i] {
			return false
		}
	}
	stats := r.s.FileStats(cands)
	for i, c := range recs {
		if !StatUnchanged(c.stat, stats[i]) {
			return false
		}
	}
	results := make([]parsed, len(recs))
	var accepted []parsed
	ix := anchors.NewIndex()
	for i, c := range recs {
		results[i] = parsed{path: c.path, sum: c.sum, st: c.st, size: c.size, spent: c.spent}
		if !c.accepted {
			continue
		}
		lang, ok := r.s.Language(c.path)
		if !ok {
			return false
		}
		t, ok := r.storedTable(c.path, lang, c.sum)
		if !ok || t.Decls == nil {
			return false
		}
		results[i].decls = t.Decls
		accepted = append(accepted, results[i])
		ix.Add(c.path, t.Decls)
	}
	r.memo.parts.put(pk, r.newPart(results, accepted, ix, dirs))
	widePartsTaken.Add(1)
	return true
}

// storedTable is the table of the file at p whose content hash is sum:
// memoised or stored, else parsed from the file when it still has that
// content (false when it has not).
func (r *checkRun) storedTable(p string, lang symbols.Language, sum [sha256.Size]byte) (symbols.Table, bool) {
	if t, ok := r.s.tables.storedSum(lang, sum); ok {
		return t, true
	}
	b, st, got := r.s.readSum(p)
	if st != anchors.FileOK || got != sum {
		return symbols.Table{}, false
	}
	return r.tableOf(p, lang, sum, b), true
}

// Layout (uvarints; strings as a length and bytes):
//
//	scheme, root, pass key (32 bytes as a string), count; per candidate:
//	  path, status, size, spent (0/1), stat size, mtime, ctime, inode,
//	  accepted (0/1), then its 32-byte hash as a string when accepted.
func encodeWidePart(root string, pk [sha256.Size]byte, recs []storedCand) []byte {
	n := len(widePartScheme) + len(root) + sha256.Size + 4*binary.MaxVarintLen64
	for _, c := range recs {
		n += len(c.path) + 9*binary.MaxVarintLen64
		if c.accepted {
			n += sha256.Size + 1
		}
	}
	b := AppendPackString(make([]byte, 0, n), widePartScheme)
	b = AppendPackString(b, root)
	b = AppendPackString(b, string(pk[:]))
	b = binary.AppendUvarint(b, uint64(len(recs)))
	for _, c := range recs {
		b = AppendPackString(b, c.path)
		for _, v := range []uint64{uint64(c.st), uint64(c.size), flag(c.spent),
			uint64(c.stat.Size), uint64(c.stat.ModTime), uint64(c.stat.Ctime), c.stat.Inode, flag(c.accepted)} {
			b = binary.AppendUvarint(b, v)
		}
		if c.accepted {
			b = AppendPackString(b, string(c.sum[:]))
		}
	}
	return b
}

func flag(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// minStoredCand is the fewest bytes a candidate's record takes: a path of
// one byte and its length, and eight numbers of one byte.
const minStoredCand = 10

// decodeWidePart reads root's entry: the pass's key and its candidates;
// false for another root or anything that does not hold together.
func decodeWidePart(data []byte, root string) (pk [sha256.Size]byte, recs []storedCand, ok bool) {
	r := &PackReader{S: string(data)}
	if r.Str() != widePartScheme || r.Str() != root {
		return pk, nil, false
	}
	if k := r.Str(); len(k) == sha256.Size {
		copy(pk[:], k)
	} else {
		return pk, nil, false
	}
	n := r.Num()
	if r.Bad || n > uint64(len(r.S)-r.Off)/minStoredCand {
		return pk, nil, false // more candidates than their records could fill
	}
	recs = make([]storedCand, n)
	for i := range recs {
		c := storedCand{path: r.Str()}
		st, size, spent := r.Num(), r.Num(), r.Num()
		c.stat = FileStat{Size: int64(r.Num()), ModTime: int64(r.Num()), Ctime: int64(r.Num()), Inode: r.Num(), Ok: true}
		accepted := r.Num()
		if r.Bad || c.path == "" || st > uint64(anchors.FileTooLarge) || spent > 1 || accepted > 1 || size > 1<<40 {
			return pk, nil, false
		}
		c.st, c.size, c.spent, c.accepted = anchors.FileStatus(st), int(size), spent == 1, accepted == 1
		if c.accepted {
			s := r.Str()
			if len(s) != sha256.Size || c.st != anchors.FileOK {
				return pk, nil, false
			}
			copy(c.sum[:], s)
		}
		recs[i] = c
	}
	if !r.Done() {
		return pk, nil, false
	}
	return pk, recs, true
}
