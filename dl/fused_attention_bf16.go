package dl

import (
	"math"

	"github.com/dlbd/dlbd/dl/internal/kernels/f32"
	"github.com/dlbd/dlbd/dl/internal/kernels/half"
)

// fusedAttentionBF16 is fusedAttention for a bfloat16 qkv: its products
// read the bfloat16 Q, K, V and output gradient as they are stored (on
// AMX or AVX512_BF16 where the CPU has them, see f32.GemmHalf) and
// accumulate in float32; the softmax, the log Σ exp and dS's arithmetic
// stay in float32 (float64 sums), and the probabilities P and dS are
// rounded to bfloat16 for the products that take them, as PyTorch's
// autocast rounds the operands of its bfloat16 matmuls and as FlashAttention
// feeds P to its second product.  No float32 copy of qkv, of the output or
// of a gradient is made: each block of output rows is rounded to
// bfloat16 as it is computed, and dK, dV accumulate per head in float32.
func fusedAttentionBF16(op string, qkv *Tensor, heads int) *Tensor {
	bs, t, d := qkv.shape[0], qkv.shape[1], qkv.shape[2]/3
	y := qkv.like(op, []int{bs, t, d})
	lse := Options{Device: qkv.dev, DType: Float64}.Zeros(bs * heads * t)
	g := attnGeom{b: bs, t: t, d: d, h: heads, dh: d / heads}
	if err := attnForwardBF16(g, qkv.v(op).u16(), y.v(op).u16(), lse.v(op).f64()); err != nil {
		y.Release()
		lse.Release()
		panic(&CanceledError{Op: op, Cause: err})
	}
	if !needsGrad(qkv) {
		lse.Release()
		return y
	}
	record(op, y, []*Tensor{qkv}, []*Tensor{lse}, func(gy *Tensor) []*Tensor {
		gb := gy
		if gy.dtype != BFloat16 {
			gb = gy.AsType(BFloat16)
			defer gb.Release()
		}
		dx := qkv.like(op+" backward", qkv.shape)
		if err := attnBackwardBF16(g, qkv.v(op).u16(), y.v(op).u16(), gb.v(op).u16(), lse.v(op).f64(), dx.v(op).u16()); err != nil {
			dx.Release()
			panic(&CanceledError{Op: op + " backward", Cause: err})
		}
		return []*Tensor{dx}
	})
	return y
}

// attnForwardBF16 is attnForward on bfloat16 bits (see fusedAttentionBF16).
func attnForwardBF16(g attnGeom, x, y []uint16, lse []float64) error {
	ld := 3 * g.d
	scale := float32(1 / math.Sqrt(float64(g.dh)))
	return forEachThread(g.b*g.h, func(pair int) error {
		bi, hi := pair/g.h, pair%g.h
		xb := x[bi*g.t*ld:]
		q, k, v := xb[hi*g.dh:], xb[g.d+hi*g.dh:], xb[2*g.d+hi*g.dh:]
		yb := y[bi*g.t*g.d+hi*g.dh:]
		l := lse[pair*g.t : (pair+1)*g.t]
		n := min(attnBlock, g.t)
		sc, f, h := getScratch[float32]([]int{n * g.t, n * g.dh}, []int{n * g.t})
		defer attnPool.Put(sc)
		s, o, sh := f[0], f[1], h[0]
		for i0 := 0; i0 < g.t; i0 += attnBlock {
			i1 := min(i0+attnBlock, g.t)
			rows, e := i1-i0, i1 // the block sees keys 0 … i1−1
			if err := f32.GemmHalfSerial(f32.BFloat16, false, true, rows, e, g.dh, scale, q[i0*ld:], ld, k, ld, 0, s, e); err != nil {
				return err
			}
			for r := range rows {
				l[i0+r] = softmaxPrefix(s[r*e:(r+1)*e], i0+r+1)
			}
			half.EncodeBFloat16(sh[:rows*e], s[:rows*e])
			if err := f32.GemmHalfSerial(f32.BFloat16, false, false, rows, g.dh, e, 1, sh, e, v, ld, 0, o, g.dh); err != nil {
				return err
			}
			for r := range rows {
				half.EncodeBFloat16(yb[(i0+r)*g.d:][:g.dh], o[r*g.dh:(r+1)*g.dh])
			}
		}
		return nil
	})
}

// attnBackwardBF16 is attnBackward on bfloat16 bits: P and dS are
// rounded to bfloat16 for the products that take them, D and dS are
// computed from the float32 P, and dQ, dK, dV are accumulated in float32
// and rounded once (dQ per block of rows, dK and dV per head at the end).
func attnBackwardBF16(g attnGeom, x, y, gy []uint16, lse []float64, dx []uint16) error {
	ld := 3 * g.d
	scale := 1 / math.Sqrt(float64(g.dh))
	dd := make([]float64, g.b*g.h*g.t)
	if err := forEachThread(g.b, func(bi int) error {
		sc, f, _ := getScratch[float32]([]int{g.d, g.d}, nil)
		defer attnPool.Put(sc)
		yr, gr := f[0], f[1]
		for r := range g.t {
			off := (bi*g.t + r) * g.d
			half.DecodeBFloat16(yr, y[off:off+g.d])
			half.DecodeBFloat16(gr, gy[off:off+g.d])
			headDots(g, yr, gr, dd[bi*g.h*g.t+r:])
		}
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
		n := min(attnBlock, g.t)
		size := n * g.t
		sc, f, h := getScratch[float32]([]int{size, size, g.t * g.dh, g.t * g.dh, n * g.dh}, []int{size, size})
		defer attnPool.Put(sc)
		p, dp, dk32, dv32, dq32 := f[0], f[1], f[2], f[3], f[4]
		ph, dsh := h[0], h[1]
		gemm := func(tA, tB bool, m, n, k int, alpha float32, a []uint16, lda int, b []uint16, ldb int, beta float32, c []float32, ldc int) error {
			return f32.GemmHalfSerial(f32.BFloat16, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		}
		last := (g.t - 1) / attnBlock * attnBlock
		for i0 := last; i0 >= 0; i0 -= attnBlock {
			i1 := min(i0+attnBlock, g.t)
			rows, e := i1-i0, i1
			beta := float32(1)
			if i0 == last {
				beta = 0
			}
			if err := gemm(false, true, rows, e, g.dh, float32(scale), q[i0*ld:], ld, k, ld, 0, p, e); err != nil {
				return err
			}
			for r := range rows {
				expShift(p[r*e:(r+1)*e], i0+r+1, l[i0+r])
			}
			half.EncodeBFloat16(ph[:rows*e], p[:rows*e])
			if err := gemm(true, false, e, g.dh, rows, 1, ph, e, gb[i0*g.d:], g.d, beta, dv32, g.dh); err != nil {
				return err
			}
			if err := gemm(false, true, rows, e, g.dh, 1, gb[i0*g.d:], g.d, v, ld, 0, dp, e); err != nil {
				return err
			}
			for r := range rows {
				softmaxGradRow(dp[r*e:(r+1)*e], p[r*e:(r+1)*e], rd[i0+r], i0+r+1, scale)
			}
			half.EncodeBFloat16(dsh[:rows*e], dp[:rows*e])
			if err := gemm(false, false, rows, g.dh, e, 1, dsh, e, k, ld, 0, dq32, g.dh); err != nil {
				return err
			}
			for r := range rows {
				half.EncodeBFloat16(dq[(i0+r)*ld:][:g.dh], dq32[r*g.dh:(r+1)*g.dh])
			}
			if err := gemm(true, false, e, g.dh, rows, 1, dsh, e, q[i0*ld:], ld, beta, dk32, g.dh); err != nil {
				return err
			}
		}
		for r := range g.t {
			half.EncodeBFloat16(dk[r*ld:][:g.dh], dk32[r*g.dh:(r+1)*g.dh])
			half.EncodeBFloat16(dv[r*ld:][:g.dh], dv32[r*g.dh:(r+1)*g.dh])
		}
		return nil
	})
}
