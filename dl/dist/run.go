package dist

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"
)

// watchdogInterval is how often Run's watchdog looks for deadlocks and
// timeouts; a deadlock is reported after three quiet checks.
const watchdogInterval = 100 * time.Millisecond

// abortGrace is how long Run waits, after the group was aborted, for ranks
// that are not inside a dist call (they learn of the abort only at their
// next one) before it returns without them.
const abortGrace = time.Second

// Run starts n ranks of a new local group, like torchrun
// --nproc_per_node=n: each is a goroutine that calls fn with its *Rank. It
// returns when every rank has returned; see Group.Run for errors.
func Run(n int, fn func(r *Rank) error) error {
	g, err := New(Config{WorldSize: n})
	if err != nil {
		return err
	}
	return g.Run(fn)
}

// Run starts one goroutine per rank of the world group g, each calling fn
// with its *Rank, and waits for all of them (and for their pending async
// operations).
//
// A rank that returns an error or panics aborts the group at once: every
// other rank waiting in (or later calling) a dist operation gets an error
// wrapping ErrAborted, so nobody deadlocks. Run then returns a *RankError
// naming the first rank that failed and its cause. If the group was aborted
// for another reason (a collective mismatch, a deadlock, Config.Timeout,
// Group.Abort) Run returns an error wrapping ErrAborted and that cause.
//
// After an abort Run waits at most abortGrace (1 s) for the ranks that are
// busy outside dist: a rank that hangs (an endless loop, a blocked channel)
// cannot be stopped from outside in Go, so Run returns without it, and its
// goroutine ends at its next dist call, which returns the abort. With the
// default Config.Timeout, a hung rank thus makes Run return after about
// DefaultTimeout with a *TimeoutError naming it.
//
// Run can be called again on a group that did not fail; it is an error to
// call it on a sub-group or while it is running.
func (g *Group) Run(fn func(r *Rank) error) error {
	if !g.isWorld {
		return fmt.Errorf("dist: Run on sub-group %s: only the world group made by New can be run", g.name)
	}
	if !g.runMu.TryLock() {
		return fmt.Errorf("dist: Run on a group that is already running")
	}
	defer g.runMu.Unlock()
	if err := g.Err(); err != nil {
		return err
	}
	if g.be != nil {
		return g.runProcess(fn)
	}
	w := g.w
	w.finished.Store(0)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // exits when stop is closed or the world aborts
		defer wg.Done()
		w.watchdog(stop, watchdogInterval)
	}()
	var ranks sync.WaitGroup
	for _, r := range g.ranks {
		ranks.Add(1)
		go func() { // exits when fn returns and r's async queue is drained
			defer ranks.Done()
			if err := runRank(r, fn); err != nil {
				w.abort(err) // no-op when err is a consequence of an earlier abort
			}
			w.finished.Add(1)
			w.events.Add(1)
		}()
	}
	all := make(chan struct{})
	go func() { ranks.Wait(); close(all) }() // exits when the last rank does
	select {
	case <-all:
	case <-w.aborted:
		select {
		case <-all:
		case <-time.After(abortGrace):
		}
	}
	close(stop)
	wg.Wait()
	if !w.isAborted() {
		return nil
	}
	var re *RankError
	if errors.As(w.cause, &re) && re == w.cause {
		return re
	}
	return fmt.Errorf("dist: %w", &abortedError{cause: w.cause})
}

// runRank calls fn for one rank, turns a panic into a *RankError and waits
// for the rank's async operations.
func runRank(r *Rank, fn func(r *Rank) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			e, _ := p.(error)
			err = &RankError{Rank: r.state.world, Err: e, Panic: p, Stack: debug.Stack()}
		}
		if qerr := r.state.drain(); err == nil && qerr != nil {
			err = qerr
		}
	}()
	if e := fn(r); e != nil {
		if errors.Is(e, ErrAborted) {
			return e // a consequence: the cause is already recorded
		}
		return &RankError{Rank: r.state.world, Err: e}
	}
	return nil
}
