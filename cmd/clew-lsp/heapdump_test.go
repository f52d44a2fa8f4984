//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestHeapDumpOnSignal: with CLEW_LSP_HEAP_PROFILE set, each SIGUSR1
// writes a numbered heap profile (gzip: pprof's encoding) and its heap
// figures, and stopping writes the exit pair; unset, nothing is
// installed and nothing written.
func TestHeapDumpOnSignal(t *testing.T) {
	dir := t.TempDir()
	prefix := filepath.Join(dir, "heap")
	t.Setenv(HeapProfileEnv, prefix)
	stop := dumpHeapOnSignal(slog.New(slog.DiscardHandler))
	for n := 1; n <= 2; n++ {
		p, _ := os.FindProcess(os.Getpid())
		if err := p.Signal(heapDumpSignal); err != nil {
			t.Fatal(err)
		}
		st := awaitHeapJSON(t, prefix+"."+string(rune('0'+n))+".json")
		if st.HeapAlloc == 0 || st.HeapObjects == 0 || st.Sys < st.HeapInuse || st.NumGC == 0 {
			t.Errorf("dump %d: implausible figures %+v", n, st)
		}
		checkPprof(t, prefix+"."+string(rune('0'+n))+".pprof")
	}
	stop()
	checkPprof(t, prefix+".exit.pprof")
	if _, err := os.Stat(prefix + ".exit.json"); err != nil {
		t.Error(err)
	}

	t.Setenv(HeapProfileEnv, "")
	stop = dumpHeapOnSignal(slog.New(slog.DiscardHandler))
	stop()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 6 {
		t.Errorf("want 6 files (2 dumps and the exit's, each .pprof and .json), got %d", len(entries))
	}
}

func awaitHeapJSON(t *testing.T, path string) heapStats {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		var st heapStats
		if err := json.Unmarshal(data, &st); err != nil {
			t.Fatalf("%s: %v: %s", path, err, data)
		}
		return st
	}
	t.Fatalf("no %s", path)
	return heapStats{}
}

func checkPprof(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		t.Errorf("%s is not a gzipped profile: % x", path, data[:min(4, len(data))])
	}
}
