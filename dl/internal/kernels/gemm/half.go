package gemm

import (
	"strconv"

	"github.com/dlbd/dlbd/dl/internal/kernels/half"
)

// Half says how A and B of a product are stored.  With Float16 or BFloat16
// they are 16-bit floats in Args.AH and Args.BH (Args.A and Args.B are
// unused) and C stays T: the packing routines decode while they copy, so
// the micro-kernel multiplies and accumulates exactly as for float32
// inputs, and no full-size float32 copy of an operand is ever made.  Every
// float16 and bfloat16 value is exactly a float32, so the product equals,
// bit for bit, the float32 product of the decoded operands.  This is how
// mixed precision's matrix multiplies take half inputs with float32
// accumulation.
type Half uint8

// The storage formats of A and B.
const (
	NoHalf   Half = iota // A and B are []T (the default)
	Float16              // IEEE 754 binary16 bits in AH and BH
	BFloat16             // bfloat16 bits (the top half of a float32) in AH and BH
)

// String returns "none", "float16" or "bfloat16".
func (h Half) String() string {
	switch h {
	case NoHalf:
		return "none"
	case Float16:
		return "float16"
	case BFloat16:
		return "bfloat16"
	}
	return "Half(" + strconv.Itoa(int(h)) + ")"
}

// Decode returns the float32 value of the 16-bit float x in format h
// (exact; a float16 signalling NaN is quieted, as by VCVTPH2PS).
func (h Half) Decode(x uint16) float32 {
	if h == Float16 {
		return half.Float16ToFloat32(x)
	}
	return half.BFloat16ToFloat32(x)
}

// DecodeTo sets dst to the float32 values of src in format h (Float16 or
// BFloat16) with the half package's bulk loops.  It panics if
// len(dst) != len(src).
func (h Half) DecodeTo(dst []float32, src []uint16) {
	if h == Float16 {
		half.DecodeFloat16(dst, src)
	} else {
		half.DecodeBFloat16(dst, src)
	}
}

// decodeAll returns the float32 values of xs in format h.
func (h Half) decodeAll(xs []uint16) []float32 {
	out := make([]float32, len(xs))
	h.DecodeTo(out, xs)
	return out
}

// encodeAll sets dst to the 16-bit values of src in format h (rounded to
// nearest even).
func (h Half) encodeAll(dst []uint16, src []float32) {
	if h == Float16 {
		half.EncodeFloat16(dst, src)
	} else {
		half.EncodeBFloat16(dst, src)
	}
}

// encodeRows sets rows rows of cols values of dst (row stride ldd) to
// the rows of src (row stride lds) plus bias (nil: none), rounded to
// format h.
func (h Half) encodeRows(dst []uint16, ldd int, src []float32, lds, rows, cols int, bias []float32) {
	if h == Float16 {
		half.EncodeFloat16Rows(dst, ldd, src, lds, rows, cols, bias)
	} else {
		half.EncodeBFloat16Rows(dst, ldd, src, lds, rows, cols, bias)
	}
}

// decoded returns p with A and B decoded into new T slices, for kernels
// that read only T (gonum's BLAS).  Simplification: this is the full-size
// copy the packing path avoids.
func (p *Args[T]) decoded() Args[T] {
	q := *p
	q.Half, q.AH, q.BH = NoHalf, nil, nil
	q.A, q.B = widen[T](p.Half.decodeAll(p.AH)), widen[T](p.Half.decodeAll(p.BH))
	return q
}

// widen converts float32 values to T (exact for float32 and float64).
func widen[T Float](xs []float32) []T {
	if out, ok := any(xs).([]T); ok {
		return out
	}
	out := make([]T, len(xs))
	for i, x := range xs {
		out[i] = T(x)
	}
	return out
}
