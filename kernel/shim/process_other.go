//go:build unix && !linux

package shim

import "syscall"

// childAttr keeps the kernel in the shim's process group. Other systems have
// no parent-death signal: if the shim is killed with SIGKILL the kernel
// outlives it until Jupyter kills the process group.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{}
}
