package proc

import "fmt"

// Info is one entry of the process table, read from /proc (Linux only).
type Info struct {
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
func (p Info) String() string { return fmt.Sprintf("%d %s (%s)", p.PID, p.Comm, p.State) }

// exited reports whether p has exited: a zombie (waiting for its parent
// to reap it) or dead. Such a process runs no code and holds no resources
// but its table entry.
func (p Info) exited() bool { return p.State == "Z" || p.State == "X" }

// Family returns the process root (if alive), its descendants, and every
// member of process group pgid, each once. Exited processes not yet reaped
// are left out.
func Family(root, pgid int) ([]Info, error) {
	table, err := Table()
	if err != nil {
		return nil, err
	}
	var all []Info
	for _, p := range table {
		if !p.exited() {
			all = append(all, p)
		}
	}
	children := map[int][]Info{}
	for _, p := range all {
		children[p.PPID] = append(children[p.PPID], p)
	}
	seen := map[int]bool{}
	var out []Info
	var walk func(p Info)
	walk = func(p Info) {
		if seen[p.PID] {
			return
		}
		seen[p.PID] = true
		out = append(out, p)
		for _, c := range children[p.PID] {
			walk(c)
		}
	}
	for _, p := range all {
		if p.PID == root {
			walk(p)
		}
	}
	for _, p := range all {
		if p.PGID == pgid {
			walk(p)
		}
	}
	return out, nil
}

// Children returns the processes whose parent is pid and that have not
// exited.
func Children(pid int) ([]Info, error) {
	table, err := Table()
	if err != nil {
		return nil, err
	}
	var out []Info
	for _, p := range table {
		if p.PPID == pid && !p.exited() {
			out = append(out, p)
		}
	}
	return out, nil
}
