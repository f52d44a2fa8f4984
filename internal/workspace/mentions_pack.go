package workspace

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"sort"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// The mention records of one workspace root are one entry of the
// persistent store. The store vouches for the entry's integrity (version,
// key, checksum); decodeMentionRecords refuses anything that does not hold
// together — a wrong scheme or root, a length past the end, paths out of
// order, a status no record has, hashes out of order, bytes left over —
// and a refused entry only means every file is read again.

// mentionScheme names the layout below and the rules a record follows
// (newMentionRecord, the lexer's and placesOf's rules as of this build:
// the store keeps each build's entries apart). Change it with either.
const mentionScheme = "clew-lsp mention records v2"

// mentionPackWrites spaces the rewrites of one root's entry in a
// long-running process (the server's verifyWorkspace).
var mentionPackWrites = &WriteThrottle{Every: 10 * time.Second}

var errBadMentionPack = errors.New("mention records: malformed entry")

func mentionPackKey(root string) [sha256.Size]byte {
	return sha256.Sum256([]byte(mentionScheme + "\x00" + root))
}

// loadMentionRecords are the stored records of root, sorted by path (nil
// without a store or a good entry).
func loadMentionRecords(store TableStore, root string) []mentionRecord {
	if store == nil {
		return nil
	}
	data, ok := store.Get(mentionPackKey(root))
	if !ok {
		return nil
	}
	recs, err := decodeMentionRecords(data, root)
	if err != nil {
		return nil
	}
	return recs
}

// storeMentionRecords writes recs (sorted by path) as root's entry, at
// most every mentionPackWrites.Every per process.
func storeMentionRecords(store TableStore, root string, recs []mentionRecord) {
	if store == nil {
		return
	}
	key := mentionPackKey(root)
	if !mentionPackWrites.Due(key) {
		return
	}
	store.Put(key, encodeMentionRecords(recs, root))
}

// Layout (uvarints; strings as a length and bytes):
//
//	scheme, root, count; per record: path, language, status, size,
//	  mtime, ctime, inode, hash count, first hash, then the gaps between
//	  successive hashes (each at least 1).
func encodeMentionRecords(recs []mentionRecord, root string) []byte {
	n := len(mentionScheme) + len(root) + 2*binary.MaxVarintLen64
	for _, r := range recs {
		n += len(r.path) + len(r.lang) + 8*binary.MaxVarintLen64 + 5*len(r.names)
	}
	b := AppendPackString(make([]byte, 0, n), mentionScheme)
	b = AppendPackString(b, root)
	b = binary.AppendUvarint(b, uint64(len(recs)))
	for _, r := range recs {
		b = AppendPackString(b, r.path)
		b = AppendPackString(b, string(r.lang))
		for _, v := range []uint64{uint64(r.st), uint64(r.stat.Size), uint64(r.stat.ModTime), uint64(r.stat.Ctime), r.stat.Inode} {
			b = binary.AppendUvarint(b, v)
		}
		b = binary.AppendUvarint(b, uint64(len(r.names)))
		prev := uint32(0)
		for k, h := range r.names {
			if k == 0 {
				b = binary.AppendUvarint(b, uint64(h))
			} else {
				b = binary.AppendUvarint(b, uint64(h-prev))
			}
			prev = h
		}
	}
	return b
}

// decodeMentionRecords reads an entry; anything inconsistent is an error.
func decodeMentionRecords(data []byte, root string) ([]mentionRecord, error) {
	r := &PackReader{S: string(data)}
	if r.Str() != mentionScheme || r.Str() != root {
		return nil, errBadMentionPack
	}
	n := r.Num()
	if r.Bad || n > uint64(len(r.S)) {
		return nil, errBadMentionPack
	}
	recs := make([]mentionRecord, n)
	var hashes []uint32
	for i := range recs {
		rec := mentionRecord{path: r.Str(), lang: symbols.Language(r.Str()), st: anchors.FileStatus(r.Num())}
		rec.stat = FileStat{Size: int64(r.Num()), ModTime: int64(r.Num()), Ctime: int64(r.Num()), Inode: r.Num(), Ok: true}
		if rec.st != anchors.FileOK && rec.st != anchors.FileBinary || rec.path == "" || i > 0 && recs[i-1].path >= rec.path {
			return nil, errBadMentionPack
		}
		nh := r.Num()
		if r.Bad || nh > uint64(len(r.S)-r.Off) {
			return nil, errBadMentionPack
		}
		from := len(hashes)
		var h uint64
		for k := uint64(0); k < nh; k++ {
			v := r.Num()
			if k > 0 && v == 0 {
				return nil, errBadMentionPack
			}
			if h += v; h > 1<<32-1 {
				return nil, errBadMentionPack
			}
			hashes = append(hashes, uint32(h))
		}
		rec.names = hashes[from:len(hashes):len(hashes)]
		if r.Bad {
			return nil, errBadMentionPack
		}
		recs[i] = rec
	}
	if !r.Done() {
		return nil, errBadMentionPack
	}
	return recs, nil
}

// findRecord is recs' record of p (recs sorted by path).
func findRecord(recs []mentionRecord, p string) (*mentionRecord, bool) {
	i := sort.Search(len(recs), func(i int) bool { return recs[i].path >= p })
	if i < len(recs) && recs[i].path == p {
		return &recs[i], true
	}
	return nil, false
}
