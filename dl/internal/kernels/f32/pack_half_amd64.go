//go:build !dlbd_noasm

package f32

import (
	"golang.org/x/sys/cpu"

	"github.com/dlbd/dlbd/dl/internal/kernels/gemm"
)

// transposeF16AVX512 and transposeBF16AVX512 are transposePanelAVX512 with
// float16 / bfloat16 source rows, decoded while loaded
// (pack_half_amd64.s); srcStride is in bytes.
//
//go:noescape
func transposeF16AVX512(dst *float32, dstStride int, src *uint16, srcStride int, rows, width, blocks int)

//go:noescape
func transposeBF16AVX512(dst *float32, dstStride int, src *uint16, srcStride int, rows, width, blocks int)

// copyHalfAVX512 is copyPanelAVX512 with 16-bit float source rows (bfloat16
// if bf16, else float16), decoded (pack_half_amd64.s).
//
//go:noescape
func copyHalfAVX512(dst *float32, dstStride int, src *uint16, srcStride int, valid, width, count int, bf16 bool)

// haveHalfPack: the half loops also need AVX512BW (16-bit masked loads,
// VPMOVZXWD on zmm).
var haveHalfPack = haveAVX512 && cpu.X86.HasAVX512BW

// operand is A or B of a product as the packing loops read it: float32
// elements (f32) or 16-bit floats of format half (h), with leading
// dimension ld.  Offsets are in elements; the loops pass byte strides.
type operand struct {
	f32  []float32
	h    []uint16
	half gemm.Half
	ld   int
}

func operandA(p *gemm.Args[float32]) operand { return operand{p.A, p.AH, p.Half, p.LDA} }
func operandB(p *gemm.Args[float32]) operand { return operand{p.B, p.BH, p.Half, p.LDB} }

// fast reports whether the assembly loops can pack this operand.
func (o operand) fast() bool { return o.half == gemm.NoHalf || haveHalfPack }

// at returns element off, decoded.
func (o operand) at(off int) float32 {
	if o.half != gemm.NoHalf {
		return o.half.Decode(o.h[off])
	}
	return o.f32[off]
}

// transpose runs the transpose loop from element off (see
// transposePanelAVX512).
func (o operand) transpose(dst *float32, dstStride, off, rows, width, blocks int) {
	switch o.half {
	case gemm.NoHalf:
		transposePanelAVX512(dst, dstStride, &o.f32[off], 4*o.ld, rows, width, blocks)
	case gemm.BFloat16:
		transposeBF16AVX512(dst, dstStride, &o.h[off], 2*o.ld, rows, width, blocks)
	default:
		transposeF16AVX512(dst, dstStride, &o.h[off], 2*o.ld, rows, width, blocks)
	}
}

// copy runs the row-copy loop from element off (see copyPanelAVX512).
func (o operand) copy(dst *float32, dstStride, off, valid, width, count int) {
	if o.half == gemm.NoHalf {
		copyPanelAVX512(dst, dstStride, &o.f32[off], 4*o.ld, valid, width, count)
		return
	}
	copyHalfAVX512(dst, dstStride, &o.h[off], 2*o.ld, valid, width, count, o.half == gemm.BFloat16)
}
