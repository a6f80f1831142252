package gemm

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// spinFor is how long an idle worker keeps polling for the next task
// before it parks.  Waking a parked goroutine on another core takes the
// OS scheduler tens of microseconds, as long as a whole 256x256 product
// takes on two cores; a training loop calls GEMM again within that time.
// OpenBLAS's threads spin the same way (and longer) after each call.
const spinFor = 200 * time.Microsecond

// worker is a goroutine that runs tasks handed to it by goParallel.
// Workers are started on first use and live for the life of the process:
// they spin for spinFor after each task, then park on their wake channel.
type worker struct {
	task   atomic.Pointer[func()]
	parked atomic.Bool
	busy   atomic.Bool   // handed out by acquire, until its task ran or was taken back
	wake   chan struct{} // capacity 1: a wake-up is never lost
}

var (
	poolMu  sync.Mutex
	workers []*worker
)

func (w *worker) loop() {
	for {
		deadline := time.Now().Add(spinFor)
		for spins := 0; ; spins++ {
			if w.runTask() {
				deadline = time.Now().Add(spinFor)
				continue
			}
			if spins%64 == 0 && time.Now().After(deadline) {
				break
			}
			runtime.Gosched() // let other goroutines have this P
		}
		// Park: announce it, then look once more, so a task stored just
		// before parked became visible is not missed.
		w.parked.Store(true)
		if w.runTask() {
			w.parked.Store(false)
			continue
		}
		<-w.wake
		w.parked.Store(false)
	}
}

// runTask runs the pending task, if any, and frees the worker.
func (w *worker) runTask() bool {
	t := w.task.Swap(nil)
	if t == nil {
		return false
	}
	(*t)()
	w.busy.Store(false)
	return true
}

func (w *worker) submit(t *func()) {
	w.task.Store(t)
	if w.parked.Load() {
		select {
		case w.wake <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
}

// acquire hands out n idle workers, starting new ones as needed.
func acquire(n int) []*worker {
	poolMu.Lock()
	defer poolMu.Unlock()
	var out []*worker
	// Spinning workers first: waking a parked one costs the OS tens of
	// microseconds.  (A training loop's next call often comes while the
	// last call's helper is still leaving it, so another worker, idle
	// for longer, is the one free.)
	for _, parked := range [2]bool{false, true} {
		for _, w := range workers {
			if len(out) < n && w.parked.Load() == parked && w.busy.CompareAndSwap(false, true) {
				out = append(out, w)
			}
		}
	}
	for len(out) < n {
		w := &worker{wake: make(chan struct{}, 1)}
		w.busy.Store(true)
		go w.loop()
		workers = append(workers, w)
		out = append(out, w)
	}
	return out
}

// goParallel runs task on n pool workers while the calling goroutine runs
// own, and returns when own returns, without waiting for the workers: the
// caller must track completion itself (job.run waits for every chunk).
// A worker that has not started by then does not run task at all, so
// task must be written so that own alone can do the whole work.
func goParallel(n int, task, own func()) {
	ws := acquire(n)
	tasks := make([]*func(), n)
	for i, w := range ws {
		t := task
		tasks[i] = &t
		w.submit(&t)
	}
	own()
	for i, w := range ws {
		if w.task.CompareAndSwap(tasks[i], nil) {
			w.busy.Store(false) // taken back before it started
		}
	}
}
