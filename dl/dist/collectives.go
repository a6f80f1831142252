package dist

import (
	"fmt"
	"unsafe"
)

// dtypeName returns "float32" or "float64".
func dtypeName[T Float]() string {
	if unsafe.Sizeof(T(0)) == 4 {
		return "float32"
	}
	return "float64"
}

// AllReduce reduces buf across all ranks of r's group with op and leaves
// the result in every rank's buf (in place), like
// torch.distributed.all_reduce. Every rank must call it with a buffer of the
// same length and the same op. All ranks get bit-identical results. The
// algorithm is the group's (Config.AllReduce; SharedMemory by default).
//
// Course: "Data Parallelism (DP)": the gradient synchronisation of DDP.
func AllReduce[T Float](r *Rank, buf []T, op Op) error {
	if err := r.fence(); err != nil {
		return err
	}
	return allReduce(r, buf, op)
}

func allReduce[T Float](r *Rank, buf []T, op Op) error {
	const name = "all-reduce"
	if !op.valid() {
		return fmt.Errorf("dist: %s on rank %d: unknown op %v", name, r.rank, op)
	}
	c, err := r.begin(desc{kind: name, dtype: dtypeName[T](), count: len(buf), op: op})
	if err != nil {
		return err
	}
	if r.g.be != nil {
		return c.viaBackend(func(be backend) error { return be.allReduce(c, bufOf(buf), op) })
	}
	switch r.g.AllReduceAlgorithm() {
	case Ring:
		err = ringAllReduce(c, buf, op)
	case Tree:
		err = treeAllReduce(c, buf, op)
	default:
		err = shmAllReduce(c, buf, op)
	}
	if err != nil {
		return c.fail(err)
	}
	return nil
}

// Broadcast copies buf of group rank root into buf of every other rank,
// like torch.distributed.broadcast. It uses the binomial tree.
func Broadcast[T Float](r *Rank, buf []T, root int) error {
	if err := r.fence(); err != nil {
		return err
	}
	return broadcast(r, buf, root)
}

func broadcast[T Float](r *Rank, buf []T, root int) error {
	const name = "broadcast"
	if err := r.checkPeer(name, root, "root"); err != nil {
		return err
	}
	c, err := r.begin(desc{kind: name, dtype: dtypeName[T](), count: len(buf), root: root})
	if err != nil {
		return err
	}
	if r.g.be != nil {
		return c.viaBackend(func(be backend) error { return be.broadcast(c, bufOf(buf), root) })
	}
	if err := treeBroadcastFrom(c, buf, root); err != nil {
		return c.fail(err)
	}
	return nil
}

// Reduce reduces buf across the group with op into buf of group rank root,
// like torch.distributed.reduce; the other ranks' buffers are left
// unchanged. It uses the binomial tree.
func Reduce[T Float](r *Rank, buf []T, root int, op Op) error {
	if err := r.fence(); err != nil {
		return err
	}
	return reduceTo(r, buf, root, op)
}

func reduceTo[T Float](r *Rank, buf []T, root int, op Op) error {
	const name = "reduce"
	if err := r.checkPeer(name, root, "root"); err != nil {
		return err
	}
	if !op.valid() {
		return fmt.Errorf("dist: %s on rank %d: unknown op %v", name, r.rank, op)
	}
	c, err := r.begin(desc{kind: name, dtype: dtypeName[T](), count: len(buf), op: op, root: root})
	if err != nil {
		return err
	}
	if r.g.be != nil {
		return c.viaBackend(func(be backend) error { return be.reduce(c, bufOf(buf), root, op) })
	}
	if err := treeReduceTo(c, buf, root, op); err != nil {
		return c.fail(err)
	}
	return nil
}

// ReduceScatter reduces in (n equal chunks, len(in) = n·len(out)) across
// the group with op and leaves chunk r.Rank() of the result in out, like
// torch.distributed.reduce_scatter_tensor; in is left unchanged. It uses
// the ring's reduce-scatter phase: n-1 steps.
//
// Course: "3D Parallelism y FSDP": ZeRO/FSDP reduce-scatter the gradients.
func ReduceScatter[T Float](r *Rank, out, in []T, op Op) error {
	if err := r.fence(); err != nil {
		return err
	}
	return reduceScatter(r, out, in, op)
}

func reduceScatter[T Float](r *Rank, out, in []T, op Op) error {
	const name = "reduce-scatter"
	n := r.Size()
	if len(in) != n*len(out) {
		return fmt.Errorf("dist: %s on rank %d: len(in) = %d, want %d (group size %d × len(out) %d)", name, r.rank, len(in), n*len(out), n, len(out))
	}
	if !op.valid() {
		return fmt.Errorf("dist: %s on rank %d: unknown op %v", name, r.rank, op)
	}
	c, err := r.begin(desc{kind: name, dtype: dtypeName[T](), count: len(in), op: op})
	if err != nil {
		return err
	}
	if r.g.be != nil {
		return c.viaBackend(func(be backend) error { return be.reduceScatter(c, bufOf(out), bufOf(in), op) })
	}
	if err := ringReduceScatterOut(c, out, in, op); err != nil {
		return c.fail(err)
	}
	return nil
}

// AllGather concatenates every rank's in, in rank order, into every rank's
// out (len(out) = n·len(in)), like torch.distributed.all_gather_into_tensor.
// It uses the ring's all-gather phase: n-1 steps.
//
// Course: "3D Parallelism y FSDP": FSDP all-gathers the parameters.
func AllGather[T Float](r *Rank, out, in []T) error {
	if err := r.fence(); err != nil {
		return err
	}
	return allGather(r, out, in)
}

func allGather[T Float](r *Rank, out, in []T) error {
	const name = "all-gather"
	n := r.Size()
	if len(out) != n*len(in) {
		return fmt.Errorf("dist: %s on rank %d: len(out) = %d, want %d (group size %d × len(in) %d)", name, r.rank, len(out), n*len(in), n, len(in))
	}
	c, err := r.begin(desc{kind: name, dtype: dtypeName[T](), count: len(in)})
	if err != nil {
		return err
	}
	if r.g.be != nil {
		return c.viaBackend(func(be backend) error { return be.allGather(c, bufOf(out), bufOf(in)) })
	}
	if err := ringAllGatherOut(c, out, in); err != nil {
		return c.fail(err)
	}
	return nil
}
