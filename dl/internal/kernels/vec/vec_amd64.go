//go:build !dlbd_noasm

package vec

import (
	"math"

	"golang.org/x/sys/cpu"
)

// The AVX-512 loops in vec_amd64.s process n elements, n > 0 and a
// multiple of 16 (one zmm register); the Go wrappers below pass the
// longest such prefix and return its length, and the generic loops do the
// rest.

// axpyAVX512 is axpyGeneric on n elements: VMULPS then VADDPS (not
// VFMADD, which would round once and change the bits).
//
//go:noescape
func axpyAVX512(alpha float32, x, y *float32, n int)

// reluAVX512 is reluGeneric on n elements.
//
//go:noescape
func reluAVX512(dst, src *float32, n int)

// reluGradAVX512 is reluGradGeneric on n elements.
//
//go:noescape
func reluGradAVX512(dst, grad, y *float32, n int)

// addAVX512 is addGeneric on n elements.
//
//go:noescape
func addAVX512(dst, a, b *float32, n int)

// adamAVX512 is adamGeneric on n elements (adam_amd64.s).
//
//go:noescape
func adamAVX512(p, grad, m, v *float32, n int, c *AdamCoeffs)

// gather2RowsAVX512 is Gather2Rows's loop (stride2_amd64.s), given the
// masks of stride2Masks.
//
//go:noescape
func gather2RowsAVX512(dst, src *float32, rows, cols, ld int, tlo, thi, tout uint64)

// scatterAdd2RowsAVX512 is ScatterAdd2Rows's loop (stride2_amd64.s),
// given the masks of stride2Masks.
//
//go:noescape
func scatterAdd2RowsAVX512(dst, src *float32, rows, cols, ld int, tlo, thi, tin uint64)

// maxPool2RowAVX512 is MaxPool2Row's loop (stride2_amd64.s), given the
// masks of the partial block.
//
//go:noescape
func maxPool2RowAVX512(dst *float32, arg *int64, top, bottom *float32, n, base, w int, tlo, thi, tout uint64)

// copyRowsAVX512 is CopyRows's loop (stride2_amd64.s), given the masks
// of the last cols%16 and fill%16 elements of a row.
//
//go:noescape
func copyRowsAVX512(dst *float32, ldd int, src *float32, lds, rows, cols, fill int, ctail, ftail uint64)

var (
	haveAVX512 = cpu.X86.HasAVX512F
	haveAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA // the AVX2 loops use fused multiply-adds
)

// vectorLen returns the prefix of n the vector loops handle (0 without
// AVX-512).
func vectorLen(n int) int {
	if !haveAVX512 {
		return 0
	}
	return n &^ 15
}

// The AVX2 loops of the same names (vec_avx2_amd64.s), for CPUs without
// AVX-512: n > 0 a multiple of 8.

//go:noescape
func axpyAVX2(alpha float32, x, y *float32, n int)

//go:noescape
func reluAVX2(dst, src *float32, n int)

//go:noescape
func reluGradAVX2(dst, grad, y *float32, n int)

//go:noescape
func addAVX2(dst, a, b *float32, n int)

//go:noescape
func affineAVX2(dst, x *float32, n int, a, b float32)

//go:noescape
func affine2AVX2(dst, x, y *float32, n int, a, b, c float32)

//go:noescape
func adamAVX2(p, grad, m, v *float32, n int, c *AdamCoeffs) // adam_amd64.s

// copyRowsAVX2 and gather2RowsAVX2 are CopyRows's and Gather2Rows's
// loops on AVX2 (vec_avx2_amd64.s), masks made from the counts inside.
//
//go:noescape
func copyRowsAVX2(dst *float32, ldd int, src *float32, lds, rows, cols, fill int)

//go:noescape
func gather2RowsAVX2(dst, src *float32, rows, cols, ld int)

// scatterAdd2RowsAVX2 is ScatterAdd2Rows's loop on AVX2
// (vec_avx2_amd64.s).
//
//go:noescape
func scatterAdd2RowsAVX2(dst, src *float32, rows, cols, ld int)

// maxPool2RowAVX2 is MaxPool2Row's loop on AVX2 (vec_avx2_amd64.s), for
// n >= 8.
//
//go:noescape
func maxPool2RowAVX2(dst *float32, arg *int64, top, bottom *float32, n, base, w int)

// avx2Len returns the prefix of n the AVX2 loops handle: a multiple of 8,
// 0 where AVX-512's loops run instead or without AVX2.
func avx2Len(n int) int {
	if haveAVX512 || !haveAVX2 {
		return 0
	}
	return n &^ 7
}

// gather2RowsVec runs gather2RowsAVX512, or gather2RowsAVX2 without
// AVX-512 (checked arguments); false with neither.
func gather2RowsVec(dst, src []float32, rows, cols, ld int) bool {
	if !haveAVX512 {
		if haveAVX2 {
			gather2RowsAVX2(&dst[0], &src[0], rows, cols, ld)
		}
		return haveAVX2
	}
	lo, hi, out := stride2Masks(cols, true)
	gather2RowsAVX512(&dst[0], &src[0], rows, cols, ld, lo, hi, out)
	return true
}

// scatterAdd2RowsVec runs scatterAdd2RowsAVX512, or scatterAdd2RowsAVX2
// without AVX-512 (checked arguments); false with neither.
func scatterAdd2RowsVec(dst, src []float32, rows, cols, ld int) bool {
	if !haveAVX512 {
		if haveAVX2 {
			scatterAdd2RowsAVX2(&dst[0], &src[0], rows, cols, ld)
		}
		return haveAVX2
	}
	lo, hi, in := stride2Masks(cols, false)
	scatterAdd2RowsAVX512(&dst[0], &src[0], rows, cols, ld, lo, hi, in)
	return true
}

// maxPool2RowVec runs maxPool2RowAVX512, or maxPool2RowAVX2 without
// AVX-512 (checked arguments, n > 0); false with neither, or on AVX2 for
// fewer than 8 outputs.  Indexes beyond int32 take the Go loop (the
// assembly adds int32 offsets).
func maxPool2RowVec(dst []float32, arg []int64, top, bottom []float32, base, w int) bool {
	n := len(dst)
	if w+1 > math.MaxInt32-2*n {
		return false
	}
	if !haveAVX512 {
		if !haveAVX2 || n < 8 {
			return false
		}
		maxPool2RowAVX2(&dst[0], &arg[0], &top[0], &bottom[0], n, base, w)
		return true
	}
	r := n % 16
	lo, hi := uint64(1)<<min(2*r, 16)-1, uint64(1)<<max(2*r-16, 0)-1
	maxPool2RowAVX512(&dst[0], &arg[0], &top[0], &bottom[0], n, base, w, lo, hi, uint64(1)<<r-1)
	return true
}

// copyRowsVec runs copyRowsAVX512, or copyRowsAVX2 without AVX-512
// (checked arguments); false with neither.
func copyRowsVec(dst []float32, ldd int, src []float32, lds, rows, cols, fill int) bool {
	if !haveAVX512 && !haveAVX2 {
		return false
	}
	var s *float32
	if cols > 0 {
		s = &src[0]
	}
	if haveAVX512 {
		copyRowsAVX512(&dst[0], ldd, s, lds, rows, cols, fill, 1<<(cols%16)-1, 1<<(fill%16)-1)
	} else {
		copyRowsAVX2(&dst[0], ldd, s, lds, rows, cols, fill)
	}
	return true
}

func axpyVec(alpha float32, x, y []float32) int {
	if n := vectorLen(len(y)); n > 0 {
		axpyAVX512(alpha, &x[0], &y[0], n)
		return n
	}
	n := avx2Len(len(y))
	if n > 0 {
		axpyAVX2(alpha, &x[0], &y[0], n)
	}
	return n
}

func adamVec(p, g, m, v []float32, c *AdamCoeffs) int {
	if n := vectorLen(len(p)); n > 0 {
		adamAVX512(&p[0], &g[0], &m[0], &v[0], n, c)
		return n
	}
	n := avx2Len(len(p))
	if n > 0 {
		adamAVX2(&p[0], &g[0], &m[0], &v[0], n, c)
	}
	return n
}

func reluVec(dst, src []float32) int {
	if n := vectorLen(len(dst)); n > 0 {
		reluAVX512(&dst[0], &src[0], n)
		return n
	}
	n := avx2Len(len(dst))
	if n > 0 {
		reluAVX2(&dst[0], &src[0], n)
	}
	return n
}

func reluGradVec(dst, g, y []float32) int {
	if n := vectorLen(len(dst)); n > 0 {
		reluGradAVX512(&dst[0], &g[0], &y[0], n)
		return n
	}
	n := avx2Len(len(dst))
	if n > 0 {
		reluGradAVX2(&dst[0], &g[0], &y[0], n)
	}
	return n
}

func addVec(dst, a, b []float32) int {
	if n := vectorLen(len(dst)); n > 0 {
		addAVX512(&dst[0], &a[0], &b[0], n)
		return n
	}
	n := avx2Len(len(dst))
	if n > 0 {
		addAVX2(&dst[0], &a[0], &b[0], n)
	}
	return n
}

// expSumAVX512 is expSumGeneric on n floats, n > 0 a multiple of 32
// (exp_amd64.s; AVX512DQ for VCVTPD2QQ).
//
//go:noescape
func expSumAVX512(x *float32, n int, shift float64) float64

// expScaleAVX512 is expScaleGeneric on n floats, n > 0 a multiple of 32.
//
//go:noescape
func expScaleAVX512(dst, x *float32, n int, shift, scale float64)

var haveExp = haveAVX512 && cpu.X86.HasAVX512DQ

// expSumAVX2 and expScaleAVX2 are the same loops for CPUs without
// AVX-512DQ (exp_avx2_amd64.s): n a multiple of 32 for the sum, of 4 for
// the scaled exponentials.
//
//go:noescape
func expSumAVX2(x *float32, n int, shift float64) float64

//go:noescape
func expScaleAVX2(dst, x *float32, n int, shift, scale float64)

// expSumVec returns ExpSum's vector part of x (len(x) a multiple of 32).
func expSumVec(x []float32, shift float64) float64 {
	switch {
	case len(x) == 0:
		return 0
	case haveExp:
		return expSumAVX512(&x[0], len(x), shift)
	case haveAVX2:
		return expSumAVX2(&x[0], len(x), shift)
	}
	return expSumGeneric(x, shift)
}

func expScaleVec(dst, x []float32, shift, scale float64) int {
	switch n := len(dst) &^ 31; {
	case haveExp && n > 0:
		expScaleAVX512(&dst[0], &x[0], n, shift, scale)
		return n
	case !haveExp && haveAVX2 && len(dst) >= 4:
		n = len(dst) &^ 3
		expScaleAVX2(&dst[0], &x[0], n, shift, scale)
		return n
	}
	return 0
}

// maxAVX512 returns the largest of n floats (n > 0, a multiple of 16),
// ignoring NaNs, and whether there was one (vec_amd64.s).
//
//go:noescape
func maxAVX512(x *float32, n int) (m float32, nan bool)

// maxAVX2 is maxAVX512 for AVX2 CPUs (vec_avx2_amd64.s): n > 0 a
// multiple of 16.
//
//go:noescape
func maxAVX2(x *float32, n int) (m float32, nan bool)

// maxVec runs maxAVX512 (or maxAVX2) on the longest prefix it handles,
// or returns (−Inf, false, 0).
func maxVec(x []float32) (m float32, nan bool, n int) {
	if n = vectorLen(len(x)); n > 0 {
		m, nan = maxAVX512(&x[0], n)
		return m, nan, n
	}
	if n = avx2Len(len(x)) &^ 15; n > 0 {
		m, nan = maxAVX2(&x[0], n)
		return m, nan, n
	}
	return float32(math.Inf(-1)), false, 0
}

// geluAVX512 is geluGeneric on n floats, n > 0 a multiple of 16
// (gelu_amd64.s).
//
//go:noescape
func geluAVX512(dst, src *float32, n int)

// geluGradAVX512 is geluGradGeneric on n floats, n > 0 a multiple of 16.
//
//go:noescape
func geluGradAVX512(dst, grad, x *float32, n int)

// geluAVX2 and geluGradAVX2 are the same loops on 8 lanes for CPUs
// without AVX-512 (gelu_amd64.s), n > 0 a multiple of 8.
//
//go:noescape
func geluAVX2(dst, src *float32, n int)

//go:noescape
func geluGradAVX2(dst, grad, x *float32, n int)

// geluAssembly reports whether GELU and GELUGrad run gelu_amd64.s.
func geluAssembly() bool { return haveAVX512 || haveAVX2 }

// Without AVX-512 or AVX2 the float64 formulas do the whole slice, as on
// other architectures (faster than the float32 emulation, see gelu.go).
func geluVec(dst, src []float32) int {
	switch {
	case haveAVX512:
		n := vectorLen(len(dst))
		if n > 0 {
			geluAVX512(&dst[0], &src[0], n)
		}
		return n
	case haveAVX2:
		n := len(dst) &^ 7
		if n > 0 {
			geluAVX2(&dst[0], &src[0], n)
		}
		return n
	}
	geluFloat64(dst, src)
	return len(dst)
}

func geluGradVec(dst, g, x []float32) int {
	switch {
	case haveAVX512:
		n := vectorLen(len(dst))
		if n > 0 {
			geluGradAVX512(&dst[0], &g[0], &x[0], n)
		}
		return n
	case haveAVX2:
		n := len(dst) &^ 7
		if n > 0 {
			geluGradAVX2(&dst[0], &g[0], &x[0], n)
		}
		return n
	}
	geluGradFloat64(dst, g, x)
	return len(dst)
}

// The LayerNorm row loops (rows_amd64.s) on n float32 elements, n > 0
// a multiple of 16.
//
//go:noescape
func sum64AVX512(x *float32, n int) float64

//go:noescape
func sqDevAVX512(x *float32, n int, c float64) float64

//go:noescape
func lnRowAVX512(out, xhat, x *float32, w, b *float64, n int, mean, rs float64)

//go:noescape
func lnGradSumsAVX512(grad, xhat *float32, w, bw, bb *float64, n int) (m1, m2 float64)

//go:noescape
func lnGradRowAVX512(gx, grad, xhat *float32, w *float64, n int, rs, m1, m2 float64)

// rowLen returns the prefix of a float32 row the LayerNorm loops take: a
// multiple of 16, 0 for float64 rows or without AVX-512.
func rowLen[F Float](x []F) ([]float32, int) {
	x32, ok := any(x).([]float32)
	if !ok || !haveAVX512 {
		return nil, 0
	}
	return x32, len(x32) &^ (rowLanes - 1)
}

// sum64AVX2, sqDevAVX2 and dot64AVX2 are the row sums on AVX2 CPUs
// without AVX-512 (vec_avx2_amd64.s): the same 16 lanes, n > 0 a
// multiple of 16.
//
//go:noescape
func sum64AVX2(x *float32, n int) float64

//go:noescape
func sqDevAVX2(x *float32, n int, c float64) float64

//go:noescape
func dot64AVX2(a, b *float32, n int) float64

// lnRowAVX2, lnGradSumsAVX2 and lnGradRowAVX2 are the LayerNorm row
// loops on AVX2 CPUs (vec_avx2_amd64.s), with the AVX-512 loops' bits.
//
//go:noescape
func lnRowAVX2(out, xhat, x *float32, w, b *float64, n int, mean, rs float64)

//go:noescape
func lnGradSumsAVX2(grad, xhat *float32, w, bw, bb *float64, n int) (m1, m2 float64)

//go:noescape
func lnGradRowAVX2(gx, grad, xhat *float32, w *float64, n int, rs, m1, m2 float64)

// rowLenAVX2 is rowLen for the AVX2 row sums: 0 where the AVX-512 ones
// run or without AVX2.
func rowLenAVX2[F Float](x []F) ([]float32, int) {
	x32, ok := any(x).([]float32)
	if !ok || haveAVX512 || !haveAVX2 {
		return nil, 0
	}
	return x32, len(x32) &^ (rowLanes - 1)
}

func sumVec[F Float](x []F) (float64, int) {
	if x32, n := rowLen(x); n > 0 {
		return sum64AVX512(&x32[0], n), n
	}
	if x32, n := rowLenAVX2(x); n > 0 {
		return sum64AVX2(&x32[0], n), n
	}
	return sumGeneric(x)
}

func sqDevVec[F Float](x []F, c float64) (float64, int) {
	if x32, n := rowLen(x); n > 0 {
		return sqDevAVX512(&x32[0], n, c), n
	}
	if x32, n := rowLenAVX2(x); n > 0 {
		return sqDevAVX2(&x32[0], n, c), n
	}
	return sqDevGeneric(x, c)
}

// lnLen returns the prefix of a float32 row the LayerNorm loops take (a
// multiple of 16; 0 for float64 rows or without AVX2) and whether the
// AVX-512 loops take it (else the AVX2 ones).
func lnLen[F Float](x []F) (x32 []float32, n int, avx512 bool) {
	if x32, n := rowLen(x); n > 0 {
		return x32, n, true
	}
	x32, n = rowLenAVX2(x)
	return x32, n, false
}

func lnRowVec[F Float](out, xhat, x []F, w, b []float64, mean, rs float64) int {
	x32, n, avx512 := lnLen(x)
	if n == 0 {
		return 0
	}
	o, h := any(out).([]float32), any(xhat).([]float32)
	if avx512 {
		lnRowAVX512(&o[0], &h[0], &x32[0], &w[0], &b[0], n, mean, rs)
	} else {
		lnRowAVX2(&o[0], &h[0], &x32[0], &w[0], &b[0], n, mean, rs)
	}
	return n
}

func lnGradSumsVec[F Float](g, xhat []F, w, bw, bb []float64) (m1, m2 float64, n int) {
	g32, n, avx512 := lnLen(g)
	if n == 0 {
		return lnGradSumsLanes(g, xhat, w, bw, bb)
	}
	h := any(xhat).([]float32)
	if avx512 {
		m1, m2 = lnGradSumsAVX512(&g32[0], &h[0], &w[0], &bw[0], &bb[0], n)
	} else {
		m1, m2 = lnGradSumsAVX2(&g32[0], &h[0], &w[0], &bw[0], &bb[0], n)
	}
	return m1, m2, n
}

func lnGradRowVec[F Float](gx, g, xhat []F, w []float64, rs, m1, m2 float64) int {
	g32, n, avx512 := lnLen(g)
	if n == 0 {
		return 0
	}
	o, h := any(gx).([]float32), any(xhat).([]float32)
	if avx512 {
		lnGradRowAVX512(&o[0], &g32[0], &h[0], &w[0], n, rs, m1, m2)
	} else {
		lnGradRowAVX2(&o[0], &g32[0], &h[0], &w[0], n, rs, m1, m2)
	}
	return n
}

// The softmax gradient's loops (rows_amd64.s), n > 0 a multiple of
// 16.
//
//go:noescape
func dot64AVX512(a, b *float32, n int) float64

//go:noescape
func softmaxGradAVX512(dst, p *float32, n int, d, scale float64)

// softmaxGradAVX2 is softmaxGradAVX512 on AVX2 CPUs (vec_avx2_amd64.s), n
// > 0 a multiple of 8.
//
//go:noescape
func softmaxGradAVX2(dst, p *float32, n int, d, scale float64)

func dotVec(a, b []float32) (float64, int) {
	if a32, n := rowLen(a); n > 0 {
		return dot64AVX512(&a32[0], &b[0], n), n
	}
	if a32, n := rowLenAVX2(a); n > 0 {
		return dot64AVX2(&a32[0], &b[0], n), n
	}
	return dotGeneric(a, b)
}

func softmaxGradVec(dst, p []float32, d, scale float64) int {
	if n := vectorLen(len(dst)); n > 0 {
		softmaxGradAVX512(&dst[0], &p[0], n, d, scale)
		return n
	}
	n := avx2Len(len(dst))
	if n > 0 {
		softmaxGradAVX2(&dst[0], &p[0], n, d, scale)
	}
	return n
}

// affineAVX512 is affineGeneric on n elements (VMULPS then VADDPS).
//
//go:noescape
func affineAVX512(dst, x *float32, n int, a, b float32)

// affine2AVX512 is affine2Generic on n elements.
//
//go:noescape
func affine2AVX512(dst, x, y *float32, n int, a, b, c float32)

func affineVec(dst, x []float32, a, b float32) int {
	if n := vectorLen(len(dst)); n > 0 {
		affineAVX512(&dst[0], &x[0], n, a, b)
		return n
	}
	n := avx2Len(len(dst))
	if n > 0 {
		affineAVX2(&dst[0], &x[0], n, a, b)
	}
	return n
}

func affine2Vec(dst, x, y []float32, a, b, c float32) int {
	if n := vectorLen(len(dst)); n > 0 {
		affine2AVX512(&dst[0], &x[0], &y[0], n, a, b, c)
		return n
	}
	n := avx2Len(len(dst))
	if n > 0 {
		affine2AVX2(&dst[0], &x[0], &y[0], n, a, b, c)
	}
	return n
}
