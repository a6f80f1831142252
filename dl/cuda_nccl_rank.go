package dl

import (
	"fmt"

	"github.com/dlbd/dlbd/dl/internal/cuda"
)

// NCCLUniqueID identifies a multi-process NCCL communicator: rank 0 makes
// it (NewNCCLUniqueID) and every process passes the same bytes to
// NewNCCLCommRank, after sending them over some other channel (dist uses
// the launcher's rendezvous store), as ncclUniqueId.
type NCCLUniqueID [128]byte

// NewNCCLUniqueID makes the id of a new communicator (ncclGetUniqueId).
func NewNCCLUniqueID() (NCCLUniqueID, error) {
	id, err := cuda.GetUniqueID()
	if err != nil {
		return NCCLUniqueID{}, fmt.Errorf("dl: NewNCCLUniqueID: %w", err)
	}
	return NCCLUniqueID(id.Internal), nil
}

// NewNCCLCommRank joins rank rank of an nranks communicator with this
// process's GPU dev, like ncclCommInitRank: one process per GPU, all with
// the same id. It returns once every rank has joined.
func NewNCCLCommRank(dev Device, id NCCLUniqueID, rank, nranks int) (*NCCLComm, error) {
	if dev.Kind() != CUDAKind {
		return nil, fmt.Errorf("dl: NewNCCLCommRank: rank %d is on %v, not a CUDA device", rank, dev)
	}
	if rank < 0 || rank >= nranks {
		return nil, fmt.Errorf("dl: NewNCCLCommRank: rank %d out of range [0, %d)", rank, nranks)
	}
	ctx, err := cuda.Primary(dev.Index())
	if err != nil {
		return nil, fmt.Errorf("dl: NewNCCLCommRank: rank %d: %w", rank, err)
	}
	cm, err := cuda.CommInitRank(ctx, cuda.UniqueID{Internal: id}, rank, nranks)
	if err != nil {
		return nil, fmt.Errorf("dl: NewNCCLCommRank(%v, rank %d/%d): %w", dev, rank, nranks, err)
	}
	return &NCCLComm{devs: []Device{dev}, comms: []*cuda.Comm{cm}, ranks: []int{rank}, size: nranks}, nil
}

// Abort ends pending operations and frees the communicators
// (ncclCommAbort), after another rank failed.
func (c *NCCLComm) Abort() error {
	var first error
	for _, cm := range c.comms {
		if err := cm.Abort(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Reduce leaves the op-reduction of every rank's t in root's t; the other
// ranks' t are unchanged (ncclReduce, in place on root).
func (c *NCCLComm) Reduce(rank int, t *Tensor, root int, op NCCLOp) error {
	return c.run("Reduce", rank, func(cm *cuda.Comm, ty cuda.NCCLType) error {
		p := c.ptr(t) // in place; NCCL ignores the receive buffer of non-root ranks
		return cm.Reduce(p, p, t.n, root, ty, ncclOps[op], 0)
	}, t)
}

// Send sends t to rank peer (ncclSend); the peer calls Recv.
func (c *NCCLComm) Send(rank int, t *Tensor, peer int) error {
	return c.run("Send", rank, func(cm *cuda.Comm, ty cuda.NCCLType) error { return cm.Send(c.ptr(t), t.n, peer, ty, 0) }, t)
}

// Recv receives into t what rank peer sends (ncclRecv).
func (c *NCCLComm) Recv(rank int, t *Tensor, peer int) error {
	return c.run("Recv", rank, func(cm *cuda.Comm, ty cuda.NCCLType) error { return cm.Recv(c.ptr(t), t.n, peer, ty, 0) }, t)
}
