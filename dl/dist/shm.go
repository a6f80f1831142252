package dist

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/dlbd/dlbd/dl/dist/internal/reduce"
)

// The shared-memory algorithm: the ranks of a local group live in one
// address space, so nothing has to travel over a link. Once all n buffers
// are registered, the ranks claim blocks of them with an atomic counter and
// run the fused kernel on each block: load the block of all n buffers, add
// them in rank order, store the sum back into all n. Main memory sees every
// byte read once and written once: 2·n·S bytes, the floor
// t_min = 2·n·S/B. The ring moves about 5(n-1)·S bytes through memory for
// the same result (each step reads two chunks and writes one, then the
// all-gather copies), so on one machine it cannot come close.
//
// It is the in-process analogue of NCCL's NVLS algorithm, where the NVLink
// switch reads and reduces all GPUs' buffers in one pass.
//
// One round, for each rank:
//  1. arrive: register the buffer under the slot's mutex; the n-th arrival
//     makes the round ready.
//  2. work: a rank that sees the round ready claims blocks until none is
//     left. Nobody blocks inside this loop, so it always ends.
//  3. wait until every block is finished, then return: from then on nobody
//     touches the buffers again (a late worker only finds no block left).
//
// Per-call cost matters (DDP's buckets are 1–25 MiB), so a rank that waits
// first polls while blocks keep finishing, yielding the processor
// (shmSpin), and only then sleeps until the round is done: waking a
// sleeping thread costs tens of microseconds. A sleeping rank does not help with the blocks; the ranks
// that are awake do them all, and for a large round the last arrival wakes
// sleepers to help (shmHelpBytes). With GOMAXPROCS = 1 only one rank can
// run at a time anyway, so waiting ranks sleep at once and are woken once.
// The rounds' state lives in two slots reused alternately (round k+2 starts
// only after every rank has left round k), so a call allocates nothing.
//
// Course: "Data Parallelism (DP)".

const (
	// shmBlockBytes is the size of one claimed block of each buffer.
	shmBlockBytes = 64 << 10
	// shmSpin is how long a waiting rank polls, yielding the processor
	// (runtime.Gosched), without seeing a block finish before it sleeps.
	// While blocks keep finishing it polls on. A wait with no progress
	// usually means a peer's thread is not running: another program took
	// its core. Polling then would keep our thread runnable and delay the
	// peer further; sleeping gives the core back (issue 36). One yield
	// takes roughly 0.1–1 µs, one block of 2 ranks ~10–20 µs.
	shmSpin = 50 * time.Microsecond
	// shmHelpBytes: the last arrival wakes sleeping ranks to help when the
	// round moves at least this many bytes (2·n·S), enough to repay the
	// wake-up.
	shmHelpBytes = 16 << 20
)

// Round states.
const (
	shmCollecting = iota
	shmReady
	shmDone
)

// shmState is a group's shared-memory machinery.
type shmState struct {
	once   sync.Once
	slots  [2]shmRound
	rounds []int64         // per group rank: rounds it has entered
	wake   []chan struct{} // per group rank: cap 1, "look at the slot again"
}

// shmRound is one round's state, reused every other round.
type shmRound struct {
	mu        sync.Mutex
	id        int64 // round the slot holds; guarded by mu
	arrived   int   // guarded by mu
	sleepers  []int // group ranks asleep on their wake channel; guarded by mu
	b32       [][]float32
	b64       [][]float64
	ptrs      []unsafe.Pointer
	nblk      int64
	state     atomic.Int32
	next      atomic.Int64 // next unclaimed block
	completed atomic.Int64 // blocks finished
	active    atomic.Int32 // ranks inside the work loop
}

func (s *shmState) init(n int) {
	s.once.Do(func() {
		s.rounds = make([]int64, n)
		s.wake = make([]chan struct{}, n)
		for i := range s.wake {
			s.wake[i] = make(chan struct{}, 1)
		}
		for i := range s.slots {
			s.slots[i] = shmRound{id: -1, b32: make([][]float32, n), b64: make([][]float64, n), ptrs: make([]unsafe.Pointer, n)}
		}
	})
}

// bufsOf returns the slot's buffer table for element type T.
func bufsOf[T Float](rd *shmRound) [][]T {
	if unsafe.Sizeof(T(0)) == 4 {
		return *(*[][]T)(unsafe.Pointer(&rd.b32))
	}
	return *(*[][]T)(unsafe.Pointer(&rd.b64))
}

// shmAllReduce reduces buf in place across the group with the fused kernel.
func shmAllReduce[T Float](c *call, buf []T, op Op) error {
	r := c.r
	w, s, n, me := r.g.w, &r.g.shm, r.Size(), r.rank
	s.init(n)
	id := s.rounds[me]
	s.rounds[me]++
	rd := &s.slots[id%2]
	bufs := bufsOf[T](rd)
	procs := runtime.GOMAXPROCS(0)

	// 1. arrive
	rd.mu.Lock()
	if w.isAborted() {
		rd.mu.Unlock()
		return w.abortErr()
	}
	if rd.id != id { // first arrival: every rank has left round id-2
		rd.id, rd.arrived, rd.sleepers = id, 0, rd.sleepers[:0]
		rd.next.Store(0)
		rd.completed.Store(0)
		rd.state.Store(shmCollecting)
	}
	bufs[me] = buf
	if len(buf) > 0 {
		rd.ptrs[me] = unsafe.Pointer(&buf[0])
	}
	rd.arrived++
	last := rd.arrived == n
	if last {
		blk := shmBlockBytes / int(unsafe.Sizeof(T(0)))
		rd.nblk = int64((len(buf) + blk - 1) / blk)
		if n == 1 {
			rd.nblk = 0 // sum and mean of one buffer are the buffer
		}
		rd.state.Store(shmReady)
		if procs > 1 && 2*int64(n)*bytesOf(buf) >= shmHelpBytes {
			rd.wakeLocked(s, procs-1)
		}
	}
	rd.mu.Unlock()
	w.events.Add(1)

	if last && rd.nblk == 0 {
		shmFinish(c, rd, bytesOf(buf))
	}

	// 2. work, unless we would have to sleep until the round is ready
	if last || (procs > 1 && spin(rd, shmReady)) {
		shmWork(c, rd, bufs, op)
	}
	// 3. wait for the last block
	err := shmWaitDone(c, rd, bufs, op, procs)
	if err == nil {
		// Every block is done, so nobody reads our entry any more; drop it
		// so that the slot does not keep the caller's buffer alive.
		bufs[me], rd.ptrs[me] = nil, nil
	}
	return err
}

// shmWork claims blocks until none is left (or the world aborts); the rank
// that completes the last block finishes the round.
func shmWork[T Float](c *call, rd *shmRound, bufs [][]T, op Op) {
	w, n := c.r.g.w, c.r.Size()
	kop, div := op.kernel(n)
	blk := shmBlockBytes / int(unsafe.Sizeof(T(0)))
	l := len(bufs[c.r.rank])
	rd.active.Add(1)
	defer rd.active.Add(-1)
	for !w.isAborted() { // checked after active.Add: see shmWaitDone
		b := rd.next.Add(1) - 1
		if b >= rd.nblk {
			return
		}
		off := int(b) * blk
		reduce.Fused(bufs, rd.ptrs, off, min(blk, l-off), kop, T(div))
		if rd.completed.Add(1) == rd.nblk {
			shmFinish(c, rd, int64(l)*int64(unsafe.Sizeof(T(0))))
		}
	}
}

// shmFinish marks the round done, wakes the sleepers and records it.
func shmFinish(c *call, rd *shmRound, bytes int64) {
	n := c.r.Size()
	rd.mu.Lock()
	rd.state.Store(shmDone)
	rd.wakeLocked(&c.r.g.shm, n)
	rd.mu.Unlock()
	c.r.g.log.add(Record{Seq: c.seq, Collective: "all-reduce", Algorithm: SharedMemory, Ranks: n,
		Bytes: bytes, Steps: 1, MemoryBytes: 2 * int64(n) * bytes})
}

// wakeLocked wakes up to k sleepers (rd.mu held).
func (rd *shmRound) wakeLocked(s *shmState, k int) {
	for k > 0 && len(rd.sleepers) > 0 {
		q := rd.sleepers[len(rd.sleepers)-1]
		rd.sleepers = rd.sleepers[:len(rd.sleepers)-1]
		select {
		case s.wake[q] <- struct{}{}:
		default: // a token is already pending
		}
		k--
	}
}

// shmWaitDone returns once every block is finished. A rank woken to help
// works first. After an abort it returns once no rank is inside the work
// loop, so that nobody touches the buffers after their owners returned (a
// worker checks the abort after announcing itself in active, so either we
// see it there or it sees the abort before touching anything).
func shmWaitDone[T Float](c *call, rd *shmRound, bufs [][]T, op Op, procs int) error {
	r := c.r
	w, s, me := r.g.w, &r.g.shm, r.rank
	for rd.state.Load() != shmDone {
		if procs > 1 && spin(rd, shmDone) {
			break
		}
		rd.mu.Lock()
		if rd.state.Load() == shmDone {
			rd.mu.Unlock()
			break
		}
		rd.sleepers = append(rd.sleepers, me)
		rd.mu.Unlock()
		w.block(r.state.world, r.waitOn("all-reduce", c.seq, "shared-memory: waiting for the other ranks", -1))
		select {
		case <-s.wake[me]:
			w.unblock(r.state.world)
			if rd.state.Load() == shmReady {
				shmWork(c, rd, bufs, op) // woken to help
			}
		case <-w.aborted:
			w.unblock(r.state.world)
			for rd.active.Load() > 0 {
				runtime.Gosched()
			}
			if rd.state.Load() != shmDone {
				return w.abortErr()
			}
		}
	}
	w.events.Add(1)
	return nil
}

// spin yields the processor while the round's state is below want, until
// shmSpin passes without a block finishing, and reports whether the state
// got there.
func spin(rd *shmRound, want int32) bool {
	last, since := rd.completed.Load(), time.Now()
	for i := 1; ; i++ {
		if rd.state.Load() >= want {
			return true
		}
		runtime.Gosched()
		if i%8 == 0 { // the clock costs more than a poll
			if c := rd.completed.Load(); c != last {
				last, since = c, time.Now()
			} else if time.Since(since) > shmSpin {
				return rd.state.Load() >= want
			}
		}
	}
}

// bytesOf returns the size of buf in bytes.
func bytesOf[T Float](buf []T) int64 { return int64(len(buf)) * int64(unsafe.Sizeof(T(0))) }
