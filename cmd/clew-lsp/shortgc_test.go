package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcPercent reads the collector's setting without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

func TestDeferGCOffThenBackAfterTheHeadroom(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set: deferGC leaves the collector alone")
	}
	before, limit := gcPercent(), debug.SetMemoryLimit(-1)
	restore := deferGC(shortRunHeap)
	defer restore()
	if p := gcPercent(); p != -1 {
		t.Fatalf("collector still on (GOGC %d) inside a short run", p)
	}
	if l := debug.SetMemoryLimit(-1); l != shortRunHeap {
		t.Fatalf("memory limit %d, want %d", l, shortRunHeap)
	}
	// Grow the heap past the headroom: the collection it forces must
	// bring the usual pacing back by itself.
	var keep [][]byte
	for i := 0; i < 2*shortRunHeap/(1<<20); i++ {
		keep = append(keep, make([]byte, 1<<20))
	}
	deadline := time.Now().Add(10 * time.Second)
	for gcPercent() != before && time.Now().Before(deadline) {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
	runtime.KeepAlive(keep)
	if p := gcPercent(); p != before {
		t.Fatalf("after the heap passed %d MiB GOGC is %d, want %d back", shortRunHeap>>20, p, before)
	}
	if l := debug.SetMemoryLimit(-1); l != limit {
		t.Fatalf("memory limit %d after the first collection, want %d back", l, limit)
	}
}

func TestDeferGCRestoreAndStaleCleanup(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set")
	}
	before := gcPercent()
	first := deferGC(shortRunHeap)
	first()
	if p := gcPercent(); p != before {
		t.Fatalf("restore left GOGC at %d, want %d", p, before)
	}
	// A later run's collector setting is not undone by an earlier run's
	// restore (the benchmark runs verify many times in one process).
	second := deferGC(shortRunHeap)
	defer second()
	first()
	if p := gcPercent(); p != -1 {
		t.Fatalf("an earlier run's restore turned the collector back on (GOGC %d) during a later run", p)
	}
}

func TestDeferGCLeavesTheUsersChoice(t *testing.T) {
	t.Setenv("GOGC", "250")
	before := gcPercent()
	defer deferGC(shortRunHeap)()
	if p := gcPercent(); p != before {
		t.Fatalf("GOGC set by the user, yet the setting changed to %d", p)
	}
}

// The ceiling is the caller's: context's is not verify's.
func TestDeferGCCeilingIsTheCallers(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set")
	}
	limit := debug.SetMemoryLimit(-1)
	for _, ceiling := range []int64{shortRunHeap, contextRunHeap} {
		restore := deferGC(ceiling)
		if l := debug.SetMemoryLimit(-1); l != ceiling {
			t.Errorf("memory limit %d, want %d", l, ceiling)
		}
		restore()
		if l := debug.SetMemoryLimit(-1); l != limit {
			t.Errorf("memory limit %d after restore, want %d", l, limit)
		}
	}
}
