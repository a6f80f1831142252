package dl

import (
	"fmt"
	"math"
	"sync"

	"github.com/dlbd/dlbd/dl/internal/kernels/f32"
	"github.com/dlbd/dlbd/dl/internal/kernels/f64"
	"github.com/dlbd/dlbd/dl/internal/kernels/vec"
)

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

// attnBlock is the number of query rows the fused kernel handles at a
// time: a 64×T strip of scores per thread (128 KiB at T = 512) stays in
// the L2 cache, and products of 64 rows keep the GEMM micro-kernel busy.
const attnBlock = 64

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

// attnGeom is the geometry of one attention call: batch b, sequence t,
// width d = h heads × dh columns.  Row r of batch item b starts at
// (b·t + r)·3d in qkv and at (b·t + r)·d in the output; head j's columns
// of Q, K and V start at j·dh, d + j·dh and 2d + j·dh.
type attnGeom struct{ b, t, d, h, dh int }

// attnForward computes y and lse for every (batch item, head) pair, the
// pairs spread over the threads.
func attnForward[F float](g attnGeom, x, y []F, lse []float64) error {
	ld := 3 * g.d
	scale := 1 / math.Sqrt(float64(g.dh))
	return forEachThread(g.b*g.h, func(pair int) error {
		bi, hi := pair/g.h, pair%g.h
		xb := x[bi*g.t*ld:]
		q, k, v := xb[hi*g.dh:], xb[g.d+hi*g.dh:], xb[2*g.d+hi*g.dh:]
		yb := y[bi*g.t*g.d+hi*g.dh:]
		l := lse[pair*g.t : (pair+1)*g.t]
		sc, f, _ := getScratch[F]([]int{min(attnBlock, g.t) * g.t}, nil)
		defer attnPool.Put(sc)
		s := f[0]
		for i0 := 0; i0 < g.t; i0 += attnBlock {
			i1 := min(i0+attnBlock, g.t)
			rows, e := i1-i0, i1 // the block sees keys 0 … i1−1
			if err := gemmSerial(false, true, rows, e, g.dh, F(scale), q[i0*ld:], ld, k, ld, 0, s, e); err != nil {
				return err
			}
			for r := range rows {
				l[i0+r] = softmaxPrefix(s[r*e:(r+1)*e], i0+r+1) // keys 0 … i0+r
			}
			if err := gemmSerial(false, false, rows, g.dh, e, 1, s, e, v, ld, 0, yb[i0*g.d:], g.d); err != nil {
				return err
			}
		}
		return nil
	})
}

// attnBackward computes the gradient dx of qkv from the output y, its
// gradient gy and the rows' lse.  Per pair the query blocks run from the
// last, which sees every key and so initialises dK and dV (beta 0), to
// the first, each adding its part:
//
//	P  = exp(Q_i·Kᵀ·scale − lse)             recomputed
//	dV += Pᵀ·dY_i,  dP = dY_i·Vᵀ,  D = rowsum(dY_i ∘ Y_i)
//	dS = P ∘ (dP − D)·scale,  dQ_i = dS·K,  dK += dSᵀ·Q_i
func attnBackward[F float](g attnGeom, x, y, gy []F, lse []float64, dx []F) error {
	ld := 3 * g.d
	scale := 1 / math.Sqrt(float64(g.dh))
	dd := make([]float64, g.b*g.h*g.t)
	if err := forEachThread(g.b, func(bi int) error {
		attnRowDots(g, bi, y, gy, dd)
		return nil
	}); err != nil {
		return err
	}
	return forEachThread(g.b*g.h, func(pair int) error {
		bi, hi := pair/g.h, pair%g.h
		xb, dxb := x[bi*g.t*ld:], dx[bi*g.t*ld:]
		q, k, v := xb[hi*g.dh:], xb[g.d+hi*g.dh:], xb[2*g.d+hi*g.dh:]
		dq, dk, dv := dxb[hi*g.dh:], dxb[g.d+hi*g.dh:], dxb[2*g.d+hi*g.dh:]
		gb := gy[bi*g.t*g.d+hi*g.dh:]
		l, rd := lse[pair*g.t:(pair+1)*g.t], dd[pair*g.t:(pair+1)*g.t]
		size := min(attnBlock, g.t) * g.t
		sc, f, _ := getScratch[F]([]int{size, size}, nil)
		defer attnPool.Put(sc)
		p, dp := f[0], f[1]
		last := (g.t - 1) / attnBlock * attnBlock
		for i0 := last; i0 >= 0; i0 -= attnBlock {
			i1 := min(i0+attnBlock, g.t)
			rows, e := i1-i0, i1
			beta := F(1)
			if i0 == last {
				beta = 0
			}
			if err := gemmSerial(false, true, rows, e, g.dh, F(scale), q[i0*ld:], ld, k, ld, 0, p, e); err != nil {
				return err
			}
			for r := range rows {
				expShift(p[r*e:(r+1)*e], i0+r+1, l[i0+r])
			}
			if err := gemmSerial(true, false, e, g.dh, rows, 1, p, e, gb[i0*g.d:], g.d, beta, dv, ld); err != nil {
				return err
			}
			if err := gemmSerial(false, true, rows, e, g.dh, 1, gb[i0*g.d:], g.d, v, ld, 0, dp, e); err != nil {
				return err
			}
			for r := range rows {
				softmaxGradRow(dp[r*e:(r+1)*e], p[r*e:(r+1)*e], rd[i0+r], i0+r+1, scale)
			}
			if err := gemmSerial(false, false, rows, g.dh, e, 1, dp, e, k, ld, 0, dq[i0*ld:], ld); err != nil {
				return err
			}
			if err := gemmSerial(true, false, e, g.dh, rows, 1, dp, e, q[i0*ld:], ld, beta, dk, ld); err != nil {
				return err
			}
		}
		return nil
	})
}

// softmaxPrefix replaces row[:n] by its softmax and the rest of row by
// zeros (the masked keys), and returns log Σ exp(row[:n]).  Float32 rows
// go through vec (Max, ExpSum, ExpScale: sums in float64), whose vector
// loops take 32 elements at a time: row[n:] up to the next multiple of 32
// is set to −Inf first, which they turn into exact zeros (exp64 is 0
// below −707), so a row's tail does not fall to the scalar exp64.
// Float64 rows use math.Exp.
func softmaxPrefix[F float](row []F, n int) float64 {
	if r32, ok := any(row).([]float32); ok {
		m := float64(vec.Max(r32[:n]))
		w := padMasked(r32, n)
		s := vec.ExpSum(r32[:w], m)
		vec.ExpScale(r32[:w], r32[:w], m, 1/s)
		return m + math.Log(s)
	}
	clear(row[n:])
	row = row[:n]
	m := math.Inf(-1)
	for _, v := range row {
		m = max(m, float64(v))
	}
	var s float64
	for i, v := range row {
		e := math.Exp(float64(v) - m)
		row[i] = F(e)
		s += e
	}
	for i := range row {
		row[i] = F(float64(row[i]) / s)
	}
	return m + math.Log(s)
}

// attnRowDots sets dd[(bi·h + j)·t + r] = D = Σ dY·Y over head j's columns
// of row r of batch item bi, for every head j and row r, from the output
// y and its gradient gy ([B, T, d], heads side by side).  It reads the
// item's rows in memory order, which the hardware prefetcher streams:
// computed per query block inside the (item, head) loop instead, every
// row's d/h columns came from memory a cache line at a time (6 ms of the
// 549 ms float32 training step at d=512, T=128).  Float32 rows go through
// vec.Dot64 (float64 lanes), float64 rows through the same sum in Go.
func attnRowDots[F float](g attnGeom, bi int, y, gy []F, dd []float64) {
	for r := range g.t {
		off := (bi*g.t + r) * g.d
		headDots(g, y[off:off+g.d], gy[off:off+g.d], dd[bi*g.h*g.t+r:])
	}
}

// headDots sets out[j·t] = Σ dY·Y over head j's columns of one row of y
// and gy (d values each), for every head j: the row's D in attnRowDots's
// layout.
func headDots[F float](g attnGeom, yr, gr []F, out []float64) {
	for j := range g.h {
		out[j*g.t] = dot64(gr[j*g.dh:(j+1)*g.dh], yr[j*g.dh:(j+1)*g.dh])
	}
}

// dot64 is Σ a[i]·b[i] in float64: vec.Dot64 for float32.
func dot64[F float](a, b []F) float64 {
	if a32, ok := any(a).([]float32); ok {
		return vec.Dot64(a32, any(b).([]float32))
	}
	var s float64
	for i, v := range a {
		s += float64(v) * float64(b[i])
	}
	return s
}

// softmaxGradRow sets dr[:n] to dS = P·(dP − D)·scale from the
// probabilities pr, dP in dr and the row's D = Σ dY·Y (attnRowDots), and
// dr[n:] to 0 (the masked keys).  Float32 rows go through vec.SoftmaxGrad
// (float64 arithmetic in AVX-512 lanes), float64 rows through the same
// formula in Go.
func softmaxGradRow[F float](dr, pr []F, dd float64, n int, scale float64) {
	if d32, ok := any(dr).([]float32); ok {
		vec.SoftmaxGrad(d32[:n], any(pr).([]float32)[:n], dd, scale)
		clear(d32[n:])
		return
	}
	for j, pv := range pr[:n] {
		dr[j] = F(float64(pv) * (float64(dr[j]) - dd) * scale)
	}
	clear(dr[n:])
}

// expShift sets row[i] = exp(row[i] − shift) for i < n and row[i] = 0
// beyond (float32 rows padded with −Inf as in softmaxPrefix).
func expShift[F float](row []F, n int, shift float64) {
	if r32, ok := any(row).([]float32); ok {
		w := padMasked(r32, n)
		vec.ExpScale(r32[:w], r32[:w], shift, 1)
		return
	}
	clear(row[n:])
	for i, v := range row[:n] {
		row[i] = F(math.Exp(float64(v) - shift))
	}
}

// padMasked sets row[n:w] to −Inf and row[w:] to 0, with w the multiple
// of 32 at or above n (at most len(row)), and returns w.
func padMasked(row []float32, n int) int {
	w := min(len(row), (n+31)&^31)
	inf := float32(math.Inf(-1))
	for i := n; i < w; i++ {
		row[i] = inf
	}
	clear(row[w:])
	return w
}

// gemmSerial is f32.GemmSerial or f64.GemmSerial, by F.
func gemmSerial[F float](tA, tB bool, m, n, k int, alpha F, a []F, lda int, b []F, ldb int, beta F, c []F, ldc int) error {
	switch a := any(a).(type) {
	case []float32:
		return f32.GemmSerial(tA, tB, m, n, k, float32(alpha), a, lda, any(b).([]float32), ldb, float32(beta), any(c).([]float32), ldc)
	case []float64:
		return f64.GemmSerial(tA, tB, m, n, k, float64(alpha), a, lda, any(b).([]float64), ldb, float64(beta), any(c).([]float64), ldc)
	}
	panic(fmt.Sprintf("gemmSerial: unexpected element type %T", a))
}

// forEachThread runs f(i) for i < n on the threads of SetNumThreads.
func forEachThread(n int, f func(i int) error) error { return f32.ForEach(n, f) }

// attnScratch holds one goroutine's buffers for a (batch item, head)
// pair of the fused attention; attnPool hands them from pair to pair, so
// that a pair does not allocate (and the runtime zero) its score strips
// again: that was 14% of the bfloat16 kernel's time.  Every buffer is
// written before it is read.
type attnScratch struct {
	f32 []float32
	f64 []float64
	u16 []uint16
}

var attnPool = sync.Pool{New: func() any { return new(attnScratch) }}

// getScratch returns a pooled scratch with floats of F split into
// buffers of the sizes in fs and 16-bit ones of the sizes in hs; the
// caller puts it back with attnPool.Put when the pair is done.
func getScratch[F float](fs, hs []int) (sc *attnScratch, f [][]F, h [][]uint16) {
	sc = attnPool.Get().(*attnScratch)
	var all []F
	switch b := any(&all).(type) {
	case *[]float32:
		sc.f32 = grown(sc.f32, sum(fs))
		*b = sc.f32
	case *[]float64:
		sc.f64 = grown(sc.f64, sum(fs))
		*b = sc.f64
	}
	sc.u16 = grown(sc.u16, sum(hs))
	return sc, carve(all, fs), carve(sc.u16, hs)
}

// grown returns s if it holds n elements, else a new slice of n.
func grown[E any](s []E, n int) []E {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]E, n)
}

// carve splits s into consecutive slices of the given sizes.
func carve[E any](s []E, sizes []int) [][]E {
	out := make([][]E, len(sizes))
	for i, n := range sizes {
		out[i], s = s[:n:n], s[n:]
	}
	return out
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}
