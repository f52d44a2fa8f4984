package workspace_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/workspace"
	"github.com/clew-lsp/clew-lsp/internal/workspace/disk"
	"github.com/clew-lsp/clew-lsp/internal/workspace/wstest"
)

// mentionTree is a workspace whose doc mentions names declared in lexed Go
// files, in a Go file the declaration lexer refuses (two same-named
// methods with parameters), in a Python file and nowhere; two Go files
// declare no mentioned name.
func mentionTree(t testing.TB) *wstest.Repo {
	t.Helper()
	r := wstest.New(t)
	r.Write(map[string]string{
		"a/alpha.go":  "package a\n\n// Alpha is one.\nfunc Alpha() int { return 1 }\n\ntype Cache struct{ n int }\n\nfunc (c *Cache) Lookup(k string) int { return c.n }\n",
		"b/beta.go":   "package b\n\nfunc Beta() {}\n\nfunc Lookup(k string) int { return 0 }\n",
		"c/over.go":   "package c\n\ntype T struct{}\n\nfunc (T) Over(a int) {}\nfunc (T) Over(b string) {}\n\nfunc Odd() {}\n",
		"py/greet.py": "def greet(name):\n    return name\n\nclass Greeter:\n    def hello(self):\n        pass\n",
		"d/noise.go":  "package d\n\nfunc Unmentioned() {}\n",
		"e/twin.go":   "package e\n\nfunc Beta() {}\n",
		"f/quiet.go":  "package f\n\nfunc Quiet() {}\n",
		"docs/api.md": "# API\n\n`Alpha` returns one; `Cache.Lookup` and `Lookup` look up.\n\n## More\n\n`Beta`, `greet`, `Greeter.hello`, `Odd` and `Missing`.\n",
	})
	r.Commit("tree")
	return r
}

// coverage loads dir afresh (a new process, as far as memory goes) and
// computes verify's mention coverage with store (nil: none).
func coverage(t testing.TB, dir string, store workspace.TableStore) (workspace.MentionCoverage, int) {
	t.Helper()
	return loadWith(t, dir, store).MentionCoverageReads(nil)
}

// The mention records answer as the files do: a warm run on an unchanged
// tree reads only the files whose record may hold a mentioned name, and a
// file changed in a way its size and modification time do not show — the
// same size, the old time put back — is read again (its status-change
// time moved), as is one whose stat was too recent to trust.
func TestMentionRecordsAnswerAsTheFiles(t *testing.T) {
	defer workspace.SetMentionPackWriteEvery(0)()
	r := mentionTree(t)
	store, err := disk.OpenTableStoreAt(t.TempDir(), "test-version")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * workspace.RacyWindow) // the files' stats are old enough to trust
	want, all := coverage(t, r.Dir, nil)
	if want.Mentions.Unique == 0 || want.Mentions.Unresolved == 0 || want.Mentions.Ambiguous == 0 {
		t.Fatalf("the tree does not exercise every resolution: %+v", want)
	}
	if all != 7 {
		t.Fatalf("without a store %d code files read, want all 7", all)
	}
	got, read := coverage(t, r.Dir, store)
	if got != want || read != all {
		t.Fatalf("cold: %+v reading %d files, want %+v reading %d", got, read, want, all)
	}
	// Warm: the files declaring a mentioned name (a/alpha.go, b/beta.go,
	// e/twin.go), holding one as a word where the lexer does not read
	// them (c/over.go, py/greet.py) are read; d/noise.go and f/quiet.go
	// are not.
	got, read = coverage(t, r.Dir, store)
	if got != want || read != 5 {
		t.Fatalf("warm: %+v reading %d files, want %+v reading 5", got, read, want)
	}

	// Same size, old modification time: d/noise.go's Unmentioned becomes
	// Missing, which the doc mentions (its old record holds no mentioned
	// name: trusted, it would not be read).
	noise := filepath.Join(r.Dir, "d", "noise.go")
	info, err := os.Stat(noise)
	if err != nil {
		t.Fatal(err)
	}
	old, _ := os.ReadFile(noise)
	changed := []byte(strings.Replace(string(old), "Unmentioned()", "Missing()    ", 1))
	if len(changed) != len(old) || string(changed) == string(old) {
		t.Fatal("the rewrite must keep the size")
	}
	if err := os.WriteFile(noise, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(noise, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * workspace.RacyWindow)
	want2, _ := coverage(t, r.Dir, nil)
	if want2 == want {
		t.Fatal("declaring Missing did not change the coverage: the test cannot tell")
	}
	got, read = coverage(t, r.Dir, store)
	if got != want2 || read != 6 {
		t.Fatalf("after a same-size rewrite: %+v reading %d files, want %+v reading 6", got, read, want2)
	}
	got, read = coverage(t, r.Dir, store)
	if got != want2 || read != 6 {
		t.Fatalf("warm again: %+v reading %d files, want %+v reading 6", got, read, want2)
	}

	// A stat too recent to trust (here: a modification time ahead of the
	// run) is not recorded: the file is read on every run.
	quiet := filepath.Join(r.Dir, "f", "quiet.go")
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(quiet, future, future); err != nil {
		t.Fatal(err)
	}
	for run := 0; run < 2; run++ {
		if got, read = coverage(t, r.Dir, store); got != want2 || read != 7 {
			t.Fatalf("racy file, run %d: %+v reading %d files, want %+v reading 7", run, got, read, want2)
		}
	}
}

// A damaged or foreign entry is ignored: every file is read, the coverage
// is the files', and the entry is written again whole.
func TestDamagedMentionRecordsAreIgnored(t *testing.T) {
	defer workspace.SetMentionPackWriteEvery(0)()
	r := mentionTree(t)
	store, err := disk.OpenTableStoreAt(t.TempDir(), "test-version")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * workspace.RacyWindow)
	want, all := coverage(t, r.Dir, nil)
	coverage(t, r.Dir, store)
	snap, err := disk.Load(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	key := workspace.MentionPackKey(snap.Root())
	good, ok := store.Get(key)
	if !ok {
		t.Fatal("no mention records stored")
	}
	if n, ok := workspace.DecodeMentionRecords(good, snap.Root()); !ok || n != all {
		t.Fatalf("the stored entry decodes to %d records (%v), want %d", n, ok, all)
	}
	other, _ := os.MkdirTemp(t.TempDir(), "other")
	foreign, ok := workspace.ReencodeMentionRecords(good, snap.Root())
	if !ok || string(foreign) != string(good) {
		t.Fatal("the entry does not re-encode as itself")
	}
	bad := map[string][]byte{
		"truncated": good[:len(good)-1],
		"extended":  append(append([]byte{}, good...), 0),
		"garbage":   []byte("not mention records"),
		"empty":     nil,
	}
	for _, at := range []int{3, len(good) / 3, len(good) / 2, len(good) - 2} {
		b := append([]byte{}, good...)
		b[at] ^= 0x80
		bad["flipped at "+string(rune('0'+at%10))] = b
	}
	// A flipped byte inside a name or a stat may still decode; the
	// store's checksum catches those (below). None is another root's.
	for name, b := range bad {
		if _, ok := workspace.DecodeMentionRecords(b, other); ok {
			t.Errorf("%s: decodes as another root's records", name)
		}
	}
	for _, name := range []string{"truncated", "extended", "garbage", "empty"} {
		if _, ok := workspace.DecodeMentionRecords(bad[name], snap.Root()); ok {
			t.Errorf("%s entry decodes", name)
		}
		store.Put(key, bad[name])
		got, read := coverage(t, r.Dir, store)
		if got != want || read != all {
			t.Errorf("%s entry: %+v reading %d files, want %+v reading all %d", name, got, read, want, all)
		}
		if now, _ := store.Get(key); string(now) != string(good) {
			t.Errorf("%s entry: not written again whole", name)
		}
	}
	// Another root's records under this root's key.
	r2 := mentionTree(t)
	time.Sleep(2 * workspace.RacyWindow)
	coverage(t, r2.Dir, store)
	snap2, _ := disk.Load(r2.Dir)
	theirs, _ := store.Get(workspace.MentionPackKey(snap2.Root()))
	store.Put(key, theirs)
	if got, read := coverage(t, r.Dir, store); got != want || read != all {
		t.Errorf("foreign entry: %+v reading %d files, want %+v reading all %d", got, read, want, all)
	}
	// A damaged file on disk fails the store's own check.
	entries, _ := filepath.Glob(filepath.Join(store.Dir(), "*", "*"))
	for _, e := range entries {
		b, _ := os.ReadFile(e)
		if len(b) > 40 {
			b[len(b)/2] ^= 0x01
			os.WriteFile(e, b, 0o644)
		}
	}
	if got, read := coverage(t, r.Dir, store); got != want || read != all {
		t.Errorf("damaged store files: %+v reading %d files, want %+v reading all %d", got, read, want, all)
	}
}

// FuzzDecodeMentionRecords: the decoder never panics, and what it accepts
// encodes to an entry it accepts as the same records.
func FuzzDecodeMentionRecords(f *testing.F) {
	defer workspace.SetMentionPackWriteEvery(0)()
	r := mentionTree(f)
	store, err := disk.OpenTableStoreAt(f.TempDir(), "test-version")
	if err != nil {
		f.Fatal(err)
	}
	time.Sleep(2 * workspace.RacyWindow)
	coverage(f, r.Dir, store)
	snap, _ := disk.Load(r.Dir)
	good, ok := store.Get(workspace.MentionPackKey(snap.Root()))
	if !ok {
		f.Fatal("no entry")
	}
	f.Add(good, snap.Root())
	f.Add(good[:len(good)/2], snap.Root())
	f.Add([]byte("clew-lsp mention records v2"), "/r")
	f.Add([]byte{}, "")
	f.Fuzz(func(t *testing.T, data []byte, root string) {
		n, ok := workspace.DecodeMentionRecords(data, root)
		if !ok {
			return
		}
		again, ok := workspace.ReencodeMentionRecords(data, root)
		if !ok {
			t.Fatal("accepted entry does not re-encode")
		}
		if m, ok := workspace.DecodeMentionRecords(again, root); !ok || m != n {
			t.Fatalf("re-encoded entry: %d records (%v), want %d", m, ok, n)
		}
	})
}
