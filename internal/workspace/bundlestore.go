package workspace

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"slices"
	"sync"
)

// A BundleStore keeps the entries one process stores for one workspace
// root (verify's partial and whole tables, its suggestion keeps) in a
// single entry of the persistent store, written once when the process is
// done, instead of one file per entry: a cold verify of a GOROOT-sized
// tree stores ~2,300 entries, and creating that many files cost it more
// system time than its whole parse. A later run on the same root loads the
// bundle with one read and answers from it; an entry not in it is asked of
// the store below (the server's loose entries, say), and then kept in the
// bundle too. The bundle is rewritten only when the run stored or fetched
// something it did not hold, and then holds exactly the entries this run
// asked for or stored, so it follows the tree and does not grow with its
// history. The store below vouches for the bundle's integrity;
// decodeBundle refuses anything that does not hold together (a wrong
// scheme or root, keys out of order, a length past the end, bytes left
// over), and a refused bundle is only an empty one.
type BundleStore struct {
	under TableStore
	root  string
	key   [sha256.Size]byte
	keep  TableStore // where entries that must stay separate go (Unbundled)

	mu      sync.Mutex
	entries map[[sha256.Size]byte][]byte
	used    map[[sha256.Size]byte]bool
	fresh   bool // an entry the loaded bundle lacked was stored or fetched

	// bare: the store below held no entry when the bundle was loaded (a
	// cold run's fresh cache), so it holds only what this run wrote to it
	// (wrote): any other miss in the bundle is a miss below too, answered
	// without asking it (on GOROOT, thousands of failed opens). An entry
	// another process writes meanwhile is then not seen, as if it had
	// come a moment later.
	bare    bool
	wroteMu sync.Mutex
	wrote   map[[sha256.Size]byte]bool
}

// bareStore is the store below as a bare bundle uses it.
type bareStore struct{ b *BundleStore }

func (s bareStore) Get(key [sha256.Size]byte) ([]byte, bool) {
	s.b.wroteMu.Lock()
	wrote := s.b.wrote[key]
	s.b.wroteMu.Unlock()
	if !wrote {
		return nil, false
	}
	return s.b.under.Get(key)
}

func (s bareStore) Put(key [sha256.Size]byte, data []byte) {
	s.b.wroteMu.Lock()
	s.b.wrote[key] = true
	s.b.wroteMu.Unlock()
	s.b.under.Put(key, data)
}

// PutLater hands the store below an entry to encode off the caller's
// goroutine when it can (disk.TableStore.PutLater), else encodes it here.
func (s bareStore) PutLater(key [sha256.Size]byte, make func() []byte) {
	s.b.wroteMu.Lock()
	s.b.wrote[key] = true
	s.b.wroteMu.Unlock()
	PutLater(s.b.under, key, make)
}

// bundleScheme names the layout below; change it with the layout.
const bundleScheme = "clew-lsp store bundle v1"

var errBadBundle = errors.New("store bundle: malformed entry")

// NewBundleStore loads root's bundle from under (an empty one when under
// has none that decodes). Call Flush when done.
func NewBundleStore(under TableStore, root string) *BundleStore {
	b := &BundleStore{under: under, root: root, keep: under, key: sha256.Sum256([]byte(bundleScheme + "\x00" + root)), used: map[[sha256.Size]byte]bool{}}
	if e, ok := under.(interface{ Empty() bool }); ok && e.Empty() {
		b.bare, b.wrote = true, map[[sha256.Size]byte]bool{}
		b.keep = bareStore{b}
	}
	if data, ok := b.keep.Get(b.key); ok {
		if m, err := decodeBundle(data, root); err == nil {
			b.entries = m
		}
	}
	if b.entries == nil {
		b.entries = map[[sha256.Size]byte][]byte{}
	}
	return b
}

// NewBundleStoreFor is NewBundleStore for another command than verify:
// its bundle is its own (the dev context's tables and declaration packs),
// so the two commands on one root do not rewrite each other's.
func NewBundleStoreFor(under TableStore, root, command string) *BundleStore {
	return NewBundleStore(under, root+"\x00"+command)
}

// Get answers from the bundle, else from the store below (and keeps what
// that gave in the bundle). The bytes must not be modified.
func (b *BundleStore) Get(key [sha256.Size]byte) ([]byte, bool) {
	b.mu.Lock()
	data, ok := b.entries[key]
	if ok {
		b.used[key] = true
	}
	b.mu.Unlock()
	if ok {
		return data[:len(data):len(data)], true
	}
	data, ok = b.keep.Get(key)
	if !ok {
		return nil, false
	}
	b.mu.Lock()
	b.entries[key], b.used[key], b.fresh = data, true, true
	b.mu.Unlock()
	return data[:len(data):len(data)], true
}

// Put keeps data in the bundle (written by Flush).
func (b *BundleStore) Put(key [sha256.Size]byte, data []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if old, ok := b.entries[key]; ok && bytes.Equal(old, data) {
		b.used[key] = true
		return
	}
	b.entries[key], b.used[key], b.fresh = slices.Clip(data), true, true
}

// Unbundled is the store below: for an entry that is large and changes on
// its own (verify's mention records), which a bundle would rewrite with
// every other change.
func (b *BundleStore) Unbundled() TableStore { return b.keep }

// Flush writes the bundle when this run stored or fetched an entry it did
// not hold: the entries asked for or stored, nothing else.
func (b *BundleStore) Flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.fresh {
		return
	}
	keys := make([][sha256.Size]byte, 0, len(b.used))
	for k := range b.used {
		keys = append(keys, k)
	}
	sortKeys(keys)
	b.keep.Put(b.key, encodeBundle(b.root, keys, b.entries))
	b.fresh = false
}

func sortKeys(keys [][sha256.Size]byte) {
	slices.SortFunc(keys, func(x, y [sha256.Size]byte) int { return bytes.Compare(x[:], y[:]) })
}

// Unbundled is the store an entry that must not go into a bundle is kept
// in (store itself when it is no bundle).
func Unbundled(store TableStore) TableStore {
	if u, ok := store.(interface{ Unbundled() TableStore }); ok {
		return u.Unbundled()
	}
	return store
}

// Layout: scheme, root (strings as a uvarint length and bytes), count;
// per entry, in ascending key order: the 32-byte key, the payload as a
// string.
func encodeBundle(root string, keys [][sha256.Size]byte, entries map[[sha256.Size]byte][]byte) []byte {
	n := len(bundleScheme) + len(root) + 3*binary.MaxVarintLen64
	for _, k := range keys {
		n += sha256.Size + binary.MaxVarintLen64 + len(entries[k])
	}
	out := make([]byte, 0, n)
	out = AppendPackString(out, bundleScheme)
	out = AppendPackString(out, root)
	out = binary.AppendUvarint(out, uint64(len(keys)))
	for _, k := range keys {
		out = append(out, k[:]...)
		out = binary.AppendUvarint(out, uint64(len(entries[k])))
		out = append(out, entries[k]...)
	}
	return out
}

// decodeBundle reads encodeBundle's layout; the payloads share data's
// memory.
func decodeBundle(data []byte, root string) (map[[sha256.Size]byte][]byte, error) {
	r := &PackReader{S: string(data[:min(len(data), len(bundleScheme)+len(root)+2*binary.MaxVarintLen64)])}
	scheme, at := r.Str(), r.Str()
	if r.Bad || scheme != bundleScheme || at != root {
		return nil, errBadBundle
	}
	off := r.Off
	count, n := binary.Uvarint(data[off:])
	if n <= 0 || count > uint64(len(data)-off)/(sha256.Size+1) {
		return nil, errBadBundle
	}
	off += n
	m := make(map[[sha256.Size]byte][]byte, count)
	var prev [sha256.Size]byte
	for i := uint64(0); i < count; i++ {
		if len(data)-off < sha256.Size {
			return nil, errBadBundle
		}
		var k [sha256.Size]byte
		copy(k[:], data[off:])
		if i > 0 && bytes.Compare(prev[:], k[:]) >= 0 {
			return nil, errBadBundle
		}
		prev, off = k, off+sha256.Size
		l, n := binary.Uvarint(data[off:])
		if n <= 0 || l > uint64(len(data)-off-n) {
			return nil, errBadBundle
		}
		off += n
		m[k] = data[off : off+int(l) : off+int(l)]
		off += int(l)
	}
	if off != len(data) {
		return nil, errBadBundle
	}
	return m, nil
}
