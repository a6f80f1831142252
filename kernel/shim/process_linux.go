package shim

import "syscall"

// childAttr keeps the kernel in the shim's process group (no Setpgid) and
// makes Linux kill it when the shim's starting thread dies (Pdeathsig).
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
