package proc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"
)

// Proc is a started process.
type Proc struct {
	cmd  *exec.Cmd
	done chan struct{}
	st   *os.ProcessState
}

// Options says how [Start] runs a command.
type Options struct {
	// Group puts the process in a new process group of its own (it leads
	// it), so that Kill reaches what it starts.
	Group bool
	// JoinGroup, when not 0, puts the process in that existing group.
	JoinGroup int
}

// Start starts cmd and waits for it on a goroutine locked to its OS
// thread, so that the process gets SIGKILL if this process dies (on Linux).
// cmd must not have been started; Start sets its SysProcAttr.
func Start(cmd *exec.Cmd, o Options) (*Proc, error) {
	p := &Proc{cmd: cmd, done: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		cmd.SysProcAttr = attr(o)
		if err := cmd.Start(); err != nil {
			started <- fmt.Errorf("proc: start %s: %w", cmd.Path, err)
			return
		}
		started <- nil
		cmd.Wait()
		p.st = cmd.ProcessState
		close(p.done)
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return p, nil
}

// Pid returns the process id.
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// Done is closed once the process has exited and been reaped.
func (p *Proc) Done() <-chan struct{} { return p.done }

// Exited reports whether the process has exited.
func (p *Proc) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// State returns how the process ended; call it after Done.
func (p *Proc) State() *os.ProcessState { return p.st }

// ExitCode returns a shell-style status after Done: the exit code, or
// 128+n when signal n killed the process.
func (p *Proc) ExitCode() int { return ExitCode(p.st) }

// ExitCode returns a shell-style status for st.
func ExitCode(st *os.ProcessState) int {
	if st == nil {
		return 1
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return st.ExitCode()
}

// Describe returns how the process ended in words: "exited with status
// 3", "was killed by signal 9 (killed; out of memory?)".
func (p *Proc) Describe() string {
	if p.st == nil {
		return "ended"
	}
	if ws, ok := p.st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		s := fmt.Sprintf("was killed by signal %d (%v)", int(ws.Signal()), ws.Signal())
		if ws.Signal() == syscall.SIGKILL {
			s += ": out of memory, or killed from outside"
		}
		return s
	}
	return fmt.Sprintf("exited with status %d", p.st.ExitCode())
}

// Signal sends sig to the process; one that has exited is not an error.
func (p *Proc) Signal(sig syscall.Signal) error {
	if err := p.cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("proc: signal %v to %d: %w", sig, p.Pid(), err)
	}
	return nil
}

// Kill kills the process's group (when it leads one) or the process, and
// waits until it has exited.
func (p *Proc) Kill() {
	KillGroup(p.Pid())
	p.Signal(syscall.SIGKILL)
	<-p.done
}

// Stop sends SIGTERM, waits up to grace, then kills the group.
func (p *Proc) Stop(grace time.Duration) {
	p.Signal(syscall.SIGTERM)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.done:
		KillGroup(p.Pid()) // what it left behind
	case <-t.C:
		p.Kill()
	}
}

// KillGroup sends SIGKILL to every process of group pgid; a group that is
// gone is not an error.
func KillGroup(pgid int) {
	if pgid > 1 {
		syscall.Kill(-pgid, syscall.SIGKILL)
	}
}
