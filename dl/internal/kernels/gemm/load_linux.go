package gemm

import (
	"bytes"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// machineBusy returns the jiffies the CPUs this process may run on (cpus,
// from affinity) spent
// not idle (/proc/stat: user nice system idle iowait irq softirq steal
// ...): the first line's total, or with an affinity mask narrower than the
// machine (a container given some CPUs with --cpuset-cpus) the sum of those
// CPUs' lines, so that other tenants' work on other CPUs does not count.
func machineBusy(cpus []int) (int64, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	return busyOf(b, cpus)
}

// affinity returns the CPUs this process may run on, or nil when it
// cannot tell.
func affinity() []int {
	var set unix.CPUSet
	if unix.SchedGetaffinity(0, &set) != nil {
		return nil
	}
	var cpus []int
	for i := range len(set) * 64 {
		if set.IsSet(i) {
			cpus = append(cpus, i)
		}
	}
	return cpus
}

// busyOf sums the busy jiffies of /proc/stat's content stat: the "cpu"
// line's when cpus (the allowed CPUs) is nil or covers every "cpuN" line,
// else those of the lines of cpus.
func busyOf(stat []byte, cpus []int) (int64, bool) {
	allowed := make(map[int]bool, len(cpus))
	for _, c := range cpus {
		allowed[c] = true
	}
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
	if cpus == nil || matched == lines || matched == 0 {
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
