//go:build !linux

package cpuload

import "time"

// machineBusy reports false: only Linux's /proc/stat is read.
func machineBusy(allowed map[int]bool) (int64, bool) { return 0, false }

// affinity is not needed without machineBusy.
func affinity() map[int]bool { return nil }

// Self is not needed without Machine.Busy: it returns 0.
func Self(children bool) time.Duration { return 0 }

// Process reports false: only Linux's /proc is read.
func Process(pid int) (time.Duration, bool) { return 0, false }
