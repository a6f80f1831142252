package gemm

import (
	"bytes"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// machineBusy returns the jiffies that the CPUs this process may run on
// (allowed, from affinity; nil: all) spent not idle, from /proc/stat (see
// busyOf).
func machineBusy(allowed map[int]bool) (int64, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	return busyOf(b, allowed)
}

// affinity returns the set of CPUs this process may run on, or nil when
// it cannot tell.
func affinity() map[int]bool {
	var set unix.CPUSet
	if unix.SchedGetaffinity(0, &set) != nil {
		return nil
	}
	cpus := map[int]bool{}
	for i := range len(set) * 64 {
		if set.IsSet(i) {
			cpus[i] = true
		}
	}
	return cpus
}

// busyOf sums the busy jiffies (user nice system irq softirq steal: not
// idle, not iowait) of /proc/stat's content stat: the "cpu" line's when
// allowed is nil, covers every "cpuN" line or none of them, else those of
// the allowed CPUs' lines, so that other tenants' work on other CPUs (a
// container given some with --cpuset-cpus) does not count.
func busyOf(stat []byte, allowed map[int]bool) (int64, bool) {
	var total, mine int64
	haveTotal, lines, matched := false, 0, 0
	for len(stat) > 0 {
		line := stat
		if i := bytes.IndexByte(stat, '\n'); i >= 0 {
			line, stat = stat[:i], stat[i+1:]
		} else {
			stat = nil
		}
		if !bytes.HasPrefix(line, []byte("cpu")) {
			continue
		}
		f := bytes.Fields(line)
		busy, ok := busyFields(f)
		if !ok {
			return 0, false
		}
		if string(f[0]) == "cpu" {
			total, haveTotal = busy, true
			continue
		}
		n, err := strconv.Atoi(string(f[0][3:]))
		if err != nil {
			return 0, false
		}
		lines++
		if allowed[n] {
			mine += busy
			matched++
		}
	}
	if allowed == nil || matched == lines || matched == 0 {
		return total, haveTotal
	}
	return mine, true
}

// busyFields sums a /proc/stat CPU line's user..steal fields other than
// idle and iowait.
func busyFields(f [][]byte) (int64, bool) {
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
