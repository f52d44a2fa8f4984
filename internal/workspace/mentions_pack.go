package workspace

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"sort"
	"sync"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// The mention records of one workspace root are one entry of the
// persistent store. The store vouches for the entry's integrity (version,
// key, checksum); decodeMentionRecords refuses anything that does not hold
// together — a wrong scheme or root, a length past the end, paths out of
// order, a status no record has, hashes out of order, bytes left over —
// and a refused entry only means every file is read again. A lexed
// record's declarations are decoded when a mention may name one of them;
// a record whose declarations do not decode is read again.

// mentionScheme names the layout below and the rules a record follows
// (newMentionRecord, the lexer's and placesOf's rules as of this build:
// the store keeps each build's entries apart). Change it with either.
const mentionScheme = "clew-lsp mention records v1"

// mentionPackWriteEvery spaces the rewrites of one root's entry in a
// long-running process (the server's verifyWorkspace).
var mentionPackWriteEvery = 10 * time.Second

var mentionPackWrites sync.Map // key → time of the last write

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
// most every mentionPackWriteEvery per process.
func storeMentionRecords(store TableStore, root string, recs []mentionRecord) {
	if store == nil {
		return
	}
	key := mentionPackKey(root)
	now := time.Now()
	if last, ok := mentionPackWrites.Load(key); ok && now.Sub(last.(time.Time)) < mentionPackWriteEvery {
		return
	}
	mentionPackWrites.Store(key, now)
	store.Put(key, encodeMentionRecords(recs, root))
}

// Layout (uvarints; strings as a length and bytes):
//
//	scheme, root, count; per record: path, language, status, size,
//	  mtime, ctime, inode, lexed (0 or 1); lexed: package, declarations
//	  (appendGoNames); else: hash count, first hash, then the gaps
//	  between successive hashes (each at least 1).
func encodeMentionRecords(recs []mentionRecord, root string) []byte {
	b := AppendPackString(nil, mentionScheme)
	b = AppendPackString(b, root)
	b = binary.AppendUvarint(b, uint64(len(recs)))
	for _, r := range recs {
		b = AppendPackString(b, r.path)
		b = AppendPackString(b, string(r.lang))
		for _, v := range []uint64{uint64(r.st), uint64(r.stat.Size), uint64(r.stat.ModTime), uint64(r.stat.Ctime), r.stat.Inode} {
			b = binary.AppendUvarint(b, v)
		}
		if r.lexed {
			b = append(b, 1)
			b = AppendPackString(b, r.pkg)
			b = AppendPackString(b, r.decls)
			continue
		}
		b = append(b, 0)
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
		switch r.Num() {
		case 1:
			rec.lexed, rec.pkg, rec.decls = true, r.Str(), r.Str()
		case 0:
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
		default:
			return nil, errBadMentionPack
		}
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

// appendGoNames encodes declarations for eachGoName: a count, then per
// declaration kind, name, container, start and end byte, start and end
// line.
func appendGoNames(b []byte, names []symbols.GoName) []byte {
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, n := range names {
		b = AppendPackString(b, n.Kind)
		b = AppendPackString(b, n.Name)
		b = AppendPackString(b, n.Container)
		for _, v := range []int{n.StartByte, n.EndByte, n.StartLine, n.EndLine} {
			b = binary.AppendUvarint(b, uint64(v))
		}
	}
	return b
}

// eachGoName calls fn with each declaration of an appendGoNames encoding
// (its strings share enc's memory; QualifiedName is left empty, it is
// Container.Name) until fn returns false; ok is false when enc does not
// decode.
func eachGoName(enc string, fn func(n symbols.GoName) bool) (ok bool) {
	r := &PackReader{S: enc}
	count := r.Num()
	if r.Bad || count > uint64(len(enc)) {
		return false
	}
	for k := uint64(0); k < count; k++ {
		n := symbols.GoName{Kind: r.Str(), Name: r.Str(), Container: r.Str()}
		n.StartByte, n.EndByte, n.StartLine, n.EndLine = int(r.Num()), int(r.Num()), int(r.Num()), int(r.Num())
		if r.Bad || n.Name == "" || n.Kind == "" {
			return false
		}
		if !fn(n) {
			return true
		}
	}
	return r.Done()
}
