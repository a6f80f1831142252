//go:build linux

package launch

import "syscall"

// groupAttr puts a rank in process group pgid (0: a new group led by it)
// and has the kernel kill it when the launcher dies (PR_SET_PDEATHSIG),
// so that no rank outlives its job.
func groupAttr(pgid int) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pgid: pgid, Pdeathsig: syscall.SIGKILL}
}
