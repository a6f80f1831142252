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

// worker is a goroutine that runs tasks handed to it by parallel.  Workers
// are started on first use and live for the life of the process: they
// spin for spinFor after each task, then park on their wake channel.
type worker struct {
	task   atomic.Pointer[func()]
	parked atomic.Bool
	wake   chan struct{} // capacity 1: a wake-up is never lost
}

var (
	poolMu  sync.Mutex
	workers []*worker
	busy    []bool // workers handed out to a running parallel call
)

func (w *worker) loop() {
	for {
		deadline := time.Now().Add(spinFor)
		for spins := 0; ; spins++ {
			if t := w.task.Swap(nil); t != nil {
				(*t)()
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
		if t := w.task.Swap(nil); t != nil {
			w.parked.Store(false)
			(*t)()
			continue
		}
		<-w.wake
		w.parked.Store(false)
	}
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
	for i := range workers {
		if len(out) < n && !busy[i] {
			busy[i] = true
			out = append(out, workers[i])
		}
	}
	for len(out) < n {
		w := &worker{wake: make(chan struct{}, 1)}
		go w.loop()
		workers = append(workers, w)
		busy = append(busy, true)
		out = append(out, w)
	}
	return out
}

func release(ws []*worker) {
	poolMu.Lock()
	defer poolMu.Unlock()
	for _, w := range ws {
		for i := range workers {
			if workers[i] == w {
				busy[i] = false
			}
		}
	}
}

// parallel runs fn(0) on the calling goroutine and fn(1), ..., fn(nt-1)
// on pool workers, and returns when all have returned.  A worker that has
// not started by the time fn(0) returns does not run its fn at all: fn
// must be written so that any subset of 0..nt-1 that includes 0 does the
// whole work (job.run is: its goroutines take work from shared counters).
func parallel(nt int, fn func(t int)) {
	ws := acquire(nt - 1)
	var wg sync.WaitGroup
	wg.Add(nt - 1)
	tasks := make([]*func(), len(ws))
	for i, w := range ws {
		t := func() {
			defer wg.Done()
			fn(i + 1)
		}
		tasks[i] = &t
		w.submit(&t)
	}
	fn(0)
	// A worker that has not picked its task up yet would find no work
	// left: take the task back instead of waiting for it to wake up.
	for i, w := range ws {
		if w.task.CompareAndSwap(tasks[i], nil) {
			wg.Done()
		}
	}
	wg.Wait()
	release(ws)
}
