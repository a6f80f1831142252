package dist

import (
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Work is the handle of an asynchronous operation, like the Work object
// torch.distributed returns with async_op=True.
type Work struct {
	done chan struct{}
	err  error
}

// Wait blocks until the operation has finished and returns its error. The
// buffers given to the operation must not be touched before Wait returns.
func (w *Work) Wait() error {
	<-w.done
	return w.err
}

// IsCompleted reports whether the operation has finished, without
// blocking (torch's is_completed).
func (w *Work) IsCompleted() bool {
	select {
	case <-w.done:
		return true
	default:
		return false
	}
}

// queue runs one rank's async operations one after the other, in issue
// order, on one goroutine (like the communication stream of a NCCL
// communicator): collectives must happen in the same order on every rank,
// so two async calls may not overtake each other. The goroutine starts
// with the first operation and exits when the rank's function has returned
// and the queue is empty (drain).
type queue struct {
	mu      sync.Mutex
	items   []func()
	wake    chan struct{} // cap 1: "items changed or closing"
	closing bool
	exited  chan struct{}
	pending atomic.Int64 // submitted and not finished
	err     error        // first error of an operation nobody may Wait on
}

// submit queues f on r's rank and returns its handle.
func (r *Rank) submit(f func() error) *Work {
	st := r.state
	if st.queue == nil {
		st.queue = &queue{wake: make(chan struct{}, 1), exited: make(chan struct{})}
		go st.queue.loop() // exits in drain
	}
	q := st.queue
	wk := &Work{done: make(chan struct{})}
	q.pending.Add(1)
	item := func() {
		defer func() {
			if p := recover(); p != nil {
				e, _ := p.(error)
				wk.err = &RankError{Rank: st.world, Err: e, Panic: p, Stack: debug.Stack()}
				r.g.w.abort(wk.err)
			}
			q.mu.Lock()
			if wk.err != nil && q.err == nil {
				q.err = wk.err
			}
			q.mu.Unlock()
			q.pending.Add(-1)
			close(wk.done)
		}()
		wk.err = f()
	}
	q.mu.Lock()
	q.items = append(q.items, item)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return wk
}

func (q *queue) loop() {
	defer close(q.exited)
	for {
		q.mu.Lock()
		if len(q.items) == 0 {
			closing := q.closing
			q.mu.Unlock()
			if closing {
				return
			}
			<-q.wake
			continue
		}
		f := q.items[0]
		q.items = q.items[1:]
		q.mu.Unlock()
		f()
	}
}

// fence waits until the rank's async operations have finished, so that a
// synchronous call keeps its place in the order; it returns the group's
// error if it was aborted meanwhile.
func (r *Rank) fence() error {
	q := r.state.queue
	if q == nil || q.pending.Load() == 0 {
		return nil
	}
	w := r.submit(func() error { return nil })
	<-w.done
	if err := r.g.Err(); err != nil {
		return fmt.Errorf("dist: rank %d: %w", r.rank, err)
	}
	return nil
}

// drain stops the rank's queue after its pending operations and returns
// the first error among them.
func (st *rankState) drain() error {
	q := st.queue
	if q == nil {
		return nil
	}
	q.mu.Lock()
	q.closing = true
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
	<-q.exited
	st.queue = nil
	return q.err
}

// AllReduceAsync is AllReduce run in the background; see Work.
func AllReduceAsync[T Float](r *Rank, buf []T, op Op) *Work {
	return r.submit(func() error { return allReduce(r, buf, op) })
}

// BroadcastAsync is Broadcast run in the background.
func BroadcastAsync[T Float](r *Rank, buf []T, root int) *Work {
	return r.submit(func() error { return broadcast(r, buf, root) })
}

// ReduceAsync is Reduce run in the background.
func ReduceAsync[T Float](r *Rank, buf []T, root int, op Op) *Work {
	return r.submit(func() error { return reduceTo(r, buf, root, op) })
}

// ReduceScatterAsync is ReduceScatter run in the background.
func ReduceScatterAsync[T Float](r *Rank, out, in []T, op Op) *Work {
	return r.submit(func() error { return reduceScatter(r, out, in, op) })
}

// AllGatherAsync is AllGather run in the background.
func AllGatherAsync[T Float](r *Rank, out, in []T) *Work {
	return r.submit(func() error { return allGather(r, out, in) })
}
