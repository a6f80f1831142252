package gemm

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dlbd/dlbd/dl/internal/cancel"
)

// gang is the shared state of the goroutines of one call: cancellation
// (dl.SetCancel) and the waits between its phases.  Every goroutine polls
// the context before each piece of work (stopped); the first to see it
// done records its error and sets stop (halt); then every loop and every
// wait gives up.  Helpers are counted in active (enter, leave), so that
// the caller's goroutine can wait until none is still writing into C
// (quiesce) before it reports.
//
// A goroutine that waits for the others (wait) spins for a while, then
// blocks until the goroutine that completes the count, or the one that
// halts the call, wakes it (arrive, halt).
type gang struct {
	stop   atomic.Bool           // the context is done: give up
	err    atomic.Pointer[error] // the context's error, stored before stop
	active atomic.Int32          // helpers between enter and leave

	sleepers atomic.Int32 // goroutines blocked (or about to block) in wait
	once     sync.Once    // sets cond.L on the first block
	mu       sync.Mutex
	cond     sync.Cond
}

// stopped reports whether the call gives up: another goroutine saw the
// context done, or this one sees it now.
func (g *gang) stopped() bool {
	if g.stop.Load() {
		return true
	}
	if err := cancel.Err(); err != nil {
		g.halt(err)
		return true
	}
	return false
}

// halt records err (unless an earlier error was recorded), makes the call
// give up, and wakes the goroutines blocked in wait.
func (g *gang) halt(err error) {
	g.err.CompareAndSwap(nil, &err)
	g.stop.Store(true)
	g.wake()
}

// enter counts a helper in and reports whether it should work.  It counts
// first and looks at stop second, so that a caller that saw stop and then
// active == 0 knows no helper can still start: one counted after that
// sees stop (Go's atomics are sequentially consistent) and does nothing.
func (g *gang) enter() bool {
	g.active.Add(1)
	return !g.stop.Load()
}

// leave counts a helper out.
func (g *gang) leave() { g.active.Add(-1) }

// quiesce waits until every helper has left (after stop was set).
func (g *gang) quiesce() {
	for i := 0; g.active.Load() > 0; i++ {
		if i%64 == 63 {
			runtime.Gosched()
		}
	}
}

// cause returns the context's error that stopped the call.
func (g *gang) cause() error { return *g.err.Load() }

// arrive adds one to *v, a count that wait(v, n) waits on, and wakes the
// blocked waiters if that completed it.
func (g *gang) arrive(v *atomic.Int32, n int32) {
	if v.Add(1) == n {
		g.wake()
	}
}

// wake wakes the goroutines blocked in wait, if any.  A waiter counts
// itself in sleepers before it looks at its count for the last time
// (under mu), so either wake sees it and broadcasts (after it is in
// cond.Wait: mu is held until then), or it sees the completed count.
func (g *gang) wake() {
	if g.sleepers.Load() > 0 {
		g.mu.Lock()
		g.cond.Broadcast()
		g.mu.Unlock()
	}
}

// wait waits until *v reaches n, and returns true, or until the call gives
// up, and returns false.  It only ever waits for work that another
// goroutine is doing right now (a chunk, a B group), so it first spins,
// yielding the P now and then to other goroutines, for up to waitSpin;
// then it blocks until arrive or halt wakes it.  Blocking matters when the
// machine has more runnable threads than cores: the goroutine waited for
// may be on a thread that the OS took off its core, and a waiter that kept
// spinning would hold a core that thread needs (measured on 2 shared
// cores: the 2-thread Transformer step of dl/nn was slower than the
// 1-thread one).  It blocks rather than sleeping in a loop: time.Sleep(5µs)
// takes ~0.6 ms here (the runtime's timers are that coarse), 40% of a
// 2-thread 1024x784x256 product.
func (g *gang) wait(v *atomic.Int32, n int32) bool {
	var start time.Time
	for i := 0; v.Load() < n; i++ {
		if i%64 != 63 {
			continue
		}
		if g.stop.Load() {
			return false
		}
		if start.IsZero() {
			start = time.Now()
		} else if time.Since(start) > waitSpin {
			return g.block(v, n)
		}
		runtime.Gosched()
	}
	return true
}

// block is wait's blocking part.
func (g *gang) block(v *atomic.Int32, n int32) bool {
	g.once.Do(func() { g.cond.L = &g.mu })
	g.mu.Lock()
	g.sleepers.Add(1)
	for v.Load() < n && !g.stop.Load() {
		g.cond.Wait()
	}
	g.sleepers.Add(-1)
	g.mu.Unlock()
	return v.Load() >= n
}

// waitSpin is how long wait spins before it blocks: a chunk of a product
// takes tens to hundreds of microseconds, and waking a blocked goroutine
// takes the OS ~50 µs here, so shorter waits are cheaper spun.
const waitSpin = 100 * time.Microsecond
