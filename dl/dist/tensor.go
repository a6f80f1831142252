package dist

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
)

// The tensor forms of the collectives, like torch.distributed's, as
// methods of the rank. They work in place on the tensors' memory (the
// zero-copy view Tensor.Float32Data / Float64Data gives), so autograd does
// not see them, as in PyTorch. Tensors must be on the rank's device
// (Rank.Device) and be Float32 or Float64; every misuse panics with
// *dl.DeviceError or *dl.DTypeError, like any other tensor op (inside Run a
// panic aborts the group and is reported by Run). Sizes are checked like
// the slice forms.

// Device returns the device this rank is bound to: Config.Devices[world
// rank], by default dl.Sim(world rank), like torch.cuda.set_device(rank).
func (r *Rank) Device() dl.Device { return r.g.device(r.state.world) }

// device returns the device of world rank w.
func (g *Group) device(w int) dl.Device {
	if g.be != nil && g.cfg.Devices == nil {
		return g.dev
	}
	if g.cfg.Devices != nil {
		return g.cfg.Devices[w]
	}
	return dl.Sim(w)
}

// checkTensors panics unless every tensor is on r's device and all share
// one supported dtype, which it returns.
func (r *Rank) checkTensors(op string, ts ...*dl.Tensor) dl.DType {
	dev := r.Device()
	for _, t := range ts {
		if t.Device() != dev {
			panic(&dl.DeviceError{Op: "dist." + op, Devices: []dl.Device{t.Device(), dev},
				Reason: fmt.Sprintf("the tensor is on %v but %v is bound to %v", t.Device(), r, dev),
				Fix:    "move it with t.To(r.Device()) (each rank works on its own device)"})
		}
		if t.DType() != ts[0].DType() {
			panic(&dl.DTypeError{Op: "dist." + op, DTypes: []dl.DType{ts[0].DType(), t.DType()},
				Reason: "the tensors of one collective must have one dtype", Fix: "convert one with .AsType"})
		}
	}
	dt := ts[0].DType()
	if dt != dl.Float32 && dt != dl.Float64 && !r.onGPU(ts[0]) {
		panic(&dl.DTypeError{Op: "dist." + op, DTypes: []dl.DType{dt},
			Reason: "collectives reduce float32 or float64 tensors",
			Fix:    "convert with .AsType(dl.Float32) first (mixed-precision training all-reduces float32 gradients)"})
	}
	return dt
}

// AllReduce reduces t across the group in place, like
// torch.distributed.all_reduce(t, op, group); see the package function
// AllReduce.
func (r *Rank) AllReduce(t *dl.Tensor, op Op) error {
	if r.onGPU(t) {
		r.checkTensors("AllReduce", t)
		return r.gpuCall("all-reduce", t, op, 0, func(c *dl.NCCLComm) error { return c.AllReduce(r.rank, t, ncclOpOf[op]) })
	}
	if r.checkTensors("AllReduce", t) == dl.Float64 {
		return AllReduce(r, t.Float64Data(), op)
	}
	return AllReduce(r, t.Float32Data(), op)
}

// AllReduceAsync is AllReduce in the background (async_op=True).
func (r *Rank) AllReduceAsync(t *dl.Tensor, op Op) *Work {
	if r.checkTensors("AllReduceAsync", t) == dl.Float64 {
		return AllReduceAsync(r, t.Float64Data(), op)
	}
	return AllReduceAsync(r, t.Float32Data(), op)
}

// Broadcast copies root's t into every rank's t, like
// torch.distributed.broadcast.
func (r *Rank) Broadcast(t *dl.Tensor, root int) error {
	if r.onGPU(t) {
		r.checkTensors("Broadcast", t)
		return r.gpuCall("broadcast", t, Sum, root, func(c *dl.NCCLComm) error { return c.Broadcast(r.rank, t, root) })
	}
	if r.checkTensors("Broadcast", t) == dl.Float64 {
		return Broadcast(r, t.Float64Data(), root)
	}
	return Broadcast(r, t.Float32Data(), root)
}

// Reduce reduces t into root's t, like torch.distributed.reduce.
func (r *Rank) Reduce(t *dl.Tensor, root int, op Op) error {
	if r.onGPU(t) {
		r.checkTensors("Reduce", t)
		return r.gpuCall("reduce", t, op, root, func(c *dl.NCCLComm) error { return c.Reduce(r.rank, t, root, ncclOpOf[op]) })
	}
	if r.checkTensors("Reduce", t) == dl.Float64 {
		return Reduce(r, t.Float64Data(), root, op)
	}
	return Reduce(r, t.Float32Data(), root, op)
}

// ReduceScatter reduces in (n equal chunks of out's size, by element order)
// and leaves chunk r.Rank() in out, like
// torch.distributed.reduce_scatter_tensor.
func (r *Rank) ReduceScatter(out, in *dl.Tensor, op Op) error {
	if r.onGPU(in) {
		r.checkTensors("ReduceScatter", out, in)
		return r.gpuCall("reduce-scatter", in, op, 0, func(c *dl.NCCLComm) error { return c.ReduceScatter(r.rank, out, in, ncclOpOf[op]) })
	}
	if r.checkTensors("ReduceScatter", out, in) == dl.Float64 {
		return ReduceScatter(r, out.Float64Data(), in.Float64Data(), op)
	}
	return ReduceScatter(r, out.Float32Data(), in.Float32Data(), op)
}

// AllGather concatenates every rank's in into out, like
// torch.distributed.all_gather_into_tensor.
func (r *Rank) AllGather(out, in *dl.Tensor) error {
	if r.onGPU(in) {
		r.checkTensors("AllGather", out, in)
		return r.gpuCall("all-gather", in, Sum, 0, func(c *dl.NCCLComm) error { return c.AllGather(r.rank, out, in) })
	}
	if r.checkTensors("AllGather", out, in) == dl.Float64 {
		return AllGather(r, out.Float64Data(), in.Float64Data())
	}
	return AllGather(r, out.Float32Data(), in.Float32Data())
}

// Send sends a copy of t to group rank dst, like torch.distributed.send.
func (r *Rank) Send(t *dl.Tensor, dst int) error {
	if r.onGPU(t) {
		r.checkTensors("Send", t)
		return r.gpuP2P("send", func(c *dl.NCCLComm) error { return c.Send(r.rank, t, dst) })
	}
	if r.checkTensors("Send", t) == dl.Float64 {
		return Send(r, t.Float64Data(), dst)
	}
	return Send(r, t.Float32Data(), dst)
}

// Recv receives the next message from group rank src into t, like
// torch.distributed.recv.
func (r *Rank) Recv(t *dl.Tensor, src int) error {
	if r.onGPU(t) {
		r.checkTensors("Recv", t)
		return r.gpuP2P("recv", func(c *dl.NCCLComm) error { return c.Recv(r.rank, t, src) })
	}
	if r.checkTensors("Recv", t) == dl.Float64 {
		return Recv(r, t.Float64Data(), src)
	}
	return Recv(r, t.Float32Data(), src)
}

// gpuP2P runs an NCCL send or receive (no call check: point-to-point).
func (r *Rank) gpuP2P(op string, run func(c *dl.NCCLComm) error) error {
	if r.g.gpu == nil {
		return fmt.Errorf("dist: %s on rank %d: group %s has no NCCL communicator", op, r.rank, r.g.name)
	}
	if err := r.fence(); err != nil {
		return err
	}
	if err := run(r.g.gpu.comm); err != nil {
		r.g.w.abort(err)
		return opError(op, r.rank, err)
	}
	return nil
}
