package disk

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"sync"
	"testing"
)

// With write-behind, every entry Put queues reads back at once (from the
// queue, checked as a file is) and is on disk, whole, after Flush; a key
// Put again is on disk with its last payload; past the queue's bound Put
// writes itself. Many goroutines Put and Get at once (go test -race).
func TestWriteBehindReadsItsWritesAndFlushes(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenTableStoreAt(dir, "v1")
	if err != nil {
		t.Fatal(err)
	}
	s.WriteBehind()
	key := func(i int) [sha256.Size]byte { return sha256.Sum256([]byte(fmt.Sprint(i))) }
	payload := func(i, round int) []byte { return bytes.Repeat([]byte(fmt.Sprintf("%d.%d ", i, round)), 50+i%7) }
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < 400; i += 4 {
				for round := range 2 {
					s.Put(key(i), payload(i, round))
					if got, ok := s.Get(key(i)); !ok || !bytes.Equal(got, payload(i, round)) {
						t.Errorf("entry %d round %d: Get right after Put = %v", i, round, ok)
					}
				}
			}
		}()
	}
	wg.Wait()
	s.Flush()
	if n := len(s.behind.entries); n != 0 || s.behind.bytes != 0 {
		t.Errorf("after Flush the queue holds %d entries, %d bytes", n, s.behind.bytes)
	}
	fresh, err := OpenTableStoreAt(dir, "v1") // reads the files only
	if err != nil {
		t.Fatal(err)
	}
	for i := range 400 {
		if got, ok := fresh.Get(key(i)); !ok || !bytes.Equal(got, payload(i, 1)) {
			t.Fatalf("entry %d is not on disk with its last payload after Flush (ok %v)", i, ok)
		}
	}
	// An entry larger than the queue's bound is written before Put returns.
	big := bytes.Repeat([]byte{'x'}, maxBehindBytes+1)
	s.Put(key(-1), big)
	if _, err := os.Stat(s.path(key(-1))); err != nil {
		t.Errorf("an entry over the queue's bound is not on disk when Put returns: %v", err)
	}
}

// PutLater's entry is on disk after Flush when the store writes behind,
// and when Put returns when it does not; a nil encoding puts nothing.
func TestPutLaterIsPutOnceFlushed(t *testing.T) {
	for _, behind := range []bool{false, true} {
		dir := t.TempDir()
		s, err := OpenTableStoreAt(dir, "v1")
		if err != nil {
			t.Fatal(err)
		}
		if behind {
			s.WriteBehind()
		}
		key, none := sha256.Sum256([]byte("later")), sha256.Sum256([]byte("nil"))
		release := make(chan struct{})
		want := bytes.Repeat([]byte("index "), 1000)
		s.PutLater(key, func() []byte {
			if behind {
				<-release // encoded after PutLater returned
			}
			return want
		})
		s.PutLater(none, func() []byte { return nil })
		close(release)
		s.Flush()
		fresh, err := OpenTableStoreAt(dir, "v1")
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := fresh.Get(key); !ok || !bytes.Equal(got, want) {
			t.Errorf("behind=%v: the entry is not on disk after Flush (ok %v)", behind, ok)
		}
		if _, ok := fresh.Get(none); ok {
			t.Errorf("behind=%v: a nil encoding put an entry", behind)
		}
	}
}
