package frontend

import (
	"errors"
	"os"
	"strconv"
	"syscall"
	"time"
)

// parentPollInterval is how often the front end checks that Jupyter is still there.
const parentPollInterval = time.Second

// jupyterParent returns the pid of the process that owns this kernel: JPY_PARENT_PID,
// which jupyter_client sets for every kernel it starts, else the front end's parent. It
// returns 0 (watch nothing) when the front end was started by init or a subreaper already.
func jupyterParent() int {
	if pid, err := strconv.Atoi(os.Getenv("JPY_PARENT_PID")); err == nil && pid > 1 {
		return pid
	}
	if ppid := os.Getppid(); ppid > 1 {
		return ppid
	}
	return 0
}

// watchParent returns a channel that is closed once the process pid is gone, or once
// the front end's own parent changes (its parent exited and the front end was re-parented,
// which also covers a parent that is a zombie nobody has reaped yet). ipykernel does
// the same (its ParentPollerUnix): without it, a Jupyter server killed with SIGKILL
// would leave its kernels running forever. The goroutine it starts checks every
// interval and ends when the parent is gone or stop is closed.
func watchParent(pid int, interval time.Duration, stop <-chan struct{}) <-chan struct{} {
	gone := make(chan struct{})
	if pid <= 0 {
		return gone // never closed
	}
	ppid := os.Getppid()
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				if os.Getppid() != ppid || errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
					close(gone)
					return
				}
			}
		}
	}()
	return gone
}
