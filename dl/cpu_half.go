package dl

import (
	"sync"

	"github.com/dlbd/dlbd/dl/internal/kernels/f32"
	"github.com/dlbd/dlbd/dl/internal/kernels/half"
)

// Elementwise ops and row sums of half tensors on host devices, band by
// band: each band of the operands is decoded into a float32 scratch that
// stays in L1/L2, the float32 kernel runs on it, and the result is
// rounded into the half output.  The results are those of compute32, the
// float32 kernel on whole tensors and finish, bit for bit (the kernels
// compute each element alone, and a sum of rows adds them in the same
// order), without their full-size float32 copies: a GELU of 2²⁰ bfloat16
// values moved 20 bytes per element through memory (decode, kernel,
// encode), it now moves 4.

// halfBand is the elements a band holds: three float32 bands (48 KiB).
const halfBand = 4096

// halfScratch holds the bands of one goroutine.
var halfScratch = sync.Pool{New: func() any { return new([3 * halfBand]float32) }}

// decodeHalf sets dst to the float32 values of the dt bits in src.
func decodeHalf(dt DType, dst []float32, src []uint16) {
	if dt == BFloat16 {
		half.DecodeBFloat16(dst, src)
	} else {
		half.DecodeFloat16(dst, src)
	}
}

// encodeHalf sets dst to src rounded to dt (to nearest even).
func encodeHalf(dt DType, dst []uint16, src []float32) {
	if dt == BFloat16 {
		half.EncodeBFloat16(dst, src)
	} else {
		half.EncodeFloat16(dst, src)
	}
}

// halfBands calls f(lo, hi, scratch) on bands [lo, hi) of n elements, on
// dl's threads (f32.ForRange, as the float32 kernels split), checking the
// context of SetCancel between chunks (see chunked).
func halfBands(name string, dev Device, n int, f func(lo, hi int, s *[3 * halfBand]float32)) {
	chunked(name, dev, n, func(i, m int) {
		f32.ForRange(m, func(lo, hi int) {
			s := halfScratch.Get().(*[3 * halfBand]float32)
			defer halfScratch.Put(s)
			for b := i + lo; b < i+hi; b += halfBand {
				f(b, min(b+halfBand, i+hi), s)
			}
		})
	})
}

// halfStreams reports whether ops on t run band by band: a half tensor
// on a host device.
func halfStreams(t *Tensor) bool { return t.dtype.IsHalf() && t.dev.IsHost() }

// unaryTableMin is the least size of a half tensor whose unary op reads
// a table (unaryTable) instead of computing: the table's 65536 values
// then cost at most as much as the op, once per op and dtype.
const unaryTableMin = 1 << 16

// unaryTableKey names one table.
type unaryTableKey struct {
	op unaryOp
	dt DType
}

// unaryTables holds the built tables (*[1 << 16]uint16 by unaryTableKey).
var unaryTables sync.Map

// unaryTable returns the table of op on 16-bit values of dt: entry b is
// the op on the value with bits b, computed as unaryHalf computes it
// (decoded, unaryF, rounded), so a lookup gives the same bits.  A 16-bit
// input has only 65536 values: the GELU of a Transformer's bfloat16 MLP
// (~45 operations per element) becomes one load.
func unaryTable(op unaryOp, dt DType) *[1 << 16]uint16 {
	key := unaryTableKey{op, dt}
	if t, ok := unaryTables.Load(key); ok {
		return t.(*[1 << 16]uint16)
	}
	t := new([1 << 16]uint16)
	bits := make([]uint16, len(t))
	for i := range bits {
		bits[i] = uint16(i)
	}
	x, y := make([]float32, len(t)), make([]float32, len(t))
	decodeHalf(dt, x, bits)
	unaryF(op, y, x)
	encodeHalf(dt, t[:], y)
	got, _ := unaryTables.LoadOrStore(key, t)
	return got.(*[1 << 16]uint16)
}

// unaryHalf is unaryRaw on a half x of a host device: a table lookup per
// element from unaryTableMin elements on, else band by band.
func unaryHalf(name string, op unaryOp, x *Tensor) *Tensor {
	out := newTensor(name, x.dev, x.dtype, x.shape)
	xs, os := x.v(name).u16(), out.v(name).u16()
	if out.n >= unaryTableMin {
		t := unaryTable(op, x.dtype)
		chunked(name, x.dev, out.n, func(i, m int) {
			f32.ForRange(m, func(lo, hi int) {
				for j, b := range xs[i+lo : i+hi] {
					os[i+lo+j] = t[b]
				}
			})
		})
		return out
	}
	halfBands(name, x.dev, out.n, func(lo, hi int, s *[3 * halfBand]float32) {
		xb, ob := s[:hi-lo], s[halfBand:halfBand+hi-lo]
		decodeHalf(x.dtype, xb, xs[lo:hi])
		unaryF(op, ob, xb)
		encodeHalf(x.dtype, os[lo:hi], ob)
	})
	return out
}

// scalarHalf is scalarRaw on a half x of a host device.
func scalarHalf(name string, op scalarOp, x *Tensor, v float64) *Tensor {
	out := newTensor(name, x.dev, x.dtype, x.shape)
	xs, os := x.v(name).u16(), out.v(name).u16()
	halfBands(name, x.dev, out.n, func(lo, hi int, s *[3 * halfBand]float32) {
		xb, ob := s[:hi-lo], s[halfBand:halfBand+hi-lo]
		decodeHalf(x.dtype, xb, xs[lo:hi])
		scalarF(op, ob, xb, v)
		encodeHalf(x.dtype, os[lo:hi], ob)
	})
	return out
}

// binaryHalf is binaryRaw on half a and b of one shape on a host device.
func binaryHalf(name string, op binaryOp, a, b *Tensor) *Tensor {
	out := newTensor(name, a.dev, a.dtype, a.shape)
	as, bs, os := a.v(name).u16(), b.v(name).u16(), out.v(name).u16()
	halfBands(name, a.dev, out.n, func(lo, hi int, s *[3 * halfBand]float32) {
		ab, bb, ob := s[:hi-lo], s[halfBand:halfBand+hi-lo], s[2*halfBand:2*halfBand+hi-lo]
		decodeHalf(a.dtype, ab, as[lo:hi])
		decodeHalf(a.dtype, bb, bs[lo:hi])
		binContig(op, ob, ab, bb)
		encodeHalf(a.dtype, os[lo:hi], ob)
	})
	return out
}

// sumRowsHalf sets o [outer, inner] (float32) to the sums over the middle
// axis of the half t [outer, n, inner], n > 0 and inner > 1, as reduceF
// sums the decoded rows: the first row, then each next one added in
// order (vec.Add), decoded a row at a time; the columns split over dl's
// threads as reduceF splits them (columnPieces).
func sumRowsHalf(name string, o []float32, t *Tensor, outer, n, inner int) {
	xs := t.v(name).u16()
	for p := range outer {
		CheckCancel(name)
		os := o[p*inner : (p+1)*inner]
		columnPieces(n, inner, func(lo, hi int) {
			row := make([]float32, hi-lo)
			decodeHalf(t.dtype, os[lo:hi], xs[p*n*inner+lo:][:hi-lo])
			for j := 1; j < n; j++ {
				decodeHalf(t.dtype, row, xs[(p*n+j)*inner+lo:][:hi-lo])
				addRow(os[lo:hi], row)
			}
		})
	}
}
