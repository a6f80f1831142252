package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dlbd/dlbd/internal/atomicfile"
)

// State is what the state file of a running server records.
type State struct {
	Name    string    // "spark", "kafka"
	PID     int       // the watchdog shell; the server is in its process group
	Addr    string    // host:port it listens on
	Log     string    // its stdout and stderr
	Started time.Time // when Start launched it
	Watch   int       // the process whose exit stops it (0: none)
	File    string    // the state file itself (removed by Stop)
}

// Spec describes a server to start.
type Spec struct {
	Name      string        // for messages and the state file
	Addr      string        // 127.0.0.1:port it will listen on
	Argv      []string      // the server command
	Env       []string      // extra environment (added to os.Environ)
	Dir       string        // working directory (created)
	Log       string        // file for stdout and stderr (truncated)
	StateFile string        // where to record the State
	Watch     int           // stop the server when this process exits (0: never)
	Timeout   time.Duration // how long to wait for the port; default 2 minutes
	Hint      string        // what to do when it does not start, appended to errors
}

// ErrPortBusy is wrapped by Start when another process already listens on the address.
var ErrPortBusy = errors.New("port in use")

// watchdog runs the server in the background and, when $WATCH is set, stops it once that
// process is gone; TERM stops the server and waits for it.
const watchdog = `"$@" & child=$!
trap 'kill -TERM $child 2>/dev/null; wait $child; exit 143' TERM INT
if [ "${WATCH:-0}" != 0 ]; then
  while kill -0 "$WATCH" 2>/dev/null && kill -0 $child 2>/dev/null; do sleep 1; done
  kill -TERM $child 2>/dev/null
fi
wait $child`

// Start launches the server in its own session (a cell's process may exit; the server
// stays), waits until its port accepts connections, and records its State. It fails at
// once when the port is in use, and when the process exits before listening it returns the
// last lines of its log.
func Start(ctx context.Context, s Spec) (*State, error) {
	if err := PortFree(s.Addr); err != nil {
		return nil, fmt.Errorf("%s: cannot listen on %s: %w", s.Name, s.Addr, err)
	}
	for _, d := range []string{s.Dir, filepath.Dir(s.Log), filepath.Dir(s.StateFile)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
	}
	logf, err := os.Create(s.Log)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	defer logf.Close()
	cmd := exec.Command("/bin/sh", append([]string{"-c", watchdog, "watchdog"}, s.Argv...)...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = s.Dir, logf, logf
	cmd.Env = append(append(os.Environ(), s.Env...), fmt.Sprintf("WATCH=%d", s.Watch))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: start %s: %w", s.Name, s.Argv[0], err)
	}
	// Reap the process if it exits while this one lives (else kill -0 sees a zombie).
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	st := &State{Name: s.Name, PID: cmd.Process.Pid, Addr: s.Addr, Log: s.Log, Started: time.Now(), Watch: s.Watch, File: s.StateFile}
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for !Listening(s.Addr) {
		select {
		case <-exited:
			return nil, fmt.Errorf("%s exited before listening on %s; its log %s ends with:\n%s\n%s", s.Name, s.Addr, s.Log, Tail(s.Log, 15), s.Hint)
		case <-wctx.Done():
			_ = st.Stop(10 * time.Second)
			return nil, fmt.Errorf("%s did not listen on %s within %v (stopped it); its log %s ends with:\n%s\n%s", s.Name, s.Addr, timeout, s.Log, Tail(s.Log, 15), s.Hint)
		case <-time.After(100 * time.Millisecond):
		}
	}
	data, _ := json.MarshalIndent(st, "", "  ")
	if err := atomicfile.WriteFile(s.StateFile, data, 0o644); err != nil {
		_ = st.Stop(10 * time.Second)
		return nil, fmt.Errorf("%s: record state: %w", s.Name, err)
	}
	return st, nil
}

// Load reads a state file and returns its State when that server is still running and
// listening; otherwise it returns nil and removes a stale file.
func Load(stateFile string) *State {
	data, err := os.ReadFile(stateFile)
	if err != nil {
		return nil
	}
	var st State
	if json.Unmarshal(data, &st) != nil || !st.Alive() || !Listening(st.Addr) {
		_ = os.Remove(stateFile)
		return nil
	}
	st.File = stateFile
	return &st
}

// Alive reports whether the server's process still exists.
func (st *State) Alive() bool {
	return st.PID > 0 && syscall.Kill(st.PID, 0) == nil
}

// Stop sends SIGTERM to the server's process group, waits up to timeout for it to exit,
// then kills it, and removes the state file. Stopping a server that is gone is not an error.
func (st *State) Stop(timeout time.Duration) error {
	if st.File != "" {
		defer os.Remove(st.File)
	}
	if !st.Alive() {
		return nil
	}
	_ = syscall.Kill(-st.PID, syscall.SIGTERM)
	deadline := time.Now().Add(timeout)
	for st.Alive() && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if st.Alive() {
		_ = syscall.Kill(-st.PID, syscall.SIGKILL)
		time.Sleep(200 * time.Millisecond)
	}
	// The JVM may outlive the shell by a moment: wait for the port to close.
	for Listening(st.Addr) && time.Now().Before(deadline.Add(5*time.Second)) {
		time.Sleep(100 * time.Millisecond)
	}
	if Listening(st.Addr) {
		return fmt.Errorf("%s (pid %d) stopped but %s still accepts connections: another process holds it", st.Name, st.PID, st.Addr)
	}
	return nil
}

// PortFree returns an error wrapping ErrPortBusy when addr cannot be listened on.
func PortFree(addr string) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("%w (%v): stop the process that uses it (`ss -ltnp 'sport = :%s'` names it) or choose another port", ErrPortBusy, err, port(addr))
	}
	return l.Close()
}

// Listening reports whether something accepts TCP connections on addr (within 1 s).
func Listening(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

func port(addr string) string {
	_, p, _ := net.SplitHostPort(addr)
	return p
}

// Tail returns the last n lines of a file ("" when it cannot be read).
func Tail(path string, n int) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// StartAll runs start(0), …, start(n-1) at once — servers that take seconds each to come up,
// or that wait for each other (a KRaft quorum) — and returns their results in order; the
// error joins every failure (the results of those that started are returned with it, for
// the caller to stop).
func StartAll[T any](n int, start func(i int) (T, error)) ([]T, error) {
	out := make([]T, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() { defer wg.Done(); out[i], errs[i] = start(i) }()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}
