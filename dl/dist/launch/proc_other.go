//go:build !linux

package launch

import "syscall"

// groupAttr puts a rank in process group pgid (0: a new group led by it).
// Without Linux's PR_SET_PDEATHSIG, ranks outlive a launcher killed with
// SIGKILL; any other end of the launcher stops them.
func groupAttr(pgid int) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pgid: pgid}
}
