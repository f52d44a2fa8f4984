package workspace_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/clew-lsp/clew-lsp/internal/anchors/symbols"
	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// storeCheck loads the repository afresh (a new process, as far as the
// in-memory memo goes) with the persistent store and checks it.
func storeCheck(t *testing.T, dir string, store workspace.TableStore) string {
	t.Helper()
	snap, err := disk.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	snap.UseTableStore(store)
	rep, err := snap.Check(context.Background(), workspace.CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return states(rep)
}

// entries lists the store's entry files.
func entries(t *testing.T, s *disk.TableStore) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(s.Dir(), "*", "*"))
	var out []string
	for _, f := range files {
		if filepath.Base(f)[0] != '.' {
			out = append(out, f)
		}
	}
	return out
}

func keyOf(t *testing.T, entry string) [32]byte {
	t.Helper()
	b, err := hex.DecodeString(filepath.Base(entry))
	if err != nil || len(b) != 32 {
		t.Fatalf("entry name %s", entry)
	}
	var k [32]byte
	copy(k[:], b)
	return k
}

// TestTableStoreWarmRunsAgree: a second run reads its tables from the
// store (proved by planting a well-formed entry with a changed hash: the
// verdict follows it) and, without planting, agrees with the first; every
// damaged or foreign entry is ignored, never trusted, and rewritten.
func TestTableStoreWarmRunsAgree(t *testing.T) {
	r := pinned(t)
	const fresh = "docs/a.md:1=fresh/identity_matched docs/b.md:1=fresh/identity_matched"
	cache := t.TempDir()
	store, err := disk.OpenTableStoreAt(cache, "test-version")
	if err != nil {
		t.Fatal(err)
	}
	if got := storeCheck(t, r.Dir, store); got != fresh {
		t.Fatalf("cold: %s", got)
	}
	es := entries(t, store)
	if len(es) != 1 {
		t.Fatalf("entries after a cold run: %q (want calc/sum.go's table)", es)
	}
	entry, key := es[0], keyOf(t, es[0])
	good, _ := os.ReadFile(entry)
	if got := storeCheck(t, r.Dir, store); got != fresh {
		t.Fatalf("warm: %s", got)
	}

	// A well-formed entry is used as is: its table says Sum's code changed.
	payload, ok := store.Get(key)
	if !ok {
		t.Fatal("the cold run's entry does not check")
	}
	tab, err := symbols.DecodeTable(payload)
	if err != nil || len(tab.Decls) == 0 {
		t.Fatalf("entry decodes to %v, %v", tab, err)
	}
	tab.Decls[0].DeclHash = "000000000000"
	store.Put(key, symbols.EncodeTable(tab))
	planted, _ := os.ReadFile(entry)
	const stale = "docs/a.md:1=stale/body_changed docs/b.md:1=fresh/identity_matched"
	if got := storeCheck(t, r.Dir, store); got != stale {
		t.Fatalf("planted entry not used: %s", got)
	}

	// The same planted table, damaged or foreign in every way, is ignored:
	// the file is parsed again (fresh) and the entry rewritten whole.
	other, _ := disk.OpenTableStoreAt(t.TempDir(), "another-version")
	other.Put(key, symbols.EncodeTable(tab))
	foreignVersion, _ := os.ReadFile(entries(t, other)[0])
	var otherKey [32]byte
	otherKey[0] = 1
	store.Put(otherKey, symbols.EncodeTable(tab))
	otherKeyEntry, _ := os.ReadFile(filepath.Join(store.Dir(), "01", hex.EncodeToString(otherKey[:])))
	if len(otherKeyEntry) == 0 {
		t.Fatal("no entry written for the other key")
	}
	flip := func(i int) []byte {
		b := append([]byte{}, planted...)
		b[i] ^= 0x40
		return b
	}
	garbagePayload := func() []byte {
		store.Put(key, []byte("not a table"))
		b, _ := os.ReadFile(entry)
		return b
	}
	for name, bad := range map[string][]byte{
		"truncated":              planted[:len(planted)-7],
		"truncated header":       planted[:20],
		"extended":               append(append([]byte{}, planted...), 0),
		"payload bit flipped":    flip(len(planted) / 2),
		"checksum bit flipped":   flip(len(planted) - 1),
		"magic changed":          flip(0),
		"another version's":      foreignVersion,
		"another key's":          otherKeyEntry,
		"empty":                  {},
		"well-formed, not table": garbagePayload(),
	} {
		if err := os.WriteFile(entry, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := storeCheck(t, r.Dir, store); got != fresh {
			t.Errorf("%s entry trusted: %s", name, got)
		}
		if now, _ := os.ReadFile(entry); string(now) != string(good) {
			t.Errorf("%s entry not rewritten with the parsed table", name)
		}
	}
}

// TestTableStoreKeepsPartialTables: verify's partial tables of hinted Go
// files (CheckOptions.PartialHinted) are stored too, under a key of their
// own (the content and the declarations kept), so a warm verify parses no
// hinted file: a planted, well-formed entry is what the next run reads;
// a damaged one is ignored and rewritten. A file whose every anchor the
// lexers find fresh (symbols.LexGoDecls) is not parsed: what they found is
// stored instead.
func TestTableStoreKeepsPartialTables(t *testing.T) {
	r := wstest.New(t)
	other := "\nfunc Other(a, b int) int {\n\tif a > b {\n\t\treturn a - b\n\t}\n\treturn b\n}\n"
	r.Write(map[string]string{"calc/sum.go": sumGo + other,
		"docs/a.md": "<!-- @code function Sum calc/sum.go -->\n"})
	r.Commit("init")
	pin(t, r, nil)
	r.Commit("pin")
	partialCheck := func(store workspace.TableStore) string {
		t.Helper()
		snap, err := disk.Load(r.Dir)
		if err != nil {
			t.Fatal(err)
		}
		snap.UseTableStore(store)
		rep, err := snap.Check(context.Background(), workspace.CheckOptions{PartialHinted: true})
		if err != nil {
			t.Fatal(err)
		}
		return states(rep)
	}
	const fresh, stale = "docs/a.md:1=fresh/identity_matched", "docs/a.md:1=stale/body_changed"
	store, err := disk.OpenTableStoreAt(t.TempDir(), "test-version")
	if err != nil {
		t.Fatal(err)
	}
	if got := partialCheck(store); got != fresh {
		t.Fatalf("cold, fresh: %s", got)
	}
	// The lexers' declarations are stored, no table: one entry, which a
	// warm run reads (a planted one that does not decide the anchor is
	// not trusted: the file is lexed again).
	es := entries(t, store)
	if len(es) != 1 {
		t.Fatalf("entries after a cold run whose anchor the lexers decided: %q (want the lexed declarations)", es)
	}
	lexedKey := keyOf(t, es[0])
	lexed, _ := store.Get(lexedKey)
	if tab, err := symbols.DecodeTable(lexed); err != nil || len(tab.Decls) != 1 || tab.Decls[0].Name != "Sum" {
		t.Fatalf("the entry is not Sum's lexed declaration: %+v, %v", tab.Decls, err)
	}
	if got := partialCheck(store); got != fresh {
		t.Fatalf("warm, fresh: %s", got)
	}
	lt, _ := symbols.DecodeTable(lexed)
	lt.Decls[0].DeclHash = "000000000000"
	store.Put(lexedKey, symbols.EncodeTable(lt))
	if got := partialCheck(store); got != fresh {
		t.Fatalf("a planted lexed entry that is not the pin was trusted: %s", got)
	}
	if now, _ := store.Get(lexedKey); string(now) != string(lexed) {
		t.Error("a planted lexed entry was not rewritten")
	}
	os.Remove(es[0])
	// A changed body: the lexers' hash is not the pin, the kept part is
	// parsed, and that table stored.
	r.Write(map[string]string{"calc/sum.go": strings.Replace(sumGo, "total := 0", "total := 1", 1) + other})
	r.Commit("change")
	if got := partialCheck(store); got != stale {
		t.Fatalf("cold, stale: %s", got)
	}
	es = entries(t, store)
	if len(es) != 1 {
		t.Fatalf("entries after a cold run: %q (want calc/sum.go's partial table)", es)
	}
	entry, key := es[0], keyOf(t, es[0])
	good, _ := os.ReadFile(entry)
	payload, _ := store.Get(key)
	tab, err := symbols.DecodeTable(payload)
	if err != nil || len(tab.Decls) != 1 || tab.Decls[0].Name != "Sum" {
		t.Fatalf("the entry is not Sum's partial table: %+v, %v", tab.Decls, err)
	}
	doc, _ := os.ReadFile(filepath.Join(r.Dir, "docs/a.md"))
	m := regexp.MustCompile(`sha=v2:([0-9a-f]{12})`).FindSubmatch(doc)
	if m == nil {
		t.Fatalf("no pin in %q", doc)
	}
	tab.Decls[0].DeclHash = string(m[1]) // the pinned hash: fresh if the entry is read
	store.Put(key, symbols.EncodeTable(tab))
	if got := partialCheck(store); got != fresh {
		t.Fatalf("planted partial entry not used: %s", got)
	}
	planted, _ := os.ReadFile(entry)
	planted[len(planted)/2] ^= 0x40
	os.WriteFile(entry, planted, 0o644)
	if got := partialCheck(store); got != stale {
		t.Errorf("damaged partial entry trusted: %s", got)
	}
	if now, _ := os.ReadFile(entry); string(now) != string(good) {
		t.Error("damaged partial entry not rewritten")
	}
}

// countingStore is an in-memory TableStore that counts its writes.
type countingStore struct {
	m    map[[32]byte][]byte
	puts int
	gets int
}

func (s *countingStore) Get(k [32]byte) ([]byte, bool) { s.gets++; b, ok := s.m[k]; return b, ok }
func (s *countingStore) Put(k [32]byte, b []byte)      { s.puts++; s.m[k] = b }

// TestBufferVersionsAreNotStored: the tables of unsaved buffer versions
// never go to the persistent store (each keystroke would leave a file in
// the cache directory), while the disk's files do, and a buffer holding
// the disk's content is served from it; the verdicts follow the buffers.
func TestBufferVersionsAreNotStored(t *testing.T) {
	r := pinned(t)
	store := &countingStore{m: map[[32]byte][]byte{}}
	snap, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	snap.UseTableStore(store)
	ctx := context.Background()
	if _, err := snap.Check(ctx, workspace.CheckOptions{}); err != nil {
		t.Fatal(err)
	}
	if store.puts != 1 {
		t.Fatalf("a cold check stored %d tables, want 1 (calc/sum.go)", store.puts)
	}
	cur := snap
	for i := 0; i < 5; i++ {
		text := strings.Replace(sumGo, "+=", "+= "+strings.Repeat("1+", i+1), 1)
		cur = cur.WithOverlays(map[string][]byte{"calc/sum.go": []byte(text)})
		rep, err := cur.Check(ctx, workspace.CheckOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := states(rep); !strings.HasPrefix(got, "docs/a.md:1=stale/") {
			t.Fatalf("buffer version %d: %s", i, got)
		}
	}
	if store.puts != 1 {
		t.Errorf("after 5 buffer versions the store got %d writes, want still 1", store.puts)
	}
	// A new session (nothing in memory) with the disk's content open in a
	// buffer reads its table from the store.
	fresh, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	fresh.UseTableStore(store)
	gets := store.gets
	rep, err := fresh.WithOverlays(map[string][]byte{"calc/sum.go": []byte(sumGo)}).Check(ctx, workspace.CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := states(rep); got != "docs/a.md:1=fresh/identity_matched docs/b.md:1=fresh/identity_matched" {
		t.Errorf("disk content in a buffer: %s", got)
	}
	if store.gets == gets || store.puts != 1 {
		t.Errorf("disk content in a buffer: %d reads, %d writes of the store; want a read, no write", store.gets-gets, store.puts-1)
	}
}

// The disk store is Empty in a fresh directory, and not once it holds an
// entry (reopened too): the bundle's bare mode rests on it.
func TestDiskStoreEmpty(t *testing.T) {
	dir := t.TempDir()
	store, err := disk.OpenTableStoreAt(dir, "test-version")
	if err != nil {
		t.Fatal(err)
	}
	if !store.Empty() {
		t.Fatal("a fresh store is not empty")
	}
	store.Put(sha256.Sum256([]byte("k")), []byte("payload"))
	if store.Empty() {
		t.Fatal("a store holding an entry is empty")
	}
	again, _ := disk.OpenTableStoreAt(dir, "test-version")
	if again.Empty() {
		t.Fatal("reopened, a store holding an entry is empty")
	}
	if d, ok := again.Get(sha256.Sum256([]byte("k"))); !ok || string(d) != "payload" {
		t.Fatalf("Get: %q %v", d, ok)
	}
}
