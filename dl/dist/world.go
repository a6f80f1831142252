package dist

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// world is the state every group of one launch shares: the abort switch
// and what the deadlock watchdog needs. A failure anywhere aborts the world
// (all its groups), as torchrun tears down the whole job.
type world struct {
	n       int
	timeout time.Duration

	abortOnce sync.Once
	aborted   chan struct{} // closed by abort
	cause     error         // set before aborted is closed

	running  atomic.Bool   // inside Run
	blocked  atomic.Int32  // ranks waiting inside a dist call
	finished atomic.Int32  // ranks whose function returned
	events   atomic.Uint64 // bumped by every send, ack, arrival and exit
	waits    []waitSlot    // by world rank
}

// waitSlot says what one rank waits for, for the deadlock message.
type waitSlot struct {
	mu    sync.Mutex
	what  waitInfo
	since atomic.Int64 // UnixNano when the wait began; 0 when not waiting
}

// waitInfo describes a wait; it is formatted only if a deadlock or a
// timeout is reported, so that blocking costs no formatting.
type waitInfo struct {
	op    string // "all-reduce", "recv", ...
	g     *Group // the group of the call
	group string
	seq   int64  // collective number; -1 for point-to-point
	dir   string // "recv from", "send to", "ack from", or a shared-memory phase
	peer  int    // group rank; -1 when the wait is on all ranks
}

func (wi waitInfo) String() string {
	s := wi.op
	if wi.seq >= 0 {
		s += fmt.Sprintf(" #%d", wi.seq)
	}
	if wi.peer < 0 {
		return fmt.Sprintf("%s of %s (%s)", s, wi.group, wi.dir)
	}
	return fmt.Sprintf("%s (%s rank %d of %s)", s, wi.dir, wi.peer, wi.group)
}

func (s *waitSlot) info() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.what.String()
}

func newWorld(n int, timeout time.Duration) *world {
	return &world{n: n, timeout: timeout, aborted: make(chan struct{}), waits: make([]waitSlot, n)}
}

// abort poisons the world with cause (the first cause wins) and wakes every
// waiting rank.
func (w *world) abort(cause error) {
	w.abortOnce.Do(func() {
		w.cause = cause
		close(w.aborted)
	})
}

// isAborted reports whether abort was called.
func (w *world) isAborted() bool {
	select {
	case <-w.aborted:
		return true
	default:
		return false
	}
}

// abortErr is the error a rank gets after the abort.
func (w *world) abortErr() error {
	<-w.aborted
	return &abortedError{cause: w.cause}
}

// block and unblock bracket every wait that may sleep.
func (w *world) block(rank int, what waitInfo) {
	s := &w.waits[rank]
	s.mu.Lock()
	s.what = what
	s.mu.Unlock()
	s.since.Store(time.Now().UnixNano())
	w.blocked.Add(1)
}

func (w *world) unblock(rank int) {
	w.blocked.Add(-1)
	w.waits[rank].since.Store(0)
	w.events.Add(1)
}

// watchdog aborts the world when every running rank has been waiting
// without any progress for three checks in a row (a deadlock), or when a
// wait exceeds the timeout. It returns when stop is closed.
//
// Why three quiet checks: a rank woken by a message still counts as
// blocked until it runs again; requiring no event for 3×interval makes a
// false alarm need a scheduling delay of that length on an idle machine.
func (w *world) watchdog(stop <-chan struct{}, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	quiet, last := 0, w.events.Load()
	for {
		select {
		case <-stop:
			return
		case <-w.aborted:
			return
		case <-t.C:
		}
		if w.timeout > 0 {
			now := time.Now().UnixNano()
			for r := range w.waits {
				if since := w.waits[r].since.Load(); since != 0 && time.Duration(now-since) > w.timeout {
					w.abort(w.timeoutError(r))
					return
				}
			}
		}
		b, f, ev := w.blocked.Load(), w.finished.Load(), w.events.Load()
		if b > 0 && int(b+f) == w.n && ev == last {
			quiet++
		} else {
			quiet = 0
		}
		last = ev
		if quiet >= 3 {
			w.abort(fmt.Errorf("%w: %s", ErrDeadlock, w.describe()))
			return
		}
	}
}

// timeoutError says who world rank r waited for too long: the members of
// its group that have not entered the collective, else the peer of its
// point-to-point wait.
func (w *world) timeoutError(r int) error {
	s := &w.waits[r]
	s.mu.Lock()
	wi := s.what
	s.mu.Unlock()
	e := &TimeoutError{Group: wi.group, Call: wi.op, Waited: w.timeout}
	if wi.seq >= 0 {
		e.Call = fmt.Sprintf("%s #%d", wi.op, wi.seq)
	}
	if g := wi.g; g != nil && wi.seq >= 0 {
		g.calls.mu.Lock()
		for q, next := range g.calls.next {
			if next <= wi.seq {
				e.Missing = append(e.Missing, g.members[q])
			} else {
				e.Waiting = append(e.Waiting, g.members[q])
			}
		}
		g.calls.mu.Unlock()
	}
	if len(e.Missing) == 0 && wi.g != nil && wi.peer >= 0 {
		e.Missing, e.Waiting = []int{wi.g.members[wi.peer]}, []int{r}
	}
	if len(e.Missing) == 0 {
		return fmt.Errorf("%w: rank %d waited %v (Config.Timeout) in %s", ErrTimeout, r, w.timeout, wi)
	}
	return e
}

// describe lists what every rank is doing, for the deadlock error.
func (w *world) describe() string {
	var parts []string
	for r := range w.waits {
		if w.waits[r].since.Load() != 0 {
			parts = append(parts, fmt.Sprintf("rank %d waits in %s", r, w.waits[r].info()))
		} else {
			parts = append(parts, fmt.Sprintf("rank %d has returned", r))
		}
	}
	return strings.Join(parts, "; ")
}
