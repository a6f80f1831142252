//go:build !linux

package jupyter

import (
	"errors"
	"fmt"
)

// Process is one entry of the process table; listing needs Linux's /proc.
type Process struct {
	// PID is the process id.
	PID int
	// PPID is the parent's process id.
	PPID int
	// PGID is the process group id.
	PGID int
	// State is the one-letter process state.
	State string
	// Comm is the executable's name.
	Comm string
	// StartTime identifies the process together with PID.
	StartTime uint64
}

// errNoProc is returned where /proc is needed.
var errNoProc = errors.New("jupyter: listing processes needs /proc (Linux)")

// String returns "pid comm (state)".
func (p Process) String() string { return fmt.Sprintf("%d %s (%s)", p.PID, p.Comm, p.State) }

// Alive cannot tell without /proc and reports false.
func (p Process) Alive() bool { return false }

// Processes returns an error: listing processes needs /proc.
func Processes() ([]Process, error) { return nil, errNoProc }

// family returns an error: listing processes needs /proc.
func family(root, pgid int) ([]Process, error) { return nil, errNoProc }
