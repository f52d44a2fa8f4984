//go:build !unix

package main

import "os"

// heapDumpSignal: none on this platform.
var heapDumpSignal os.Signal

// heapDumpSignals: there is no SIGUSR1 on this platform; the server writes
// its heap profile only when it exits.
func heapDumpSignals() (chan os.Signal, func()) { return nil, func() {} }
