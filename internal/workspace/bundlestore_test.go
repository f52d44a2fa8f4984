package workspace

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"sync"
	"testing"
)

// memStore is a TableStore in memory that counts its writes.
type memStore struct {
	mu   sync.Mutex
	m    map[[sha256.Size]byte][]byte
	puts int
}

func newMemStore() *memStore { return &memStore{m: map[[sha256.Size]byte][]byte{}} }

func (s *memStore) Get(k [sha256.Size]byte) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.m[k]
	return bytes.Clone(d), ok
}

func (s *memStore) Put(k [sha256.Size]byte, d []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[k], s.puts = bytes.Clone(d), s.puts+1
}

func bkey(i int) [sha256.Size]byte { return sha256.Sum256([]byte(fmt.Sprint("entry ", i))) }

// A bundle answers what a run stored, in one entry of the store below;
// a run that stores nothing new writes nothing; one that does rewrites it
// with only the entries it asked for or stored; an entry the bundle lacks
// is asked of the store below and kept; another root's bundle, or a
// damaged one, is an empty bundle.
func TestBundleStore(t *testing.T) {
	under := newMemStore()
	b := NewBundleStore(under, "/repo")
	for i := range 5 {
		b.Put(bkey(i), []byte(fmt.Sprint("payload ", i)))
	}
	if _, ok := b.Get(bkey(9)); ok {
		t.Fatal("an entry never stored answers")
	}
	if under.puts != 0 {
		t.Fatalf("%d writes before Flush", under.puts)
	}
	b.Flush()
	if under.puts != 1 || len(under.m) != 1 {
		t.Fatalf("Flush: %d writes, %d entries (want one bundle)", under.puts, len(under.m))
	}
	// A warm run asks for three and stores one again, unchanged: no write.
	b = NewBundleStore(under, "/repo")
	for i := range 3 {
		if d, ok := b.Get(bkey(i)); !ok || string(d) != fmt.Sprint("payload ", i) {
			t.Fatalf("warm Get %d: %q %v", i, d, ok)
		}
	}
	b.Put(bkey(1), []byte("payload 1"))
	b.Flush()
	if under.puts != 1 {
		t.Fatalf("a run that stored nothing new wrote the bundle (%d writes)", under.puts)
	}
	// An entry of the store below (loose) is fetched and kept; the rewrite
	// keeps what this run asked for: 0, 1, 2 and the loose one, not 3, 4.
	under.Put(bkey(7), []byte("loose"))
	b = NewBundleStore(under, "/repo")
	for _, i := range []int{0, 1, 2, 7} {
		if _, ok := b.Get(bkey(i)); !ok {
			t.Fatalf("Get %d", i)
		}
	}
	b.Flush()
	delete(under.m, bkey(7))
	b = NewBundleStore(under, "/repo")
	for i, want := range map[int]bool{0: true, 1: true, 2: true, 3: false, 4: false, 7: true} {
		if _, ok := b.Get(bkey(i)); ok != want {
			t.Errorf("after the rewrite, entry %d held: %v, want %v", i, ok, want)
		}
	}
	// A changed payload replaces the old one.
	b.Put(bkey(0), []byte("changed"))
	b.Flush()
	if d, _ := NewBundleStore(under, "/repo").Get(bkey(0)); string(d) != "changed" {
		t.Errorf("a changed entry reads %q", d)
	}
	// Another root sees none of it.
	if _, ok := NewBundleStore(under, "/other").Get(bkey(1)); ok {
		t.Error("another root's bundle answers")
	}
	// Damage: every byte flipped in turn, truncations, an extension.
	key := sha256.Sum256([]byte(bundleScheme + "\x00/repo"))
	good := under.m[key]
	if _, err := decodeBundle(good, "/repo"); err != nil {
		t.Fatalf("the bundle does not decode: %v", err)
	}
	bad := map[string][]byte{"extended": append(bytes.Clone(good), 0), "empty": nil}
	for n := 0; n < len(good); n += 7 {
		bad[fmt.Sprint("truncated at ", n)] = good[:n]
	}
	for name, d := range bad {
		if _, err := decodeBundle(d, "/repo"); err == nil {
			t.Errorf("%s: decodes", name)
		}
	}
	under.m[key] = good[:len(good)-3]
	if _, ok := NewBundleStore(under, "/repo").Get(bkey(1)); ok {
		t.Error("a truncated bundle answers")
	}
}

// The keys of a bundle are in ascending order and distinct.
func TestBundleKeysInOrder(t *testing.T) {
	m := map[[sha256.Size]byte][]byte{bkey(1): []byte("a"), bkey(2): []byte("b")}
	keys := [][sha256.Size]byte{bkey(1), bkey(2)}
	if bytes.Compare(keys[0][:], keys[1][:]) > 0 {
		keys[0], keys[1] = keys[1], keys[0]
	}
	if _, err := decodeBundle(encodeBundle("/r", keys, m), "/r"); err != nil {
		t.Fatalf("sorted: %v", err)
	}
	keys[0], keys[1] = keys[1], keys[0]
	if _, err := decodeBundle(encodeBundle("/r", keys, m), "/r"); err == nil {
		t.Error("keys out of order decode")
	}
	keys[1] = keys[0]
	if _, err := decodeBundle(encodeBundle("/r", keys, m), "/r"); err == nil {
		t.Error("a repeated key decodes")
	}
}

// FuzzDecodeBundle: the decoder never panics, and what it accepts encodes
// back to the same bytes.
func FuzzDecodeBundle(f *testing.F) {
	m := map[[sha256.Size]byte][]byte{bkey(1): []byte("one"), bkey(2): nil}
	keys := [][sha256.Size]byte{bkey(1), bkey(2)}
	if bytes.Compare(keys[0][:], keys[1][:]) > 0 {
		keys[0], keys[1] = keys[1], keys[0]
	}
	f.Add(encodeBundle("/r", keys, m), "/r")
	f.Add([]byte{}, "")
	f.Fuzz(func(t *testing.T, data []byte, root string) {
		got, err := decodeBundle(data, root)
		if err != nil {
			return
		}
		var ks [][sha256.Size]byte
		for k := range got {
			ks = append(ks, k)
		}
		sortKeys(ks)
		if again := encodeBundle(root, ks, got); !bytes.Equal(again, data) {
			t.Fatalf("accepted %x, encodes back as %x", data, again)
		}
	})
}

// A root field that does not decode is no root, not the empty one.
func TestBundleRootMustDecode(t *testing.T) {
	data := AppendPackString(nil, bundleScheme)
	data = append(data, 0x7f) // a root of 127 bytes, none there
	data = append(data, 0)    // what would read as a count of no entries
	if m, err := decodeBundle(data, ""); err == nil {
		t.Fatalf("a bundle with an undecodable root decoded as the empty root's: %v", m)
	}
}

// emptyStore is a memStore that counts its reads and says whether it
// holds anything, as the disk store does.
type emptyStore struct {
	*memStore
	gets int
}

func (s *emptyStore) Get(k [sha256.Size]byte) ([]byte, bool) {
	s.mu.Lock()
	s.gets++
	s.mu.Unlock()
	return s.memStore.Get(k)
}

func (s *emptyStore) Empty() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m) == 0
}

// Over a store that holds nothing, a miss is not asked of it, through the
// bundle or the unbundled store, unless this run wrote that entry (then it
// is found). Over a store that holds something, every miss is asked.
func TestBundleOverAnEmptyStoreAsksNothing(t *testing.T) {
	under := &emptyStore{memStore: newMemStore()}
	b := NewBundleStore(under, "/repo")
	if _, ok := b.Get(bkey(1)); ok {
		t.Fatal("an empty store answers")
	}
	if _, ok := Unbundled(b).Get(bkey(2)); ok {
		t.Fatal("an empty store answers, unbundled")
	}
	if under.gets != 0 {
		t.Fatalf("%d reads of an empty store", under.gets)
	}
	Unbundled(b).Put(bkey(3), []byte("record"))
	if d, ok := Unbundled(b).Get(bkey(3)); !ok || string(d) != "record" {
		t.Fatalf("after a write: %q %v", d, ok)
	}
	if d, ok := b.Get(bkey(3)); !ok || string(d) != "record" {
		t.Fatalf("written, through the bundle: %q %v", d, ok)
	}
	if _, ok := b.Get(bkey(4)); ok || under.gets != 2 {
		t.Fatalf("after a write: %d reads, want 2 (of the entry written, only)", under.gets)
	}
	b.Put(bkey(5), []byte("table"))
	b.Flush()

	// The next run's store holds the record and the bundle: misses are asked.
	under.gets = 0
	b = NewBundleStore(under, "/repo")
	if d, ok := b.Get(bkey(5)); !ok || string(d) != "table" {
		t.Fatalf("bundle entry: %q %v", d, ok)
	}
	if d, ok := Unbundled(b).Get(bkey(3)); !ok || string(d) != "record" {
		t.Fatalf("record, unbundled: %q %v", d, ok)
	}
	if _, ok := b.Get(bkey(6)); ok || under.gets != 3 {
		t.Fatalf("%d reads, want 3 (bundle, record, miss)", under.gets)
	}
}

// A command's own bundle (NewBundleStoreFor) and verify's on one root are
// two entries of the store below: each run finds its own entries, and
// neither reads or rewrites the other's.
func TestBundleStoreForKeepsCommandsApart(t *testing.T) {
	under := newMemStore()
	ka, kb := sha256.Sum256([]byte("a")), sha256.Sum256([]byte("b"))
	v := NewBundleStore(under, "/w")
	v.Put(ka, []byte("verify's"))
	v.Flush()
	c := NewBundleStoreFor(under, "/w", "context")
	if _, ok := c.Get(ka); ok {
		t.Fatal("the context's bundle reads an entry of verify's")
	}
	c.Put(kb, []byte("context's"))
	c.Flush()
	if n := len(under.m); n != 2 {
		t.Fatalf("the store below holds %d entries, want the two bundles", n)
	}
	v2 := NewBundleStore(under, "/w")
	if d, ok := v2.Get(ka); !ok || string(d) != "verify's" {
		t.Errorf("verify's bundle lost its entry (%q, %v)", d, ok)
	}
	v2.mu.Lock()
	_, leaked := v2.entries[kb]
	v2.mu.Unlock()
	if leaked {
		t.Error("verify's bundle holds the context's entry")
	}
	c2 := NewBundleStoreFor(under, "/w", "context")
	c2.mu.Lock()
	_, okB := c2.entries[kb]
	c2.mu.Unlock()
	if !okB {
		t.Error("the context's bundle reloaded without its entry")
	}
}
