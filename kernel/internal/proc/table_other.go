//go:build !linux

package proc

import "errors"

// errNoProc is returned where /proc is needed.
var errNoProc = errors.New("proc: listing processes needs /proc (Linux)")

// Alive cannot tell without /proc and reports false.
func (p Info) Alive() bool { return false }

// Table returns an error: listing processes needs /proc.
func Table() ([]Info, error) { return nil, errNoProc }

// Read returns an error: reading a process's entry needs /proc.
func Read(pid int) (Info, error) { return Info{}, errNoProc }
