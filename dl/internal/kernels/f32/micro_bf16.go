package f32

import (
	"math"
	"unsafe"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// The bfloat16 dot-product micro-kernel (AVX512_BF16's VDPBF16PS) in
// portable Go: the reference the assembly (sbgemm_avx512_amd64.s) and its
// packers (micro_bf16_amd64.go) must match bit for bit.
//
// VDPBF16PS multiplies pairs of bfloat16 values and adds both products to
// one float32 lane, so the kernel consumes k in pairs of steps.  Its
// panels hold, for each pair p, one 32-bit word per row of A and per
// column of B: the value of step 2p in the low half, of step 2p+1 in the
// high half (0 past an odd k).  Each panel keeps the offset it has in the
// float32 layout (MR*kc and NR*kc words apart) and uses the first half.
//
//	A panel:  word[p*MR + r] = op(A)[i0+r, pc+2p] | op(A)[i0+r, pc+2p+1] << 16
//	B panel:  word[p*NR + j] = op(B)[pc+2p, j0+j] | op(B)[pc+2p+1, j0+j] << 16
//
// Unlike the float32 kernels, the result is not the float32 product of
// the decoded operands bit for bit: each pair is added odd step first,
// then even (the instruction's order), and the instruction treats
// subnormal inputs, accumulators and results as zero (DAZ, FTZ), as
// oneDNN's bfloat16 GEMM (PyTorch's CPU autocast) does.  Both stay within
// float32 rounding of the exact product for values in bfloat16's normal
// range (|x| >= 1.2e-38).

// sbMR, sbNR: the tile of the bfloat16 kernel (that of sgemmAVX512).
const sbMR, sbNR = 14, 32

// bf16Bits returns op(X)[i, s] of a bfloat16 operand: X[i*ld+s], or
// X[s*ld+i] when transposed.
func bf16Bits(x []uint16, ld int, trans bool, i, s int) uint32 {
	if trans {
		return uint32(x[s*ld+i])
	}
	return uint32(x[i*ld+s])
}

// packPairs is the reference packing of the bfloat16 kernel: rows
// [i0, i0+rows) of op(X) (columns, for B) in panels of w, steps
// [pc, pc+kc) in pairs; at(i, s) returns op(X)[i, s] (op(B)[s, i] for B).
func packPairs(dst []float32, i0, pc, rows, kc, w int, at func(i, s int) uint32) {
	words := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst))
	for q := 0; q*w < rows; q++ {
		panel := words[q*w*kc : (q+1)*w*kc]
		for p := 0; 2*p < kc; p++ {
			for r := 0; r < w; r++ {
				var v uint32
				if q*w+r < rows {
					v = at(i0+q*w+r, pc+2*p)
					if 2*p+1 < kc {
						v |= at(i0+q*w+r, pc+2*p+1) << 16
					}
				}
				panel[p*w+r] = v
			}
		}
	}
}

// packABF16Go is gemm.MicroKernel.PackA of the bfloat16 kernel, in Go.
func packABF16Go(dst []float32, p *gemm.Args[float32], ic, pc, mc, kc, mr int) {
	packPairs(dst, ic, pc, mc, kc, mr, func(i, s int) uint32 { return bf16Bits(p.AH, p.LDA, p.TransA, i, s) })
}

// packBBF16Go is gemm.MicroKernel.PackB of the bfloat16 kernel, in Go.
func packBBF16Go(dst []float32, p *gemm.Args[float32], pc, jc, kc, nc, nr int) {
	packPairs(dst, jc, pc, nc, kc, nr, func(j, s int) uint32 { return bf16Bits(p.BH, p.LDB, !p.TransB, j, s) })
}

// sbgemmGo is the reference of sbgemmAVX512BF16: the same contract as
// gemm.MicroKernel.Fn on panels packed by packABF16Go/packBBF16Go.
func sbgemmGo(k int, a, b, c *float32, ldc int, alpha, beta float32) {
	pairs := (k + 1) / 2
	aw := unsafe.Slice((*uint32)(unsafe.Pointer(a)), pairs*sbMR)
	bw := unsafe.Slice((*uint32)(unsafe.Pointer(b)), pairs*sbNR)
	var acc [sbMR][sbNR]float32
	for p := 0; p < pairs; p++ {
		for i := 0; i < sbMR; i++ {
			x := aw[p*sbMR+i]
			for j := 0; j < sbNR; j++ {
				y := bw[p*sbNR+j]
				acc[i][j] = dpbf16(acc[i][j], x, y)
			}
		}
	}
	cs := unsafe.Slice(c, (sbMR-1)*ldc+sbNR)
	for i := range sbMR {
		for j := range sbNR {
			v := &cs[i*ldc+j]
			if beta == 0 {
				*v = alpha * acc[i][j]
			} else {
				*v = alpha*acc[i][j] + beta**v
			}
		}
	}
}

// dpbf16 is one lane of VDPBF16PS: acc + hi(x)·hi(y) + lo(x)·lo(y), odd
// (high) products first, each added with one rounding, subnormal inputs
// and results as zero.  float32(math.FMA(...)) rounds once here: a
// product of two bfloat16 values has at most 16 significant bits, so the
// float64 sum can only be inexact when the smaller term is far below half
// a float32 ulp of the larger, which is then the result either way.
func dpbf16(acc float32, x, y uint32) float32 {
	bf := func(h uint32) float32 { return ftz(math.Float32frombits(h << 16)) }
	acc = ftz(float32(math.FMA(float64(bf(x>>16)), float64(bf(y>>16)), float64(ftz(acc)))))
	return ftz(float32(math.FMA(float64(bf(x&0xffff)), float64(bf(y&0xffff)), float64(acc))))
}

// ftz returns x, or a zero of its sign if x is subnormal.
func ftz(x float32) float32 {
	if b := math.Float32bits(x); b&0x7f800000 == 0 {
		return math.Float32frombits(b & 0x80000000)
	}
	return x
}

// bf16GoKernel is the reference bfloat16 micro-kernel with the blocking of
// the assembly one (tests run both through the same driver).
func bf16GoKernel() *gemm.MicroKernel[float32] {
	return &gemm.MicroKernel[float32]{
		Name: "go-bf16-14x32", MR: sbMR, NR: sbNR,
		KC: 512, MC: 14 * 32, NC: 4096,
		Fn: sbgemmGo, PackA: packABF16Go, PackB: packBBF16Go,
	}
}
