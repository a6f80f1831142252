package jupyter

import "fmt"

// Process is one entry of the process table, read from /proc (Linux only).
type Process struct {
	// PID is the process id.
	PID int
	// PPID is the parent's process id.
	PPID int
	// PGID is the process group id.
	PGID int
	// State is the one-letter state of /proc/<pid>/stat ("R", "S", "Z", ...).
	State string
	// Comm is the executable's name, possibly truncated by the kernel.
	Comm string
	// StartTime is the start time in clock ticks since boot: together with
	// PID it identifies a process even after its PID is reused.
	StartTime uint64
}

// String returns "pid comm (state)".
func (p Process) String() string { return fmt.Sprintf("%d %s (%s)", p.PID, p.Comm, p.State) }
