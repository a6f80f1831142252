package dist

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/dlbd/dlbd/dl/dist/internal/reduce"
)

// The shared-memory algorithm: the ranks of a local group live in one
// address space, so nothing has to travel over a link. Once all n buffers
// are registered, the ranks (whichever goroutines the Go scheduler runs,
// effectively one worker per core) claim blocks of the buffers with an
// atomic counter and run the fused kernel on each: load the block of all n
// buffers, add them in rank order, store the sum back into all n. Main
// memory sees every byte read once and written once: 2·n·S bytes, the floor
// t_min = 2·n·S/B. The ring moves about 5(n-1)·S bytes through memory for
// the same result (each step reads two chunks and writes one, then the
// all-gather copies), so on one machine it cannot come close.
//
// It is the in-process analogue of NCCL's NVLS algorithm, where the NVLink
// switch reads and reduces all GPUs' buffers in one pass.
//
// A round has three phases:
//  1. arrive: register the buffer under the mutex; the n-th arrival makes
//     the round ready. Waiting ranks spin a little, then sleep (abortable).
//  2. work: claim blocks until none is left. Nobody blocks here, so the
//     phase always ends.
//  3. leave: wait until every rank has left the work loop. So on return no
//     goroutine touches any buffer of the round, even after an abort.
//
// Course: "Data Parallelism (DP)".

// shmBlockBytes is the size of one claimed block of each buffer.
const shmBlockBytes = 64 << 10

// shmSpin is how long a waiting rank polls (yielding the processor) before
// it sleeps: waking a sleeping thread costs tens of microseconds.
const shmSpin = 50 * time.Microsecond

// shmState is a group's shared-memory machinery: the round that is
// collecting arrivals.
type shmState struct {
	mu  sync.Mutex
	cur *shmRound // guarded by mu
}

type shmRound struct {
	bufs    any // [][]T, by group rank
	ptrs    []unsafe.Pointer
	arrived int  // guarded by shmState.mu
	isReady bool // guarded by shmState.mu
	readyF  atomic.Bool
	ready   chan struct{}
	next    atomic.Int64 // next unclaimed block
	exited  atomic.Int32
	doneF   atomic.Bool
	done    chan struct{}
	broke   atomic.Bool // a worker stopped early because of an abort
}

// shmAllReduce reduces buf in place across the group with the fused kernel.
func shmAllReduce[T Float](c *call, buf []T, op Op) error {
	r := c.r
	w, s, n := r.g.w, &r.g.shm, r.Size()

	// 1. arrive
	s.mu.Lock()
	if w.isAborted() {
		s.mu.Unlock()
		return w.abortErr()
	}
	rd := s.cur
	if rd == nil {
		rd = &shmRound{bufs: make([][]T, n), ptrs: make([]unsafe.Pointer, n), ready: make(chan struct{}), done: make(chan struct{})}
		s.cur = rd
	}
	bufs := rd.bufs.([][]T)
	bufs[r.rank] = buf
	if len(buf) > 0 {
		rd.ptrs[r.rank] = unsafe.Pointer(&buf[0])
	}
	rd.arrived++
	if rd.arrived == n {
		s.cur = nil
		rd.isReady = true
		rd.readyF.Store(true)
		close(rd.ready)
	}
	s.mu.Unlock()
	w.events.Add(1)
	if !spinUntil(&rd.readyF) {
		w.block(r.state.world, func() string { return shmWait(r, c.seq, "the other ranks to arrive") })
		select {
		case <-rd.ready:
		case <-w.aborted:
			s.mu.Lock()
			if !rd.isReady { // the round can never start: withdraw
				bufs[r.rank], rd.ptrs[r.rank] = nil, nil
				rd.arrived--
				s.mu.Unlock()
				w.unblock(r.state.world)
				return w.abortErr()
			}
			s.mu.Unlock() // it started: we must take part in the exit count
		}
		w.unblock(r.state.world)
	}

	// 2. work
	if n > 1 && len(buf) > 0 {
		kop, div := op.kernel(n)
		blk := shmBlockBytes / int(unsafe.Sizeof(T(0)))
		nblk := int64((len(buf) + blk - 1) / blk)
		for {
			if w.isAborted() {
				rd.broke.Store(true)
				break
			}
			b := rd.next.Add(1) - 1
			if b >= nblk {
				break
			}
			off := int(b) * blk
			reduce.Fused(bufs, rd.ptrs, off, min(blk, len(buf)-off), kop, T(div))
		}
	}

	// 3. leave
	if int(rd.exited.Add(1)) == n {
		rd.doneF.Store(true)
		close(rd.done)
		r.g.log.add(Record{Seq: c.seq, Collective: "all-reduce", Algorithm: SharedMemory, Ranks: n,
			Bytes: bytesOf(buf), Steps: 1, MemoryBytes: 2 * int64(n) * bytesOf(buf)})
	} else if !spinUntil(&rd.doneF) {
		w.block(r.state.world, func() string { return shmWait(r, c.seq, "the other ranks to finish their blocks") })
		<-rd.done // not abortable: the others are in the work loop, which always ends
		w.unblock(r.state.world)
	}
	w.events.Add(1)
	if rd.broke.Load() {
		return w.abortErr()
	}
	return nil
}

// spinUntil polls f for up to shmSpin, yielding the processor between
// polls, and reports whether f became true. With one P the ranks we wait
// for run only when we yield, and sleeping yields as well, so it gives up
// at once.
func spinUntil(f *atomic.Bool) bool {
	if f.Load() {
		return true
	}
	if runtime.GOMAXPROCS(0) == 1 {
		return false
	}
	deadline := time.Now().Add(shmSpin)
	for i := 0; ; i++ {
		runtime.Gosched()
		if f.Load() {
			return true
		}
		if i&15 == 15 && time.Now().After(deadline) {
			return false
		}
	}
}

// bytesOf returns the size of buf in bytes.
func bytesOf[T Float](buf []T) int64 { return int64(len(buf)) * int64(unsafe.Sizeof(T(0))) }

func shmWait(r *Rank, seq int64, what string) string {
	return fmt.Sprintf("all-reduce #%d of %s (shared-memory: waiting for %s)", seq, r.g.name, what)
}
