package main

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"runtime/pprof"
)

// HeapProfileEnv names where `serve` writes heap profiles, for finding
// out what a long editing session keeps: with CLEW_LSP_HEAP_PROFILE=PREFIX
// the server writes PREFIX.N.pprof (the heap profile, after a collection:
// `go tool pprof -sample_index=inuse_space BIN PREFIX.N.pprof`) and
// PREFIX.N.json (the Go heap's figures, heapStats) each time it receives
// SIGUSR1 (Unix), N counting from 1, and once more as PREFIX.exit.* when it
// exits. Unset (the default), nothing is installed.
const HeapProfileEnv = "CLEW_LSP_HEAP_PROFILE"

// heapStats are the Go heap's figures written beside a profile, in bytes.
type heapStats struct {
	HeapAlloc    uint64 `json:"heapAlloc"`    // live objects (just after a collection: the live heap)
	HeapInuse    uint64 `json:"heapInuse"`    // spans in use
	HeapIdle     uint64 `json:"heapIdle"`     // spans free, held or returned
	HeapReleased uint64 `json:"heapReleased"` // returned to the system
	HeapObjects  uint64 `json:"heapObjects"`
	Sys          uint64 `json:"sys"` // everything the runtime got from the system
	NumGC        uint32 `json:"numGC"`
}

// dumpHeapOnSignal starts writing heap profiles as HeapProfileEnv asks,
// and returns what writes the last one and stops (call it when serving
// ends). It does nothing when the variable is unset.
func dumpHeapOnSignal(logger *slog.Logger) (stop func()) {
	prefix := os.Getenv(HeapProfileEnv)
	if prefix == "" {
		return func() {}
	}
	ch, unnotify := heapDumpSignals()
	done := make(chan struct{})
	go func() {
		for n := 1; ; n++ {
			select {
			case <-ch:
				writeHeapDump(logger, fmt.Sprintf("%s.%d", prefix, n))
			case <-done:
				return
			}
		}
	}()
	return func() {
		unnotify()
		close(done)
		writeHeapDump(logger, prefix+".exit")
	}
}

// writeHeapDump collects, then writes base.pprof and base.json. The JSON is
// written last, through a rename, so a reader that sees it sees both whole.
func writeHeapDump(logger *slog.Logger, base string) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	st := heapStats{ms.HeapAlloc, ms.HeapInuse, ms.HeapIdle, ms.HeapReleased, ms.HeapObjects, ms.Sys, ms.NumGC}
	err := writeFileVia(base+".pprof", func(f *os.File) error { return pprof.Lookup("heap").WriteTo(f, 0) })
	if err == nil {
		err = writeFileVia(base+".json", func(f *os.File) error { return json.NewEncoder(f).Encode(st) })
	}
	if err != nil {
		logger.Warn("heap profile", "error", err)
		return
	}
	logger.Info("heap profile", "file", base+".pprof", "heapAlloc", st.HeapAlloc, "heapInuse", st.HeapInuse, "sys", st.Sys)
}

func writeFileVia(path string, write func(*os.File) error) error {
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}
