package dl

import (
	"fmt"
	"slices"

	"github.com/dlbd/dlbd/dl/internal/cuda"
)

// NCCLComm joins GPUs with NCCL, one rank per device: the collectives
// dl/dist runs when its ranks hold CUDA tensors, over NVLink or PCIe (or
// the network) instead of through host memory. NewNCCLComm joins several
// GPUs of this process, for in-process ranks (goroutines); NewNCCLCommRank
// joins one GPU of a job with one process per GPU (dist's nccl backend).
// Each rank calls with its own rank number, as dist's ranks do; every call
// returns once that rank's result is in its tensor.
//
// Course: "Data Parallelism (DP)" (all-reduce of gradients).
type NCCLComm struct {
	devs  []Device     // the device of each local communicator
	comms []*cuda.Comm // the communicators of this process
	ranks []int        // the NCCL rank of each
	size  int          // ranks in all
}

// NCCLOp is the reduction of AllReduce and ReduceScatter.
type NCCLOp uint8

// The reductions, as NCCL names them (ncclSum, ncclAvg, ...).
const (
	NCCLSum NCCLOp = iota
	NCCLAvg
	NCCLMax
	NCCLMin
	NCCLProd
)

// NewNCCLComm creates a communicator whose rank r is devs[r], like
// ncclCommInitAll. The devices must be distinct CUDA devices.
func NewNCCLComm(devs []Device) (*NCCLComm, error) {
	ctxs := make([]*cuda.Context, len(devs))
	for i, d := range devs {
		if d.Kind() != CUDAKind {
			return nil, fmt.Errorf("dl: NewNCCLComm: rank %d is on %v, not a CUDA device", i, d)
		}
		ctx, err := cuda.Primary(d.Index())
		if err != nil {
			return nil, fmt.Errorf("dl: NewNCCLComm: rank %d: %w", i, err)
		}
		ctxs[i] = ctx
	}
	comms, err := cuda.CommInitAll(ctxs)
	if err != nil {
		return nil, fmt.Errorf("dl: NewNCCLComm(%v): %w", devs, err)
	}
	ranks := make([]int, len(devs))
	for i := range ranks {
		ranks[i] = i
	}
	return &NCCLComm{devs: append([]Device(nil), devs...), comms: comms, ranks: ranks, size: len(devs)}, nil
}

// Close destroys the communicators.
func (c *NCCLComm) Close() error {
	var first error
	for _, cm := range c.comms {
		if err := cm.Destroy(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// AllReduce replaces rank's t with the op-reduction of every rank's t
// (same shape and dtype everywhere), like dist.AllReduce.
func (c *NCCLComm) AllReduce(rank int, t *Tensor, op NCCLOp) error {
	return c.run("AllReduce", rank, func(cm *cuda.Comm, ty cuda.NCCLType) error {
		p := c.ptr(t)
		return cm.AllReduce(p, p, t.n, ty, ncclOps[op], 0)
	}, t)
}

// AllGather writes every rank's src, in rank order, into rank's dst
// (Size() times src's elements).
func (c *NCCLComm) AllGather(rank int, dst, src *Tensor) error {
	return c.run("AllGather", rank, func(cm *cuda.Comm, ty cuda.NCCLType) error {
		return cm.AllGather(c.ptr(src), c.ptr(dst), src.n, ty, 0)
	}, dst, src)
}

// ReduceScatter writes into rank's dst its slice (dst's length, in rank
// order) of the op-reduction of every rank's src.
func (c *NCCLComm) ReduceScatter(rank int, dst, src *Tensor, op NCCLOp) error {
	return c.run("ReduceScatter", rank, func(cm *cuda.Comm, ty cuda.NCCLType) error {
		return cm.ReduceScatter(c.ptr(src), c.ptr(dst), dst.n, ty, ncclOps[op], 0)
	}, dst, src)
}

// Broadcast copies root's t into every rank's t.
func (c *NCCLComm) Broadcast(rank int, t *Tensor, root int) error {
	return c.run("Broadcast", rank, func(cm *cuda.Comm, ty cuda.NCCLType) error {
		p := c.ptr(t)
		return cm.Broadcast(p, p, t.n, root, ty, 0)
	}, t)
}

// Size returns the number of ranks.
func (c *NCCLComm) Size() int { return c.size }

var ncclOps = [...]cuda.RedOp{NCCLSum: cuda.Sum, NCCLAvg: cuda.Avg, NCCLMax: cuda.Max, NCCLMin: cuda.Min, NCCLProd: cuda.Prod}

func (c *NCCLComm) ptr(t *Tensor) cuda.DevPtr { return arr(view{st: t.st, off: t.off, n: t.n}).ptr() }

// run checks rank and tensors, queues the collective and waits for it.
func (c *NCCLComm) run(op string, rank int, f func(*cuda.Comm, cuda.NCCLType) error, ts ...*Tensor) error {
	i := slices.Index(c.ranks, rank)
	if i < 0 {
		return fmt.Errorf("dl: NCCL %s: rank %d of %d is not in this process (it has ranks %v)", op, rank, c.size, c.ranks)
	}
	ty := [...]cuda.NCCLType{Float32: cuda.NCCLFloat32, Float64: cuda.NCCLFloat64, Float16: cuda.NCCLFloat16, BFloat16: cuda.NCCLBFloat16}
	for _, t := range ts {
		if t.st == nil || t.dev != c.devs[i] || t.dtype != ts[0].dtype {
			return fmt.Errorf("dl: NCCL %s on rank %d (%v): tensors must be live, on %v and of one dtype", op, rank, c.devs[i], c.devs[i])
		}
	}
	cm := c.comms[i]
	if err := f(cm, ty[ts[0].dtype]); err != nil {
		return fmt.Errorf("dl: NCCL %s: %w", op, err)
	}
	return cm.Ctx.SyncStream(0)
}
