//go:build linux

package symbols

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// lockParseThread keeps the calling goroutine on its thread (a cgo call
// runs on the thread it was made from) and returns a reader of that
// thread's processor clock, readable from any thread of the process.
func lockParseThread() (unlock func(), used func() (time.Duration, bool), ok bool) {
	runtime.LockOSThread()
	clock := threadCPUClock(unix.Gettid())
	var ts unix.Timespec
	if unix.ClockGettime(clock, &ts) != nil {
		return runtime.UnlockOSThread, nil, false
	}
	start := time.Duration(ts.Nano())
	used = func() (time.Duration, bool) {
		var now unix.Timespec
		if err := unix.ClockGettime(clock, &now); err != nil {
			return 0, false
		}
		return time.Duration(now.Nano()) - start, true
	}
	return runtime.UnlockOSThread, used, true
}

// threadCPUClock is the clock id of a thread's processor time, as
// pthread_getcpuclockid makes it: the kernel's MAKE_THREAD_CPUCLOCK(tid,
// CPUCLOCK_SCHED), (^tid << 3) | CPUCLOCK_PERTHREAD_MASK | CPUCLOCK_SCHED.
func threadCPUClock(tid int) int32 {
	return int32(^uint32(tid)<<3) | 4 | 2
}
