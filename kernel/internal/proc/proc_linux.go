package proc

import "syscall"

func attr(o Options) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: o.Group || o.JoinGroup != 0, Pgid: o.JoinGroup}
}
