package shim

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"
	"time"
)

// child is the running kernel process (GoNB).
type child struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited and been reaped
	code int           // exit status; read only after done is closed
}

// startChild starts argv with env, in the caller's process group, with
// stdout and stderr going straight to ours.
//
// Linux's parent-death signal fires when the thread that forked the child
// exits, not the process: so the goroutine that starts the child locks
// itself to its OS thread and stays there, in cmd.Wait, until the child has
// exited. That goroutine ends then; it reports the exit status in code.
func startChild(argv, env []string) (*child, error) {
	c := &child{done: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = env
		// *os.File values, not io.Writers: os/exec then starts no copying
		// goroutines, and the kernel writes to Jupyter's pipes directly.
		cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, os.Stdout, os.Stderr
		cmd.SysProcAttr = childAttr()
		if err := cmd.Start(); err != nil {
			started <- fmt.Errorf("shim: start kernel %s: %w", argv[0], err)
			return
		}
		c.cmd = cmd
		started <- nil
		cmd.Wait() // the status is in cmd.ProcessState
		c.code = exitCode(cmd.ProcessState)
		close(c.done)
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return c, nil
}

// exitCode turns a process's end into a shell-style exit status: the
// process's own status, or 128+n when signal n killed it.
func exitCode(st *os.ProcessState) int {
	if st == nil { // Wait itself failed: nothing is known
		return 1
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return st.ExitCode()
}

// signal sends sig to the kernel; a process that already exited is not an
// error.
func (c *child) signal(sig os.Signal) {
	if err := c.cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		fmt.Fprintf(os.Stderr, "dlbd shim: forward %v to kernel %d: %v\n", sig, c.cmd.Process.Pid, err)
	}
}

// forwardSignals relays SIGINT and SIGTERM received by the shim to the
// kernel until it exits; the goroutine it starts ends then. Jupyter may
// also signal the whole process group, in which case the kernel gets the
// signal twice: GoNB treats a second SIGINT as another interrupt and a
// second SIGTERM as the same request to stop.
func (c *child) forwardSignals() {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		defer signal.Stop(sigs)
		for {
			select {
			case sig := <-sigs:
				c.signal(sig)
			case <-c.done:
				return
			}
		}
	}()
}

// stop asks the kernel to exit with SIGTERM and kills it if it is still
// running after grace. It returns once the kernel has exited.
func (c *child) stop(grace time.Duration) {
	c.signal(syscall.SIGTERM)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-c.done:
	case <-t.C:
		c.signal(syscall.SIGKILL)
		<-c.done
	}
}
