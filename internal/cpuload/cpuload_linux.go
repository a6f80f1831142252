package cpuload

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// machineBusy returns the jiffies that the allowed CPUs (nil: all) spent
// not idle, from /proc/stat (see busyOf).
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
// the allowed CPUs' lines.
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

// Self returns this process's CPU time (user + system), and with
// children that of its children that have ended and been waited for
// (and theirs).
func Self(children bool) time.Duration {
	t := rusage(syscall.RUSAGE_SELF)
	if children {
		t += rusage(syscall.RUSAGE_CHILDREN)
	}
	return t
}

func rusage(who int) time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(who, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Process returns process pid's CPU time (user + system) with that of its
// children that have ended and been waited for, from /proc/PID/stat;
// false when it cannot be read (the process is gone).
func Process(pid int) (time.Duration, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	return processOf(b)
}

// processOf sums utime, stime, cutime and cstime (fields 14-17) of a
// /proc/PID/stat line; the command name (field 2) may hold spaces and
// parentheses, so the fields are counted after its last ')'.
func processOf(stat []byte) (time.Duration, bool) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(stat[i+1:]) // f[0] is field 3 (state)
	if len(f) < 15 {
		return 0, false
	}
	var sum int64
	for _, v := range f[11:15] {
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return 0, false
		}
		sum += n
	}
	return ticks(sum), true
}
