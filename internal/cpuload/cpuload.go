// Package cpuload measures how many cores other programs take from ours:
// the busy time of the CPUs this process may run on (Linux's /proc/stat,
// only the CPUs of its affinity mask, so that a container given some with
// --cpuset-cpus does not count other tenants' work) less the CPU time of
// our own processes, over the wall time. dl's dynamic threads
// (dl/internal/kernels/gemm) size their parallel calls with it, and the
// stateful kernel its cells' builds (kernel/stateful). Elsewhere than on
// Linux nothing can be read and every core stays available.
package cpuload

import "time"

// DynamicEnv names the variable that turns the adjustment to other
// programs' load off when it is "0": dl's dynamic threads and the
// kernel's builds then always use every core (the tests do, so that a
// busy CI machine still runs their 2-thread cases on 2 threads).
const DynamicEnv = "DLBD_DYNAMIC_THREADS"

// userHZ is the unit of /proc/stat and /proc/PID/stat: 100 on every Linux
// architecture Go supports.
const userHZ = 100

// Free returns the cores of cores that other programs leave free when
// they use others cores (at least 1): a core counts as taken from 0.8 of
// one (13/16).
func Free(cores int, others float64) int {
	return max(1, cores-int(others+3.0/16))
}

// Machine reads the busy time of the CPUs this process may run on.
type Machine struct {
	allowed map[int]bool // nil: all
}

// NewMachine reads this process's affinity mask once.
func NewMachine() *Machine { return &Machine{allowed: affinity()} }

// Busy returns the time the allowed CPUs have spent not idle since boot,
// summed over CPUs; false where it cannot be read.
func (m *Machine) Busy() (time.Duration, bool) {
	j, ok := machineBusy(m.allowed)
	return ticks(j), ok
}

// Cores returns how many CPUs this process may run on (0: unknown).
func (m *Machine) Cores() int { return len(m.allowed) }

func ticks(j int64) time.Duration { return time.Duration(j) * (time.Second / userHZ) }

// Others returns the cores other programs used between two readings:
// the machine's busy time (busy0, busy1) less ours (ours0, ours1) over
// the wall time between them (never below 0; 0 for an empty interval).
func Others(busy0, busy1, ours0, ours1 time.Duration, wall time.Duration) float64 {
	if wall <= 0 {
		return 0
	}
	return max(float64((busy1-busy0)-(ours1-ours0))/float64(wall), 0)
}
