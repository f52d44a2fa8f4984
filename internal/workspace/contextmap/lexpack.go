package contextmap

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"slices"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// The identifier index in the persistent store (the table store, under a
// key of its own): a cold process on an unchanged tree stats its files and
// takes their records, scans and keys from here instead of reading,
// hashing and scanning the whole tree. The store vouches for an entry's
// integrity (version, key, checksum); decodeIndex refuses anything that
// does not hold together (lengths, sort order, file indexes), and a
// refused or missing entry only means the tree is read again.

// lexPackScheme names everything an entry depends on besides the files:
// the layout below and the scan's rules (lexScan, lineScan, identHash).
// Change it with either.
const lexPackScheme = "clew-lsp context index v1"

// maxPackBytes bounds what is persisted: a larger index stays in memory.
const maxPackBytes = 512 << 20

// packWrites spaces the rewrites of one entry in a long-running process
// (a server saving files): the entry is a cache, a few files read again
// by the next process cost less than rewriting it on every save.
var packWrites = &workspace.WriteThrottle{Every: 10 * time.Second}

func packKey(root string) [sha256.Size]byte {
	return sha256.Sum256([]byte(lexPackScheme + "\x00" + root))
}

// indexStore is where the index is kept: beside a bundle, not in it (it
// is large and changes with any file, a bundle with the entries a run
// asks for).
func indexStore(s *workspace.Snapshot) workspace.TableStore {
	if store := s.PersistentStore(); store != nil {
		return workspace.Unbundled(store)
	}
	return nil
}

// loadIndex is the persisted index of s's root, or nil.
func loadIndex(s *workspace.Snapshot) *cxIndexed {
	store := indexStore(s)
	if store == nil {
		return nil
	}
	data, ok := store.Get(packKey(s.Root()))
	if !ok {
		return nil
	}
	x, err := decodeIndex(data, s.Root())
	if err != nil {
		return nil
	}
	return x
}

// storeIndex persists x as s's root's index (at most every packWrites.Every).
func storeIndex(s *workspace.Snapshot, x *cxIndexed) {
	store := indexStore(s)
	if store == nil {
		return
	}
	key := packKey(s.Root())
	if !packWrites.Due(key) {
		return
	}
	root := s.Root()
	encode := func() []byte {
		data := encodeIndex(x, root)
		if len(data) > maxPackBytes {
			return nil
		}
		return data
	}
	// The index of a large tree is tens of megabytes: a store that can
	// encodes it beside the answer (x is not modified after it is made:
	// the next snapshot's index is a patched copy).
	workspace.PutLater(store, key, encode)
}

// Layout (little endian; uvarint lengths and counts):
//
//	scheme, root
//	files n; per file: path, blob, status, lang, stat (size, mtime,
//	  ctime, inode; all 0 when not trusted), hints count (0 without a
//	  scan is told apart by the flag byte) and hints
//	idxBits; occ keys; dec keys
//	vocabulary: words (hash, word), collided hashes
//
// Strings sit in the first section, read as one string and sliced; the
// key arrays follow as raw words.
func encodeIndex(x *cxIndexed, root string) []byte {
	var meta []byte
	str := func(s string) {
		meta = binary.AppendUvarint(meta, uint64(len(s)))
		meta = append(meta, s...)
	}
	num := func(v uint64) { meta = binary.AppendUvarint(meta, v) }
	str(lexPackScheme)
	str(root)
	num(uint64(len(x.paths)))
	for i, p := range x.paths {
		r := x.recs[i]
		str(p)
		str(r.blob)
		num(uint64(r.st))
		str(string(r.lang))
		if r.stat.Ok {
			num(1)
			num(uint64(r.stat.Size))
			num(uint64(r.stat.ModTime))
			num(uint64(r.stat.Ctime))
			num(r.stat.Inode)
		} else {
			num(0)
		}
		d := x.lex.decls[i]
		if d == nil {
			num(0)
			continue
		}
		num(1 + uint64(len(d)))
		for _, w := range d {
			str(w)
		}
	}
	v := x.lex.vocab
	words := make([]vocabWord, len(v.hashes))
	for i, h := range v.hashes {
		words[i] = vocabWord{h, v.text[v.offs[i]:v.offs[i+1]]}
	}
	words = mergeWords(make([]vocabWord, 0, len(words)+len(v.extra)), words, v.extra)
	num(uint64(len(words)))
	for _, w := range words {
		str(w.w)
	}
	collided := make([]uint64, 0, len(v.collided))
	for h := range v.collided {
		collided = append(collided, h)
	}
	slices.Sort(collided)

	out := binary.AppendUvarint(nil, uint64(len(meta)))
	out = append(out, meta...)
	out = append(out, byte(x.lex.idxBits))
	u64s := func(a []uint64) {
		out = binary.AppendUvarint(out, uint64(len(a)))
		for _, k := range a {
			out = binary.LittleEndian.AppendUint64(out, k)
		}
	}
	u64s(x.lex.occ)
	u64s(x.lex.dec)
	hashes := make([]uint64, len(words))
	for i, w := range words {
		hashes[i] = w.h
	}
	u64s(hashes)
	u64s(collided)
	return out
}

var errBadPack = errors.New("context index: malformed entry")

// decodeIndex reads an entry; anything inconsistent is an error.
func decodeIndex(data []byte, root string) (*cxIndexed, error) {
	mlen, n := binary.Uvarint(data)
	if n <= 0 || mlen > uint64(len(data)-n) {
		return nil, errBadPack
	}
	r := &workspace.PackReader{S: string(data[n : n+int(mlen)])}
	rest := data[n+int(mlen):]
	if r.Str() != lexPackScheme || r.Str() != root {
		return nil, errBadPack
	}
	nf := r.Num()
	if r.Bad || nf > uint64(len(r.S)) {
		return nil, errBadPack
	}
	x := &cxIndexed{paths: make([]string, nf), recs: make([]cxRecord, nf)}
	lex := &cxLex{decls: make([][]string, nf)}
	for i := range x.paths {
		x.paths[i] = r.Str()
		rec := cxRecord{blob: r.Str(), st: anchors.FileStatus(r.Num()), lang: symbols.Language(r.Str())}
		if r.Num() == 1 {
			rec.stat = workspace.FileStat{Size: int64(r.Num()), ModTime: int64(r.Num()), Ctime: int64(r.Num()), Inode: r.Num(), Ok: true}
		}
		x.recs[i] = rec
		if nd := r.Num(); nd > 0 {
			if nd-1 > uint64(len(r.S)) {
				return nil, errBadPack
			}
			d := make([]string, nd-1)
			for k := range d {
				d[k] = r.Str()
			}
			if !slices.IsSorted(d) {
				return nil, errBadPack
			}
			lex.decls[i] = d
		}
		if r.Bad || i > 0 && x.paths[i-1] >= x.paths[i] {
			return nil, errBadPack
		}
	}
	nw := r.Num()
	if r.Bad || nw > uint64(len(r.S)) {
		return nil, errBadPack
	}
	words := make([]string, nw)
	for k := range words {
		words[k] = r.Str()
	}
	if r.Bad || r.Off != len(r.S) || len(rest) < 1 {
		return nil, errBadPack
	}
	lex.idxBits = uint(rest[0])
	rest = rest[1:]
	if lex.idxBits != lexIdxBits(int(nf)) {
		return nil, errBadPack
	}
	var ok bool
	arrays := make([][]uint64, 4)
	for k := range arrays {
		if arrays[k], rest, ok = readU64s(rest); !ok {
			return nil, errBadPack
		}
	}
	if len(rest) != 0 {
		return nil, errBadPack
	}
	lex.occ, lex.dec = arrays[0], arrays[1]
	mask := uint64(1)<<lex.idxBits - 1
	for _, keys := range [][]uint64{lex.occ, lex.dec} {
		for k, key := range keys {
			if k > 0 && keys[k-1] >= key || key&mask >= nf || lex.decls[key&mask] == nil {
				return nil, errBadPack
			}
		}
	}
	hashes := arrays[2]
	if len(hashes) != len(words) {
		return nil, errBadPack
	}
	vw := make([]vocabWord, len(words))
	for k, w := range words {
		if k > 0 && hashes[k-1] >= hashes[k] {
			return nil, errBadPack
		}
		vw[k] = vocabWord{hashes[k], w}
	}
	var collided map[uint64]bool
	if len(arrays[3]) > 0 {
		collided = map[uint64]bool{}
		for _, h := range arrays[3] {
			collided[h] = true
		}
	}
	lex.vocab = vocabOf(vw, collided)
	lex.init()
	x.lex = lex
	return x, nil
}

func readU64s(b []byte) ([]uint64, []byte, bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k)/8 {
		return nil, nil, false
	}
	b = b[k:]
	out := make([]uint64, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return out, b[8*n:], true
}
