//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
)

// heapDumpSignal asks for a heap dump.
var heapDumpSignal os.Signal = syscall.SIGUSR1

// heapDumpSignals: on Unix, SIGUSR1 asks a server started with
// CLEW_LSP_HEAP_PROFILE for a heap profile (dumpHeapOnSignal).
func heapDumpSignals() (chan os.Signal, func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, heapDumpSignal)
	return ch, func() { signal.Stop(ch) }
}
