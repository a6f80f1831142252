package dl

import (
	"fmt"
	"math"

	"github.com/dlbd/dlbd/dl/internal/kernels/f32"
	"github.com/dlbd/dlbd/dl/internal/kernels/f64"
)

// attnBlock is the number of query rows the fused kernel handles at a
// time: a 64×T strip of scores per thread (128 KiB at T = 512) stays in
// the L2 cache, and products of 64 rows keep the GEMM micro-kernel busy.
const attnBlock = 64

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
