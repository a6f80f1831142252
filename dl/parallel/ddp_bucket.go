package parallel

import (
	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
)

// Gradient buckets: DDP does not all-reduce each gradient on its own (the
// per-call latency would dominate small tensors) nor all of them at the end
// (nothing would overlap with backward). It packs the gradients into
// buckets of about 25 MiB, in reverse parameter order — roughly the order
// in which backward produces them, since the last layers' gradients come
// first — and all-reduces a bucket as soon as all its gradients are final.
//
// The gradients are views into the bucket's flat buffer (PyTorch's
// gradient_as_bucket_view=True): backward accumulates straight into the
// buffer the all-reduce then works on, with no copy in or out.
//
// Course: "Data Parallelism (DP)".
// Paper: Li et al. 2020, PyTorch Distributed (arXiv:2006.15704), Section 3.2.3 "Gradient Bucketing" and 3.2.4 "Overlap Computation with Communication".

// DefaultBucketBytes is PyTorch DDP's bucket_cap_mb = 25 (MiB).
const DefaultBucketBytes = 25 << 20

// DefaultFirstBucketBytes is the cap of the first bucket, 1 MiB as in
// PyTorch (torch.distributed's _DEFAULT_FIRST_BUCKET_BYTES): the first
// all-reduce starts as early as possible in backward.
const DefaultFirstBucketBytes = 1 << 20

// BucketInfo describes one gradient bucket of a DDP.
type BucketInfo struct {
	Index  int
	Params []string // parameter names, in bucket order (reverse registration order)
	Numel  int      // elements of the flat buffer
	Bytes  int64    // bytes of the flat buffer
}

// bucket is one flat gradient buffer and the parameters whose gradients
// are views of it.
type bucket struct {
	names   []string
	params  []*dl.Tensor
	offsets []int      // element offset of each parameter's gradient in flat
	flat    *dl.Tensor // 1-D, the parameters' dtype, on the rank's device
	views   []*dl.Tensor
	ready   int        // parameters whose gradient is final in this backward
	work    *dist.Work // the all-reduce in flight, nil when none
}

// assignBuckets groups parameter indices into buckets: parameters in
// reverse order, a new bucket once the current one holds at least its cap
// (firstCap for the first bucket, then cap), and separate buckets per
// dtype (a flat buffer has one dtype). It mirrors PyTorch's
// compute_bucket_assignment_by_size.
func assignBuckets(params []*dl.Tensor, firstCap, cap int64) [][]int {
	type open struct {
		idx   []int
		bytes int64
	}
	cur := map[dl.DType]*open{}
	var order []dl.DType // dtypes in order of first use, for deterministic output
	var out [][]int
	closed := 0
	limit := func() int64 {
		if closed == 0 {
			return firstCap
		}
		return cap
	}
	for i := len(params) - 1; i >= 0; i-- {
		dt := params[i].DType()
		b := cur[dt]
		if b == nil {
			b = &open{}
			cur[dt] = b
			order = append(order, dt)
		}
		b.idx = append(b.idx, i)
		b.bytes += params[i].Bytes()
		if b.bytes >= limit() {
			out = append(out, b.idx)
			closed++
			cur[dt] = &open{}
		}
	}
	for _, dt := range order {
		if b := cur[dt]; len(b.idx) > 0 {
			out = append(out, b.idx)
		}
	}
	return out
}

// newBucket allocates the flat buffer for the parameters idx of params.
func newBucket(names []string, params []*dl.Tensor, idx []int, dev dl.Device) *bucket {
	b := &bucket{}
	n := 0
	for _, i := range idx {
		b.names = append(b.names, names[i])
		b.params = append(b.params, params[i])
		b.offsets = append(b.offsets, n)
		n += params[i].Numel()
	}
	b.flat = dl.Options{Device: dev, DType: params[idx[0]].DType()}.Zeros(n)
	b.views = make([]*dl.Tensor, len(b.params))
	return b
}

// view returns a new view of parameter j's slot in the flat buffer.
func (b *bucket) view(j int) *dl.Tensor {
	p := b.params[j]
	return b.flat.Narrow(0, b.offsets[j], p.Numel()).Reshape(p.Shape()...)
}

// install makes every parameter's gradient a view of the flat buffer. A
// gradient that is already that view is kept (gradient accumulation); one
// that is nil (after ZeroGrad, which released the view) starts from zero;
// any other tensor is copied in.
func (b *bucket) install() {
	for j, p := range b.params {
		g := p.Grad()
		if g != nil && g == b.views[j] && !g.Released() {
			continue
		}
		v := b.view(j)
		if g == nil {
			v.ZeroInPlace()
		} else {
			v.CopyInPlace(g)
		}
		p.SetGrad(v)
		b.views[j] = v
	}
}

// adopt moves parameter j's gradient into its slot of the flat buffer if
// backward created a new tensor for it: that happens when the gradient was
// cleared between Forward and Backward (optimizer.zero_grad() after the
// forward pass, as in the course's training loop), which released the view
// install had set.
func (b *bucket) adopt(j int) {
	p := b.params[j]
	g := p.Grad()
	if g == b.views[j] && !g.Released() {
		return
	}
	v := b.view(j)
	v.CopyInPlace(g)
	p.SetGrad(v)
	g.Release()
	b.views[j] = v
}

// info describes the bucket.
func (b *bucket) info(i int) BucketInfo {
	return BucketInfo{Index: i, Params: append([]string(nil), b.names...), Numel: b.flat.Numel(), Bytes: b.flat.Bytes()}
}
