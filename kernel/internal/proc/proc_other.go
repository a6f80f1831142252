//go:build !linux

package proc

import "syscall"

// attr has no parent-death signal outside Linux: the guard does that job.
func attr(o Options) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: o.Group || o.JoinGroup != 0, Pgid: o.JoinGroup}
}
