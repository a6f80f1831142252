//go:build unix

package jupyter

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/proc"
)

// process is a running kernel: started in its own process group, as
// jupyter_client does (start_new_session), so that one signal reaches the
// kernel and every child it started in that group.
type process struct {
	cmd  *exec.Cmd
	pgid int
	done chan struct{} // closed when the kernel process has exited
	err  error         // cmd.Wait's result; read only after done is closed
	out  *tail         // last bytes of the kernel's stdout and stderr
	read *os.File      // read end of the output pipe
	// copied is closed when the output pipe reached EOF (every writer,
	// the kernel and its children, closed it) or was closed by us.
	copied chan struct{}
}

// startProcess starts argv with env in dir. The kernel's stdout and stderr
// go to one pipe whose last 64 KiB are kept for error messages (and copied
// to extra when it is not nil).
func startProcess(argv, env []string, dir string, extra io.Writer) (*process, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("jupyter: start kernel: %w", err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = env, dir
	// Passing an *os.File (not an io.Writer) keeps os/exec from starting copy
	// goroutines, so Wait returns when the kernel exits even if a child of
	// it still holds the pipe open.
	cmd.Stdout, cmd.Stderr = w, w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("jupyter: start kernel %q: %w", argv[0], err)
	}
	w.Close() // the kernel holds its own copy
	p := &process{cmd: cmd, pgid: cmd.Process.Pid, done: make(chan struct{}), out: newTail(64 << 10), read: r,
		copied: make(chan struct{})}
	dst := io.Writer(p.out)
	if extra != nil {
		dst = io.MultiWriter(p.out, extra)
	}
	// This goroutine ends at EOF, when the last holder of the pipe's write
	// end exits, or when stop closes r.
	go func() {
		io.Copy(dst, r)
		close(p.copied)
	}()
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// exitCode returns the kernel's exit status (128+n for signal n); call it
// after done is closed.
func (p *process) exitCode() int { return proc.ExitCode(p.cmd.ProcessState) }

// pid returns the kernel's process id.
func (p *process) pid() int { return p.cmd.Process.Pid }

// exited reports whether the kernel process has exited.
func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// exitError describes how the kernel ended, with the last 2000 bytes of
// its output. Call it after done is closed.
func (p *process) exitError() error {
	// The kernel's last words may still be in the pipe when Wait returns:
	// wait for EOF, but not for long, since a child may keep the pipe open.
	select {
	case <-p.copied:
	case <-time.After(500 * time.Millisecond):
	}
	state := "exited"
	if p.err != nil {
		state = p.err.Error()
	}
	out := p.out.String()
	if len(out) > 2000 {
		out = "…" + out[len(out)-2000:]
	}
	return fmt.Errorf("jupyter: kernel process %d %s; its last output:\n%s", p.pid(), state, out)
}

// signalGroup sends sig to every process of the kernel's process group.
// A group that no longer exists is not an error.
func (p *process) signalGroup(sig syscall.Signal) error {
	err := syscall.Kill(-p.pgid, sig)
	if err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("jupyter: send %v to kernel process group %d: %w", sig, p.pgid, err)
	}
	return nil
}

// wait waits at most d for the kernel to exit and reports whether it did.
func (p *process) wait(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		return true
	case <-t.C:
		return false
	}
}

// kill ends the process group: SIGTERM, then SIGKILL after grace if the
// kernel is still running, then SIGKILL again for group members that
// outlive the kernel. It returns the first signalling error.
func (p *process) kill(grace time.Duration) error {
	err := p.signalGroup(syscall.SIGTERM)
	if !p.wait(grace) {
		if e := p.signalGroup(syscall.SIGKILL); err == nil {
			err = e
		}
		p.wait(grace)
	}
	if e := p.signalGroup(syscall.SIGKILL); err == nil {
		err = e
	}
	return err
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

// newTail returns a tail of at most max bytes.
func newTail(max int) *tail { return &tail{max: max} }

// Write appends b, dropping the oldest bytes beyond the limit.
func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(b), nil
}

// String returns the bytes kept.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
