package dist

import (
	"fmt"
	"unsafe"

	"github.com/dlbd/dlbd/dl"
)

// CUDA ranks: their tensor collectives run through NCCL (dl.NCCLComm),
// GPU to GPU, instead of through host memory; the call check (the
// in-process table, or rank 0 on a process backend) runs first, as for
// every collective. In-process, one NCCLComm joins the group's GPUs
// (ncclCommInitAll) and each goroutine rank calls it with its rank; on the
// nccl backend each process holds its own rank's communicator
// (ncclCommInitRank).

// gpuComm is a group's NCCL communicator.
type gpuComm struct{ comm *dl.NCCLComm }

// initGPU makes the NCCL communicator of an in-process group whose ranks
// are on CUDA devices.
func (g *Group) initGPU() error {
	devs := make([]dl.Device, len(g.members))
	cuda := 0
	for i, m := range g.members {
		devs[i] = g.device(m)
		if devs[i].Kind() == dl.CUDAKind {
			cuda++
		}
	}
	if cuda == 0 {
		return nil
	}
	if cuda != len(devs) {
		return fmt.Errorf("dist: group %s mixes CUDA and host devices (%v): put every rank on a GPU, or none", g.name, devs)
	}
	comm, err := dl.NewNCCLComm(devs)
	if err != nil {
		return fmt.Errorf("dist: group %s on %v: %w", g.name, devs, err)
	}
	g.gpu = &gpuComm{comm: comm}
	return nil
}

// onGPU reports whether t's collectives go through NCCL.
func (r *Rank) onGPU(t *dl.Tensor) bool { return t.Device().Kind() == dl.CUDAKind }

var ncclOpOf = [...]dl.NCCLOp{Sum: dl.NCCLSum, Mean: dl.NCCLAvg, Max: dl.NCCLMax, Min: dl.NCCLMin, Product: dl.NCCLProd}

// gpuCall runs one NCCL collective of r's group after the call check.
func (r *Rank) gpuCall(kind string, t *dl.Tensor, op Op, root int, run func(c *dl.NCCLComm) error) error {
	if r.g.gpu == nil {
		return fmt.Errorf("dist: %s on rank %d: the tensor is on %v but group %s has no NCCL communicator", kind, r.rank, t.Device(), r.g.name)
	}
	if err := r.fence(); err != nil {
		return err
	}
	c, err := r.begin(desc{kind: kind, dtype: t.DType().String(), count: t.Numel(), op: op, root: root})
	if err != nil {
		return err
	}
	if err := run(r.g.gpu.comm); err != nil {
		r.g.w.abort(err)
		return c.fail(err)
	}
	return nil
}

// stage runs a collective of host buffers through the GPU: copy in, run
// f on device tensors, copy the outputs back. The nccl backend uses it for
// the slice collectives (NCCL reduces device memory only).
func stage(dev dl.Device, f func(ts []*dl.Tensor) error, bufs ...hostBuf) error {
	ts := make([]*dl.Tensor, len(bufs))
	for i, b := range bufs {
		if b.size == 4 {
			ts[i] = dl.FromSlice(append([]float32(nil), unsafe.Slice((*float32)(b.p), b.n)...), b.n).To(dev)
		} else {
			ts[i] = dl.FromSlice(append([]float64(nil), unsafe.Slice((*float64)(b.p), b.n)...), b.n).To(dev)
		}
	}
	if err := f(ts); err != nil {
		return err
	}
	for i, b := range bufs {
		h := ts[i].To(dl.CPU)
		if b.size == 4 {
			copy(unsafe.Slice((*float32)(b.p), b.n), h.Float32s())
		} else {
			copy(unsafe.Slice((*float64)(b.p), b.n), h.Float64s())
		}
		ts[i].Release()
	}
	return nil
}
