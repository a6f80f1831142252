//go:build linux

package parallel

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPUTime returns the CPU time the calling OS thread has used
// (clock_gettime(CLOCK_THREAD_CPUTIME_ID)): with the goroutine locked to
// its thread, the time it computed, whatever else ran on the machine.
//
// Course: "Pipeline Parallelism (PP)" (the device clock of pp_timeline.go).
// Paper: Huang et al. 2019, GPipe (arXiv:1811.06965).
func threadCPUTime() (time.Duration, bool) {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
