package stateful

import (
	"context"
	"os/exec"
	"syscall"
	"time"

	gonbprotocol "github.com/janpfeifer/gonb/gonbui/protocol"

	"github.com/dlbd/dlbd/kernel/cell"
	"github.com/dlbd/dlbd/kernel/internal/envlist"
	"github.com/dlbd/dlbd/kernel/internal/proc"
)

// shell runs a !command with bash in the notebook's directory (!*: in the
// session's), streaming its output. As in GoNB, its exit status does not
// fail the cell; an interrupt stops it (SIGINT, then SIGKILL after the
// grace period), Close at once (SIGKILL). Processes it leaves in the background stay until the
// kernel ends (the guard ends them then).
func (s *Session) shell(ctx context.Context, num int, c cell.Command, out Output) Result {
	cmd := exec.Command("/bin/bash", "-c", c.Text)
	cmd.Dir = s.o.WorkDir
	if c.Kind == cell.ShellInTmp {
		cmd.Dir = s.dir
	}
	env := envlist.Parse(s.o.Env)
	s.mu.Lock()
	for k, v := range s.env {
		env.Set(k, v)
	}
	s.mu.Unlock()
	env.Set(gonbprotocol.GONB_DIR_ENV, s.o.WorkDir)
	env.Set(gonbprotocol.GONB_TMP_DIR_ENV, s.dir)
	cmd.Env = env.Environ()
	cmd.Stdout = writerFunc(func(b []byte) { out.Stream("stdout", string(b)) })
	cmd.Stderr = writerFunc(func(b []byte) { out.Stream("stderr", string(b)) })
	// A background process (!server &) keeps the output pipes open: stop
	// waiting for them soon after bash itself exits.
	cmd.WaitDelay = 500 * time.Millisecond
	p, err := proc.Start(cmd, proc.Options{Group: true})
	if err != nil {
		return errorResult("shell", err.Error())
	}
	s.o.Guard.Group(p.Pid())
	select {
	case <-p.Done():
	case <-ctx.Done():
		if s.closing() {
			p.Kill()
			return shutdownResult(num, "while a shell command ran (!"+c.Text+")")
		}
		syscall.Kill(-p.Pid(), syscall.SIGINT)
		select {
		case <-p.Done():
		case <-time.After(s.o.InterruptGrace):
			p.Kill()
		}
		return errorResult("interrupt", "interrupted while a shell command ran (!"+c.Text+"); the session's values are kept")
	}
	return okResult()
}

// writerFunc is an io.Writer that hands each write to f.
type writerFunc func([]byte)

func (f writerFunc) Write(b []byte) (int, error) { f(b); return len(b), nil }
