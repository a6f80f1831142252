package dist

import (
	"fmt"
	"time"
	"unsafe"

	"github.com/dlbd/dlbd/dl/dist/internal/mpi"
)

// Point-to-point on the mpi backend, and the check's transport.

// The tags: a Send's tag is its element size, so that Recv can tell
// float32 from float64 messages; the check uses two tags of its own.
const (
	tagCheck   = 100
	tagVerdict = 101
)

// send copies buf and starts sending the copy (MPI_Isend): like the
// in-process Send, it returns once the message is queued, and waits only
// while p2pDepth earlier messages are still in flight.
func (b *mpiBackend) send(r *Rank, buf hostBuf, dst int) error {
	data := make([]byte, buf.bytes())
	if buf.n > 0 {
		copy(data, unsafe.Slice((*byte)(buf.p), len(data)))
	}
	var p unsafe.Pointer
	if len(data) > 0 {
		p = unsafe.Pointer(&data[0])
	}
	req, err := b.comm.Isend(p, len(data), mpi.Byte, dst, int(buf.size))
	if err != nil {
		return err
	}
	b.pending = append(b.pending, req)
	return b.reap(p2pDepth, r.g.w.timeout, dst)
}

// reap drops the finished sends and waits until at most keep are left.
func (b *mpiBackend) reap(keep int, timeout time.Duration, dst int) error {
	for {
		live := b.pending[:0]
		for _, q := range b.pending {
			ok, _, err := q.Test()
			if err != nil {
				return err
			}
			if !ok {
				live = append(live, q)
			}
		}
		clear(b.pending[len(live):])
		b.pending = live
		if len(b.pending) <= keep {
			return nil
		}
		ws := []waiter{mpiWaiter{b.pending[0]}}
		if ok, err := pollAll(ws, timeout); err != nil || !ok[0] {
			if err == nil {
				err = &TimeoutError{Group: "world", Call: "send", Missing: []int{dst}, Waited: timeout}
			}
			return err
		}
	}
}

func (b *mpiBackend) flushSends() error { return b.reap(0, 0, -1) }

// recv waits (MPI_Iprobe, abortable by the timeout) for the next message
// from src, checks its size and element type against buf, as the
// in-process Recv does, and receives it.
func (b *mpiBackend) recv(r *Rank, buf hostBuf, src int) error {
	var st mpi.Status
	start := time.Now()
	for i := 0; ; i++ {
		var ok bool
		var err error
		for _, tag := range []int{4, 8} {
			if ok, st, err = b.comm.Iprobe(src, tag); err != nil || ok {
				break
			}
		}
		if err != nil {
			return err
		}
		if ok {
			break
		}
		if t := r.g.w.timeout; t > 0 && time.Since(start) > t {
			return &TimeoutError{Group: r.g.name, Call: "recv", Missing: []int{r.g.members[src]}, Waiting: []int{r.state.world}, Waited: t}
		}
		time.Sleep(min(time.Duration(i)*time.Microsecond, time.Millisecond))
	}
	bytes, size := st.Count(mpi.Byte), int(st.Tag)
	if bytes != int(buf.bytes()) || size != int(buf.size) {
		return fmt.Errorf("dist: recv on rank %d of %s: rank %d sent %d values of %d bytes, the buffer holds %d values of %d bytes",
			r.rank, r.g.name, src, bytes/size, size, buf.n, buf.size)
	}
	_, err := b.comm.Recv(buf.p, bytes, mpi.Byte, src, size)
	return err
}

// mpiCheckNet carries the check's words over MPI point-to-point.
type mpiCheckNet struct{ b *mpiBackend }

func words(w []int64) (unsafe.Pointer, int) { return unsafe.Pointer(&w[0]), len(w) }

func (m mpiCheckNet) toRoot(_ int64, w []int64) (waiter, error) {
	p, n := words(w)
	req, err := m.b.comm.Isend(p, n, mpi.Int64, 0, tagCheck)
	return mpiWaiter{req}, err
}

func (m mpiCheckNet) fromRoot(_ int64, w []int64) (waiter, error) {
	p, n := words(w)
	req, err := m.b.comm.Irecv(p, n, mpi.Int64, 0, tagVerdict)
	return mpiWaiter{req}, err
}

func (m mpiCheckNet) fromRank(_ int64, q int, w []int64) (waiter, error) {
	p, n := words(w)
	req, err := m.b.comm.Irecv(p, n, mpi.Int64, q, tagCheck)
	return mpiWaiter{req}, err
}

func (m mpiCheckNet) toRank(_ int64, q int, w []int64) error {
	p, n := words(w)
	return m.b.comm.Send(p, n, mpi.Int64, q, tagVerdict)
}

// mpiWaiter is an MPI request as a waiter of the check.
type mpiWaiter struct{ r *mpi.Request }

func (w mpiWaiter) done() (bool, error) {
	ok, _, err := w.r.Test()
	return ok, err
}

func (w mpiWaiter) cancel() { w.r.Cancel() }
