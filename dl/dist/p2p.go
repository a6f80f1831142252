package dist

import (
	"fmt"
	"unsafe"
)

// Send sends a copy of buf to group rank dst, like torch.distributed.send.
// It returns once the copy is queued on the link (buf may be reused at
// once); it waits while p2pDepth earlier messages are still unreceived.
// Messages between two ranks arrive in the order they were sent.
//
// Course: "Pipeline Parallelism (PP)": stages pass activations forward and
// gradients backward with Send and Recv.
func Send[T Float](r *Rank, buf []T, dst int) error {
	const name = "send"
	if err := r.checkPeer(name, dst, "destination"); err != nil {
		return err
	}
	if dst == r.rank {
		return fmt.Errorf("dist: %s on rank %d: cannot send to itself", name, r.rank)
	}
	if err := r.fence(); err != nil {
		return err
	}
	if r.g.w.isAborted() {
		return opError(name, r.rank, r.g.w.abortErr())
	}
	if be := r.g.be; be != nil {
		return r.p2pErr(name, be.send(r, bufOf(buf), dst))
	}
	m := viewOf(append([]T(nil), buf...))
	m.seq = -1
	l := r.g.links.get(r.rank, dst)
	l.count(m.bytes())
	if err := waitSend(r, l.p2p, m, r.waitOn(name, -1, "send to", dst)); err != nil {
		return opError(name, r.rank, err)
	}
	return nil
}

// Recv receives the next message from group rank src into buf, like
// torch.distributed.recv. The message must have exactly len(buf) elements
// of buf's type; otherwise the group is aborted (the sender's program and
// the receiver's disagree) and the error says both sizes.
func Recv[T Float](r *Rank, buf []T, src int) error {
	const name = "recv"
	if err := r.checkPeer(name, src, "source"); err != nil {
		return err
	}
	if src == r.rank {
		return fmt.Errorf("dist: %s on rank %d: cannot receive from itself", name, r.rank)
	}
	if err := r.fence(); err != nil {
		return err
	}
	if r.g.w.isAborted() {
		return opError(name, r.rank, r.g.w.abortErr())
	}
	if be := r.g.be; be != nil {
		return r.p2pErr(name, be.recv(r, bufOf(buf), src))
	}
	l := r.g.links.get(src, r.rank)
	m, err := waitRecv(r, l.p2p, r.waitOn(name, -1, "recv from", src))
	if err != nil {
		return opError(name, r.rank, err)
	}
	if size := unsafe.Sizeof(T(0)); m.n != len(buf) || m.size != size {
		err := fmt.Errorf("dist: %s on rank %d of %s: rank %d sent %d values of %d bytes, the buffer holds %d values of %d bytes",
			name, r.rank, r.g.name, src, m.n, m.size, len(buf), size)
		r.g.w.abort(err)
		return err
	}
	copy(buf, sliceOf[T](m))
	return nil
}

// Barrier returns once every rank of the group has called it, like
// torch.distributed.barrier. It is the dissemination barrier (Hensgen,
// Finkel & Manber 1988): in round k every rank sends an empty message to
// rank+2^k and waits for the one from rank-2^k, ⌈log₂ n⌉ rounds in all.
func (r *Rank) Barrier() error {
	if err := r.fence(); err != nil {
		return err
	}
	return r.barrier()
}

func (r *Rank) barrier() error {
	c, err := r.begin(desc{kind: "barrier"})
	if err != nil {
		return err
	}
	if r.g.be != nil {
		return c.viaBackend(func(be backend) error { return be.barrier(c) })
	}
	n := r.Size()
	for k, d := 0, 1; d < n; k, d = k+1, d<<1 {
		if err := send(c, mod(r.rank+d, n), []float32(nil), Transfer{Step: k, Chunk: -1, Phase: "barrier"}); err != nil {
			return c.fail(err)
		}
		if _, err := recv[float32](c, mod(r.rank-d, n), 0); err != nil {
			return c.fail(err)
		}
	}
	// Record.Algorithm stays Auto: a barrier has only one algorithm.
	if err := c.finish(Record{Ranks: n, Steps: treeSteps(n)}); err != nil {
		return c.fail(err)
	}
	return nil
}

// p2pErr aborts the world on a point-to-point error of a process backend
// (a size mismatch, a timeout: the programs disagree) and names the call.
func (r *Rank) p2pErr(op string, err error) error {
	if err == nil {
		return nil
	}
	r.g.w.abort(err)
	return opError(op, r.rank, err)
}
