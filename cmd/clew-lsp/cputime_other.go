//go:build !unix

package main

import "time"

// cpuClock: processor time is not read on this platform; verify's budget
// max_ms bounds wall-clock time there.
var cpuClock func() time.Duration
