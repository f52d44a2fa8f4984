package workspace

import (
	"crypto/sha256"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
)

// TableStore keeps encoded declaration tables between runs (the CLI's and
// the server's warm start; disk.TableStore is the real one, in the user's
// cache directory). Keys are content keys: the language and the file's
// bytes, hashed. A store checks its own entries (version, key, checksum)
// and answers a miss for anything it cannot vouch for; what it returns is
// still decoded strictly, and a table that does not decode is parsed
// again, never used.
type TableStore interface {
	Get(key [sha256.Size]byte) ([]byte, bool)
	Put(key [sha256.Size]byte, data []byte)
}

// LaterStore is a TableStore that can encode an entry off the caller's
// goroutine (disk.TableStore.PutLater): make is run later, its bytes put,
// nothing when it returns nil.
type LaterStore interface {
	TableStore
	PutLater(key [sha256.Size]byte, make func() []byte)
}

// PutLater is store.PutLater(key, make) when the store has it, else
// Put(key, make()) now (nothing when make returns nil).
func PutLater(store TableStore, key [sha256.Size]byte, make func() []byte) {
	if later, ok := store.(LaterStore); ok {
		later.PutLater(key, make)
		return
	}
	if data := make(); data != nil {
		store.Put(key, data)
	}
}

// UseTableStore makes the snapshot's tables (and those of every snapshot
// derived from it) come from store when it has them, and go to it when
// parsed. nil turns it off.
func (s *Snapshot) UseTableStore(store TableStore) {
	s.tables.storeMu.Lock()
	s.tables.store = store
	s.tables.storeMu.Unlock()
}

func (c *tableCache) persistent() TableStore {
	c.storeMu.Lock()
	defer c.storeMu.Unlock()
	return c.store
}

// storeKey is a table's key in the persistent store: the language and the
// content's hash.
func storeKey(lang symbols.Language, sum [sha256.Size]byte) [sha256.Size]byte {
	return contentKey(string(lang), sum[:])
}

// stored returns the persisted table for key, if the store has one that
// decodes and is of the language asked for.
func stored(store TableStore, key [sha256.Size]byte, lang symbols.Language) (symbols.Table, bool) {
	data, ok := store.Get(key)
	if !ok {
		return symbols.Table{}, false
	}
	t, err := symbols.DecodeTable(data)
	if err != nil || t.Language != lang {
		return symbols.Table{}, false
	}
	return t, true
}

// PersistentStore is the store UseTableStore set (nil without one). A
// feature may keep its own content-derived data there under keys of its
// own (contextmap's identifier index); the store vouches for an entry's
// integrity, the feature for its meaning.
func (s *Snapshot) PersistentStore() TableStore { return s.tables.persistent() }
