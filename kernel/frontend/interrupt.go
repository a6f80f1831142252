package frontend

import (
	"syscall"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/proc"
)

// How the front end sees an interrupt of a process-mode cell through
// (stopCell).
const (
	// interruptGrace is how long GoNB has to stop the interrupted cell
	// before the front end sends the SIGINT itself.
	interruptGrace = time.Second
	// interruptPoll is how often the front end looks for the cell's
	// process after interruptGrace, while the cell has not ended.
	interruptPoll = 200 * time.Millisecond
	// interruptKill is how long a cell's process has between its SIGINT
	// and SIGKILL: GoNB's own (jpyexec.WaitToKill in v0.11.4).
	interruptKill = 5 * time.Second
)

// kernelTools are the programs GoNB runs for itself on Linux (go build,
// go get, goimports, gopls): an interrupt is not for them. Every other
// child of GoNB runs a cell: its program, or a shell command.
var kernelTools = map[string]bool{"go": true, "gopls": true, "goimports": true}

// interrupt takes an interrupt_request and reports whether GoNB is to
// answer it: in the process mode GoNB runs the cells, and the request goes
// to GoNB, while the front end sees it through (stopCell). In the stateful
// mode the front end answers it: interrupt stops the running cell, if
// there is one.
func (e *execute) interrupt() (forward bool) {
	e.mu.Lock()
	var running *forwarded
	for _, f := range e.fwd {
		select {
		case <-f.done: // answered; kept only until its idle status
		default:
			running = f
		}
	}
	watch := running != nil && !running.watched && e.s.kernelPID != 0
	if watch {
		running.watched = true
	}
	e.mu.Unlock()
	if watch {
		go stopCell(e.s.kernelPID, running.done, e.quit, e.s.log.Printf)
	}
	if running != nil || e.currentMode() == ModeProcess {
		return true
	}
	if e.running.Load() {
		e.ex.Interrupt()
	}
	return false
}

// stopCell makes sure that an interrupt_request forwarded to GoNB (process
// id kernel) stops the cell that ran then, whose reply closes done. GoNB
// v0.11.4 signals a cell's process from a handler that it subscribes only
// after it has started the process (jpyexec.Exec): a request that arrives
// in between, or while the cell compiles, is answered "ok" and lost, and
// the cell runs on. So while the cell has not ended interruptGrace after
// the request, each child of GoNB that is not one of its tools gets the
// SIGINT GoNB would have sent, and SIGKILL if it still runs interruptKill
// later, as GoNB does. GoNB runs one cell at a time and replies once its
// processes have ended, so a child found before done closes is this
// cell's. A cell that GoNB did interrupt and that is still stopping (one
// that watches kernel.Context) gets a second SIGINT, which such a cell
// ignores. stopCell returns when done or quit closes.
func stopCell(kernel int, done, quit <-chan struct{}, logf func(string, ...any)) {
	type id struct {
		pid   int
		start uint64
	}
	interrupted := map[id]time.Time{} // when each got SIGINT; the zero time once it got SIGKILL
	wait := time.NewTimer(interruptGrace)
	defer wait.Stop()
	for {
		select {
		case <-done:
			return
		case <-quit:
			return
		case <-wait.C:
		}
		kids, err := proc.Children(kernel)
		if err != nil { // no /proc: GoNB's own handler is all there is
			return
		}
		for _, k := range kids {
			if kernelTools[k.Comm] {
				continue
			}
			select {
			case <-done:
				return
			default:
			}
			key := id{k.PID, k.StartTime}
			at, seen := interrupted[key]
			switch {
			case !seen:
				interrupted[key] = time.Now()
				logf("interrupt: the cell's process %v still runs %v or more after interrupt_request: sending it SIGINT", k, interruptGrace)
				syscall.Kill(k.PID, syscall.SIGINT)
			case !at.IsZero() && time.Since(at) >= interruptKill:
				interrupted[key] = time.Time{}
				logf("interrupt: the cell's process %v still runs %v after its SIGINT: killing it", k, interruptKill)
				syscall.Kill(k.PID, syscall.SIGKILL)
			}
		}
		wait.Reset(interruptPoll)
	}
}
