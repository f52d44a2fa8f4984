package workspace

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
)

// Two goroutines asking for the same path at once read it once and get
// the same answer (verify asks for the law from the claims preparation
// and the anchors' doc pass at the same moment).
func TestReadCacheOneReadPerPath(t *testing.T) {
	c := newReadCache()
	var reads atomic.Int32
	started := make(chan struct{})
	release := make(chan struct{})
	read := func() ([]byte, anchors.FileStatus) {
		if reads.Add(1) == 1 {
			close(started)
			<-release
		}
		return []byte("law"), anchors.FileOK
	}
	var wg sync.WaitGroup
	got := make([]*readResult, 4)
	wg.Add(1)
	go func() { defer wg.Done(); got[0] = c.get("a.md", read) }()
	<-started
	for i := 1; i < len(got); i++ {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = c.get("a.md", read) }()
	}
	time.Sleep(20 * time.Millisecond) // the others are waiting, or about to
	close(release)
	wg.Wait()
	if n := reads.Load(); n != 1 {
		t.Fatalf("read %d times, want once", n)
	}
	for i, r := range got {
		if r != got[0] || string(r.b) != "law" || r.st != anchors.FileOK {
			t.Fatalf("asker %d got %+v, want the first asker's answer", i, r)
		}
	}
	if r := c.get("a.md", read); r != got[0] || reads.Load() != 1 {
		t.Fatalf("a later ask read again or got another answer")
	}
}

// A read that panics does not leave its waiters hanging or holding nil:
// the next asker reads for itself.
func TestReadCachePanickedReadRetried(t *testing.T) {
	c := newReadCache()
	func() {
		defer func() { recover() }()
		c.get("a.md", func() ([]byte, anchors.FileStatus) { panic("disk") })
	}()
	r := c.get("a.md", func() ([]byte, anchors.FileStatus) { return []byte("x"), anchors.FileOK })
	if r == nil || string(r.b) != "x" {
		t.Fatalf("after a panicked read: %+v", r)
	}
	if len(c.inflight) != 0 {
		t.Fatalf("inflight left: %v", c.inflight)
	}
}

// A path's first stat is the answer for the cache's life: a later call
// stats only the paths not stated yet, and the answers come back in the
// caller's order.
func TestReadCacheStatsOncePerPath(t *testing.T) {
	c := newReadCache()
	var asked [][]string
	n := int64(0)
	statFiles := func(paths []string) []FileStat {
		asked = append(asked, append([]string(nil), paths...))
		out := make([]FileStat, len(paths))
		for i := range paths {
			n++
			out[i] = FileStat{Size: n, Ok: true}
		}
		return out
	}
	first := c.stats([]string{"a", "b"}, statFiles)
	second := c.stats([]string{"c", "b", "a"}, statFiles)
	if len(asked) != 2 || len(asked[1]) != 1 || asked[1][0] != "c" {
		t.Fatalf("stat calls %v, want [a b] then [c]", asked)
	}
	if second[1] != first[1] || second[2] != first[0] || second[0].Size != 3 {
		t.Fatalf("first %+v, second %+v: a stat taken once is the answer", first, second)
	}
	if third := c.stats([]string{"a"}, statFiles); third[0] != first[0] || len(asked) != 2 {
		t.Fatalf("all stated: %+v after %d calls", third, len(asked))
	}
}
