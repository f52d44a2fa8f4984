package workspace

import (
	"errors"
	"io/fs"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clew-lsp/clew-lsp/internal/anchors"
)

// batchFiles is a Files with ReadMany whose batches wait for release.
type batchFiles struct {
	files          map[string]string
	fail           bool // every ReadMany read fails (the caller falls back to Read)
	entered        chan struct{}
	release        chan struct{}
	reads, batches atomic.Int32 // reads: of a.go, the path asked
}

func (f *batchFiles) List() ([]string, error) {
	var out []string
	for p := range f.files {
		out = append(out, p)
	}
	return out, nil
}

func (f *batchFiles) Read(p string) ([]byte, error) {
	if p == "a.go" {
		f.reads.Add(1)
	}
	if s, ok := f.files[p]; ok {
		return []byte(s), nil
	}
	return nil, fs.ErrNotExist
}

func (f *batchFiles) Size(p string) (int64, error) { return int64(len(f.files[p])), nil }

func (f *batchFiles) ReadMany(paths []string, _ int64) []FileRead {
	if f.batches.Add(1) == 1 {
		close(f.entered)
	}
	<-f.release
	out := make([]FileRead, len(paths))
	for i, p := range paths {
		if f.fail {
			out[i].Err = errors.New("batch failed")
			continue
		}
		out[i] = FileRead{Data: []byte(f.files[p]), Size: int64(len(f.files[p]))}
	}
	return out
}

// A ReadFile of a path a Preload batch is reading waits for the batch and
// takes its answer (no second read); when the batch failed on the path,
// the waiter reads it itself, once.
func TestReadFileWaitsForPreloadBatch(t *testing.T) {
	for _, fail := range []bool{false, true} {
		f := &batchFiles{files: map[string]string{"a.go": "package a\n", "b.md": "# b\n"}, fail: fail,
			entered: make(chan struct{}), release: make(chan struct{})}
		snap, err := Load(t.TempDir(), f, nil)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); snap.Preload([]string{"a.go", "b.md"}) }()
		<-f.entered
		var got []byte
		var st anchors.FileStatus
		asked := make(chan struct{})
		wg.Add(1)
		go func() { defer wg.Done(); close(asked); got, st = snap.ReadFile("a.go") }()
		<-asked
		time.Sleep(20 * time.Millisecond) // the asker is waiting, or about to
		if n := f.reads.Load(); n != 0 {
			t.Fatalf("fail=%v: ReadFile read for itself (%d reads) while the batch was in flight", fail, n)
		}
		close(f.release)
		wg.Wait()
		if string(got) != "package a\n" || st != anchors.FileOK {
			t.Fatalf("fail=%v: ReadFile = %q, %v", fail, got, st)
		}
		want := int32(0)
		if fail {
			want = 1
		}
		if n := f.reads.Load(); n != want || f.batches.Load() != 1 {
			t.Fatalf("fail=%v: %d reads, %d batches; want %d reads, 1 batch", fail, n, f.batches.Load(), want)
		}
	}
}

// PreloadAsync returns with its paths in flight: a ReadFile right after it
// waits for the batch (the file is read once, by the batch) and gets the
// batch's answer; wait returns once the batch is stored.
func TestPreloadAsyncReturnsWithPathsInFlight(t *testing.T) {
	f := &batchFiles{files: map[string]string{"a.go": "package a\n", "b.md": "# b\n"},
		entered: make(chan struct{}), release: make(chan struct{})}
	snap, err := Load(t.TempDir(), f, nil)
	if err != nil {
		t.Fatal(err)
	}
	inMemory, wait := snap.PreloadAsync([]string{"a.go", "b.md"})
	if !inMemory {
		t.Fatal("PreloadAsync on a ManyReader does not report the reads in memory")
	}
	done := make(chan []byte)
	go func() { b, _ := snap.ReadFile("a.go"); done <- b }()
	<-f.entered // the batch is reading, held
	select {
	case <-done:
		t.Fatal("ReadFile answered before the batch holding its path")
	case <-time.After(20 * time.Millisecond):
	}
	close(f.release)
	if got := string(<-done); got != "package a\n" {
		t.Errorf("ReadFile = %q", got)
	}
	wait()
	if n := f.reads.Load(); n != 0 {
		t.Errorf("a.go was read %d times outside the batch", n)
	}
}
