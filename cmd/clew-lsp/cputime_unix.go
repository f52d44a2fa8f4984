//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuClock is this process's processor time (user + system, all threads):
// what verify's budget max_ms bounds, so a loaded machine stops a check
// where an idle one does. nil (wall-clock time) when it cannot be read.
var cpuClock = func() func() time.Duration {
	read := func() (time.Duration, bool) {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			return 0, false
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
	}
	if _, ok := read(); !ok {
		return nil
	}
	return func() time.Duration {
		d, _ := read()
		return d
	}
}()
