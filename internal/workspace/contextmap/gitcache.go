package contextmap

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"slices"
	"sync"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
)

// The working tree's state (clean or dirty against HEAD) compares every
// file's blob id with HEAD's. Walking HEAD's tree for them (every tree
// object of the commit, read and inflated) was 8 % of a later `clew-lsp
// context`'s samples on GOROOT, and a server walked it again for every
// snapshot; a commit's tree never changes, so the map is kept per Load and
// in the persistent store under the commit's id.

// headFilesScheme names the layout below; change it with the layout.
const headFilesScheme = "clew-lsp head files v1"

// headFiles is g.HeadFiles() for HEAD at commit head: the Load's last
// answer when HEAD is the same commit (a server's every snapshot asks),
// else the store's when an earlier run kept it, else git's.
func headFiles(s *workspace.Snapshot, g workspace.GitLog, head string) map[string]string {
	last := s.LoadMemo(headFilesKey{}, func() any { return &lastHead{} }).(*lastHead)
	last.mu.Lock()
	defer last.mu.Unlock()
	if last.head == head && last.files != nil {
		return last.files
	}
	m := storedHeadFiles(s, g, head)
	if len(head) == 40 && m != nil {
		last.head, last.files = head, m
	}
	return m
}

// lastHead is the last HEAD's files a Load read (the map is not modified
// once made).
type lastHead struct {
	mu    sync.Mutex
	head  string
	files map[string]string
}

type headFilesKey struct{}

// storedHeadFiles is headFiles without the Load's memo.
func storedHeadFiles(s *workspace.Snapshot, g workspace.GitLog, head string) map[string]string {
	store := s.PersistentStore()
	if store == nil || len(head) != 40 {
		return g.HeadFiles()
	}
	key := sha256.Sum256([]byte(headFilesScheme + "\x00" + s.Root() + "\x00" + head))
	if data, ok := store.Get(key); ok {
		if m, ok := decodeHeadFiles(data, head); ok {
			return m
		}
	}
	m := g.HeadFiles()
	// Kept only when HEAD did not move while its tree was read.
	if m != nil && s.Git().Head == head {
		store.Put(key, encodeHeadFiles(m, head))
	}
	return m
}

// Layout: scheme, commit (strings as a uvarint length and bytes), count;
// per file, in path order: the path, the blob id's 20 bytes.
func encodeHeadFiles(m map[string]string, head string) []byte {
	paths := make([]string, 0, len(m))
	for p := range m {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	out := workspace.AppendPackString(nil, headFilesScheme)
	out = workspace.AppendPackString(out, head)
	out = binary.AppendUvarint(out, uint64(len(paths)))
	for _, p := range paths {
		id, err := hex.DecodeString(m[p])
		if err != nil || len(id) != 20 {
			return nil // not a blob id: nothing worth keeping (an empty entry decodes to nothing)
		}
		out = workspace.AppendPackString(out, p)
		out = append(out, id...)
	}
	return out
}

// decodeHeadFiles refuses anything that does not hold together: another
// scheme or commit, a count past the bytes, paths out of order, bytes left
// over.
func decodeHeadFiles(data []byte, head string) (map[string]string, bool) {
	r := &workspace.PackReader{S: string(data)}
	if r.Str() != headFilesScheme || r.Str() != head {
		return nil, false
	}
	n := r.Num()
	if r.Bad || n > uint64(len(r.S)-r.Off)/21 {
		return nil, false
	}
	m := make(map[string]string, n)
	last := ""
	for i := uint64(0); i < n; i++ {
		p := r.Str()
		if r.Bad || (i > 0 && p <= last) || len(r.S)-r.Off < 20 {
			return nil, false
		}
		m[p] = hex.EncodeToString([]byte(r.S[r.Off : r.Off+20]))
		r.Off += 20
		last = p
	}
	if !r.Done() {
		return nil, false
	}
	return m, true
}
