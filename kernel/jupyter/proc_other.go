//go:build !linux

package jupyter

import "errors"

// errNoProc is returned where /proc is needed.
var errNoProc = errors.New("jupyter: listing processes needs /proc (Linux)")

// Alive cannot tell without /proc and reports false.
func (p Process) Alive() bool { return false }

// Processes returns an error: listing processes needs /proc.
func Processes() ([]Process, error) { return nil, errNoProc }

// family returns an error: listing processes needs /proc.
func family(root, pgid int) ([]Process, error) { return nil, errNoProc }
