package stateful

import (
	"context"
	"sync"
	"syscall"
	"time"
)

// running is what an interrupt stops: the cell's context (builds, shell
// commands) and, while the host runs it, the host.
type running struct {
	cancel context.CancelFunc

	mu          sync.Mutex
	h           *hostProc     // set while the host runs the cell
	hostDone    chan struct{} // closed when the host has answered
	interrupted bool
	killed      bool // the host did not stop in time and was killed
}

// inHost records that h runs the cell until the returned function is called.
func (r *running) inHost(h *hostProc) (done func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.h, r.hostDone = h, make(chan struct{})
	ch := r.hostDone
	return func() {
		r.mu.Lock()
		r.h = nil
		r.mu.Unlock()
		close(ch)
	}
}

// stop ends the cell at once, for Close: its context (a build, a shell
// command) and its host, with no grace period.
func (r *running) stop() {
	r.mu.Lock()
	h := r.h
	r.mu.Unlock()
	r.cancel()
	if h != nil {
		h.p.Kill()
	}
}

// state returns whether the cell was interrupted and its host killed.
func (r *running) state() (interrupted, killed bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.interrupted, r.killed
}

// Interrupt stops the running cell: a build or shell command at once; a
// cell in the host through its context (kernel.Context, dl's long
// operations), and, when it has not stopped after the grace period, by
// killing the host (its values are lost, and the cell's result says so).
func (s *Session) Interrupt() {
	r := s.current()
	if r == nil {
		return
	}
	r.mu.Lock()
	r.interrupted = true
	h, done := r.h, r.hostDone
	r.mu.Unlock()
	r.cancel()
	if h == nil {
		return
	}
	h.p.Signal(syscall.SIGINT)
	go func() { // ends when the cell stops or its host is killed
		select {
		case <-done:
		case <-time.After(s.o.InterruptGrace):
			r.mu.Lock()
			stuck := r.h == h
			r.killed = stuck
			r.mu.Unlock()
			if stuck {
				h.p.Kill()
			}
		}
	}()
}
