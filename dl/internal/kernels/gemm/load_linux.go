package gemm

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// machineBusy returns the jiffies all CPUs spent not idle (first line of
// /proc/stat: user nice system idle iowait irq softirq steal ...).
func machineBusy() (int64, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	line := b[:bytes.IndexByte(b, '\n')]
	f := bytes.Fields(line)
	if len(f) < 8 {
		return 0, false
	}
	var sum int64
	for i, v := range f[1:] {
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return 0, false
		}
		if i != 3 && i != 4 && i < 8 { // not idle, not iowait; user..steal
			sum += n
		}
	}
	return sum, true
}

// ownCPU returns this process's CPU seconds (user + system).
func ownCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
