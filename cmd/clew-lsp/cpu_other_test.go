//go:build !unix

package main

import "time"

// No getrusage here: the CPU metrics read 0 and only the wall ratio counts.
func selfCPU() time.Duration  { return 0 }
func childCPU() time.Duration { return 0 }
