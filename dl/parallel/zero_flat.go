package parallel

import (
	"unsafe"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/nn"
)

// flatParam is one sharding unit (FSDP's FlatParameter): the parameters of
// one module flattened into a single vector, padded so that it splits into
// N equal shards, rank r owning shard r = elements [r·S, (r+1)·S).
//
// Which buffers exist depends on the stage (see ZeRO): full is the
// working-precision vector the module computes with (stages 0–2, always;
// stage 3, only while a forward or backward of the unit runs), shard is
// the rank's working-precision part (stage 3), grad the full gradient
// (stages 0–1, always; stage 2, during backward), gradShard the rank's
// reduced gradient (stage 2), and master the precision the optimizer
// updates (the whole vector at stage 0, the rank's shard otherwise; the
// same tensor as the working copy when there is no mixed precision).
//
// Course: "3D Parallelism y FSDP".
// Paper: Rajbhandari et al. 2020, ZeRO: Memory Optimizations Toward Training Trillion Parameter Models (arXiv:1910.02054).
type flatParam struct {
	module  nn.Module
	names   []string
	orig    []*dl.Tensor // the module's own parameter tensors (released; placeholders at stage 3)
	views   []*dl.Tensor // the module's parameters now: views of full (stages 0–2)
	shapes  [][]int
	offsets []int
	numel   int // Σ parameter elements
	padded  int // numel rounded up to a multiple of N (of 2N for 2-byte dtypes)
	shardN  int // padded / N

	full, shard, grad, gradShard, master *dl.Tensor

	ready   int  // parameters whose gradient is final in this backward
	reduced bool // stage 1: grad's own shard holds this step's reduced gradient
}

// layout fills the offsets and sizes of a unit whose parameters are ps,
// sharded over n ranks, for a working dtype wd.
func (u *flatParam) layout(ps []*dl.Tensor, n int, wd dl.DType) {
	for _, p := range ps {
		u.orig = append(u.orig, p)
		u.shapes = append(u.shapes, p.Shape())
		u.offsets = append(u.offsets, u.numel)
		u.numel += p.Numel()
	}
	q := n
	if wd.Size() == 2 {
		// 2-byte values travel as pairs in float32 slots (allGather below),
		// so every shard has an even length.
		q = 2 * n
	}
	u.padded = (u.numel + q - 1) / q * q
	u.shardN = u.padded / n
}

// paramViews returns views of flat shaped like the unit's parameters,
// leaves that require grad.
func (u *flatParam) paramViews(flat *dl.Tensor) []*dl.Tensor {
	vs := make([]*dl.Tensor, len(u.shapes))
	for i, sh := range u.shapes {
		n := 1
		for _, d := range sh {
			n *= d
		}
		v := flat.Narrow(0, u.offsets[i], n)
		vs[i] = v.Reshape(sh...).SetRequiresGrad(true)
		v.Release()
	}
	return vs
}

// own returns a view of rank r's shard of a padded flat vector.
func (u *flatParam) own(flat *dl.Tensor, r int) *dl.Tensor {
	return flat.Narrow(0, r*u.shardN, u.shardN)
}

// allGather fills full (padded) with every rank's shard. 2-byte values
// are moved as pairs inside float32 slots: an all-gather only copies bytes,
// and dist's collectives take float32 or float64 slices.
func allGather(r *dist.Rank, full, shard *dl.Tensor) error {
	if full.DType().Size() == 2 {
		return dist.AllGather(r, asFloat32s(full.Uint16Data()), asFloat32s(shard.Uint16Data()))
	}
	return r.AllGather(full, shard)
}

// asFloat32s reinterprets an even-length []uint16 as []float32 (same bytes).
func asFloat32s(u []uint16) []float32 {
	if len(u) == 0 {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(u))), len(u)/2)
}

// reduceScatterMean returns rank r's shard of the mean over the ranks of
// full. 2-byte gradients are reduced in float32, PyTorch FSDP's
// MixedPrecision(reduce_dtype=torch.float32): a temporary float32 copy.
func reduceScatterMean(r *dist.Rank, full *dl.Tensor, shardN int) (*dl.Tensor, error) {
	in := full
	if full.DType().Size() == 2 {
		in = full.AsType(dl.Float32)
		defer in.Release()
	}
	out := dl.Options{Device: full.Device(), DType: in.DType()}.Zeros(shardN)
	if err := r.ReduceScatter(out, in, dist.Mean); err != nil {
		out.Release()
		return nil, err
	}
	if out.DType() == full.DType() {
		return out, nil
	}
	half := out.AsType(full.DType())
	out.Release()
	return half, nil
}

// allReduceMean replaces t by its mean over the ranks (2-byte tensors
// through a float32 copy).
func allReduceMean(r *dist.Rank, t *dl.Tensor) error {
	if t.DType().Size() != 2 {
		return r.AllReduce(t, dist.Mean)
	}
	f := t.AsType(dl.Float32)
	defer f.Release()
	if err := r.AllReduce(f, dist.Mean); err != nil {
		return err
	}
	copyCast(t, f)
	return nil
}

// copyCast copies src into dst, converting the dtype.
func copyCast(dst, src *dl.Tensor) {
	if src.DType() == dst.DType() {
		dst.CopyInPlace(src)
		return
	}
	c := src.AsType(dst.DType())
	dst.CopyInPlace(c)
	c.Release()
}

// releaseAll releases every non-nil tensor.
func releaseAll(ts ...*dl.Tensor) {
	for _, t := range ts {
		if t != nil {
			t.Release()
		}
	}
}
