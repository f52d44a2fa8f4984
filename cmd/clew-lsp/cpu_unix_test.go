//go:build unix

package main

import (
	"syscall"
	"time"
)

// selfCPU is this process's user + system time, all threads.
func selfCPU() time.Duration { return rusage(syscall.RUSAGE_SELF) }

// childCPU is the user + system time of its waited-for children.
func childCPU() time.Duration { return rusage(syscall.RUSAGE_CHILDREN) }

func rusage(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
