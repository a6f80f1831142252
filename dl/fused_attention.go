package dl

import "math"

// CausalSelfAttention returns causal multi-head self-attention of the
// packed projection qkv [B, T, 3d] (Q, K and V side by side, each with
// heads heads of d/heads columns, as GPT-2's c_attn output):
//
//	y_h = softmax(Q_h·K_hᵀ/√d_h + mask)·V_h    position t attends to positions ≤ t
//
// with the heads side by side in y [B, T, d], like
// torch's F.scaled_dot_product_attention(q, k, v, is_causal=True) on the
// split, transposed heads.  The output has qkv's dtype.
//
// On host devices (fusion on, see WithoutFusion) it runs a fused kernel in
// the manner of FlashAttention: per head and per block of 64 query rows
// it computes the scores against the keys that the mask lets the block
// see, their softmax and the product with V, so the T×T score matrix of a
// head is never stored (a 64×T strip per thread is), the masked upper
// triangle is skipped (about half of the products), and backward keeps only
// each row's log Σ exp and recomputes the scores.  Bfloat16 inputs go to
// bfloat16 products with float32 accumulation, with the probabilities
// rounded to bfloat16 for the product with V (fusedAttentionBF16); float16
// inputs are computed in float32.  Elsewhere, or under WithoutFusion, it runs the op-by-op
// composition that the course writes out (Narrow, Permute, MatMul,
// MaskedFill, Softmax), which keeps the [B, h, T, T] scores for backward;
// the two agree to rounding (TestCausalSelfAttentionFused).
//
// It panics with a *ShapeError unless qkv is [B, T, 3d] with d a positive
// multiple of heads.
//
// Paper: Dao et al. 2022, FlashAttention (arXiv:2205.14135).
func CausalSelfAttention(qkv *Tensor, heads int) *Tensor {
	const op = "CausalSelfAttention"
	qkv.live(op)
	requireFloat(op, qkv)
	s := qkv.shape
	if len(s) != 3 || heads <= 0 || s[2]%(3*heads) != 0 || s[2] == 0 {
		panic(shapeErr(op, [][]int{s}, "pass the output of the fused Q, K, V projection, [batch, time, 3·dim], with dim a positive multiple of heads",
			"want [batch, time, 3·dim] with dim a multiple of %d heads", heads))
	}
	if !qkv.dev.IsHost() || !FusionEnabled() {
		return attentionUnfused(qkv, heads)
	}
	return fusedAttention(op, qkv, heads)
}

// attentionUnfused is the written-out attention: the reference of the
// fused kernel and its path on devices without one.
func attentionUnfused(qkv *Tensor, heads int) *Tensor {
	bs, t, d := qkv.shape[0], qkv.shape[1], qkv.shape[2]/3
	dh := d / heads
	var temps []*Tensor // every intermediate, views included
	keep := func(x *Tensor) *Tensor { temps = append(temps, x); return x }
	split := func(i int) *Tensor { // → [B, h, T, dh]
		return keep(keep(keep(qkv.Narrow(2, i*d, d)).Reshape(bs, t, heads, dh)).Permute(0, 2, 1, 3))
	}
	q, k, v := split(0), split(1), split(2)
	scores := keep(keep(q.MatMul(keep(k.Transpose(2, 3)))).MulScalar(1 / math.Sqrt(float64(dh)))) // [B, h, T, T]
	att := keep(keep(scores.MaskedFill(keep(causalMask(t, scores.dtype, scores.dev)), math.Inf(-1))).Softmax(3))
	out := keep(keep(att.MatMul(v)).Permute(0, 2, 1, 3)).Reshape(bs, t, d) // heads side by side
	if !IsGradEnabled() {                                                  // no graph holds them: give the memory back now
		for _, x := range temps {
			if x != out { // out, a view or a copy, keeps its own memory
				x.Release()
			}
		}
	}
	return out
}

// causalMask is [T, T] with ones above the diagonal: position i may not
// look at positions j > i.
func causalMask(t int, dt DType, dev Device) *Tensor {
	m := make([]float32, t*t)
	for i := range t {
		for j := i + 1; j < t; j++ {
			m[i*t+j] = 1
		}
	}
	mask := FromSlice(m, t, t)
	if dt != Float32 {
		mask = mask.AsType(dt)
	}
	return mask.To(dev)
}

// fusedAttention is CausalSelfAttention's fused kernel on host memory.
func fusedAttention(op string, qkv *Tensor, heads int) *Tensor {
	if qkv.dtype == BFloat16 {
		return fusedAttentionBF16(op, qkv, heads)
	}
	bs, t, d := qkv.shape[0], qkv.shape[1], qkv.shape[2]/3
	x := compute32(qkv) // float32 or float64
	y := x.like(op, []int{bs, t, d})
	lse := Options{Device: qkv.dev, DType: Float64}.Zeros(bs * heads * t) // each query row's log Σ exp
	g := attnGeom{b: bs, t: t, d: d, h: heads, dh: d / heads}
	var err error
	if x.dtype == Float64 {
		err = attnForward(g, x.v(op).f64(), y.v(op).f64(), lse.v(op).f64())
	} else {
		err = attnForward(g, x.v(op).f32(), y.v(op).f32(), lse.v(op).f64())
	}
	if err != nil {
		y.Release()
		lse.Release()
		if x != qkv {
			x.Release()
		}
		panic(&CanceledError{Op: op, Cause: err})
	}
	out := finish(y, qkv.dtype, []*Tensor{qkv}, x)
	if !needsGrad(qkv) {
		lse.Release()
		return out
	}
	record(op, out, []*Tensor{qkv}, []*Tensor{lse}, func(gy *Tensor) []*Tensor {
		xb, yb, gb := compute32(qkv), compute32(out), compute32(gy)
		dx := xb.like(op+" backward", xb.shape)
		var err error
		if xb.dtype == Float64 {
			err = attnBackward(g, xb.v(op).f64(), yb.v(op).f64(), gb.v(op).f64(), lse.v(op).f64(), dx.v(op).f64())
		} else {
			err = attnBackward(g, xb.v(op).f32(), yb.v(op).f32(), gb.v(op).f32(), lse.v(op).f64(), dx.v(op).f32())
		}
		for _, p := range [][2]*Tensor{{xb, qkv}, {yb, out}, {gb, gy}} {
			if p[0] != p[1] {
				p[0].Release()
			}
		}
		if err != nil {
			dx.Release()
			panic(&CanceledError{Op: op + " backward", Cause: err})
		}
		return []*Tensor{finish(dx, qkv.dtype, nil)}
	})
	return out
}
