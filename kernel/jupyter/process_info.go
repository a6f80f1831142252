package jupyter

import "github.com/dlbd/dlbd/kernel/internal/proc"

// Process is one entry of the process table, read from /proc (Linux
// only): its PID, parent, group, state, name and start time; Alive tells
// whether it still runs.
type Process = proc.Info

// Processes returns every process in the table (Linux only).
func Processes() ([]Process, error) { return proc.Table() }
