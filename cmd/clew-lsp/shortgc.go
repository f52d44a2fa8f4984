package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync/atomic"
)

// shortRunHeap is how far a one-shot command's heap may grow before its
// first collection. A verify over a law of a thousand legs and a few
// thousand files allocates a few tens of MiB in all and exits; its
// collections, started at the runtime's 4 MiB first goal, cost 10–15 % of
// its processor time and free memory that is about to be returned anyway.
// A run that allocates more collects once it gets here, then as usual.
const shortRunHeap = 64 << 20

// contextRunHeap is that ceiling for context and explain. On a large tree
// with many anchored files their heap passes 300 MiB whatever the
// collector does, so the collections on the way there free little. Five
// alternated later runs on an 11,000-file tree with a 1,000-anchor doc:
// medians 0.44 s at 64 MiB, 0.42 at 128, 0.40 at 256, the same peak
// memory; on the same tree without docs the peak was 157, 158 and 231
// MiB for the same time. 128 MiB takes the part of the gain that costs
// no memory. A verify's heap stays small: a larger ceiling only raised
// its peak (131 -> 215 MiB at 256) for no time.
const contextRunHeap = 128 << 20

// gcGeneration tells a stale cleanup (of an earlier run in the same
// process, as the benchmark makes) from the current run's.
var gcGeneration atomic.Int64

// deferGC turns the collector off until the heap reaches ceiling or
// the returned restore is called, whichever comes first, and then puts
// the collector back as it was. GOGC or GOMEMLIMIT in the environment
// means the user chose: nothing is changed.
func deferGC(ceiling int64) (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	gen := gcGeneration.Add(1)
	pct := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(ceiling)
	var done atomic.Bool
	restore = func() {
		if gcGeneration.Load() == gen && done.CompareAndSwap(false, true) {
			debug.SetGCPercent(pct)
			debug.SetMemoryLimit(limit)
		}
	}
	// The first collection (the limit reached) frees this sentinel; its
	// cleanup brings the usual pacing back, so a large run is not held at
	// the limit, collecting again and again.
	runtime.AddCleanup(new([64]byte), func(func()) { restore() }, restore)
	return restore
}
