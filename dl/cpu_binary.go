package dl

import (
	"math"

	"github.com/dlbd/dlbd/dl/internal/kernels/f32"
	"github.com/dlbd/dlbd/dl/internal/kernels/vec"
)

func (cpuBackend) binary(op binaryOp, dst, a, b view, bc *broadcast) {
	if dst.st.dtype.isInt() {
		intKernel(dst, func(o []int64) { binaryI(op, o, elems[int64](a), elems[int64](b), bc) },
			func(o []int32) { binaryI(op, o, elems[int32](a), elems[int32](b), bc) },
			func(o []uint8) { binaryI(op, o, elems[uint8](a), elems[uint8](b), bc) })
		return
	}
	if dst.st.dtype == Float64 {
		binaryF(op, dst.f64(), a.f64(), b.f64(), bc)
	} else {
		binaryF(op, dst.f32(), a.f32(), b.f32(), bc)
	}
}

// binaryF walks the output row by row (see eachRow): a row is a
// contiguous binary loop, or a scalar loop when one side is broadcast
// along it.
func binaryF[F float](op binaryOp, o, a, b []F, bc *broadcast) {
	if bc == nil {
		a, b = a[:len(o)], b[:len(o)]
		f32.ForRange(len(o), func(lo, hi int) { binContig(op, o[lo:hi], a[lo:hi], b[lo:hi]) })
		return
	}
	eachRow(o, a, b, bc, func(o, a, b []F) { binContig(op, o, a, b) },
		func(o, a []F, b F) { scalarF(op.right(), o, a, float64(b)) },
		func(o, b []F, a F) { scalarF(op.left(), o, b, float64(a)) })
}

// eachRow walks a broadcast binary op's output row by row (the innermost
// collapsed axis), calling both(row, a's row, b's row) when both advance
// along it, rowA(row, a's row, b's value) or rowB(row, b's row, a's value)
// when one side is broadcast along it, and both on one element, then a
// fill, when both are.  The outer axes advance like an odometer.
func eachRow[T any](o, a, b []T, bc *broadcast, both func(o, a, b []T), rowA func(o, a []T, b T), rowB func(o, b []T, a T)) {
	r := len(bc.dims)
	inner, ia, ib := bc.dims[r-1], bc.sa[r-1], bc.sb[r-1]
	idx := make([]int, r)
	pa, pb := 0, 0
	for off := 0; off < len(o); off += inner {
		row := o[off : off+inner]
		switch {
		case ia != 0 && ib != 0:
			both(row, a[pa:pa+inner], b[pb:pb+inner])
		case ia != 0:
			rowA(row, a[pa:pa+inner], b[pb])
		case ib != 0:
			rowB(row, b[pb:pb+inner], a[pa])
		default:
			both(row[:1], a[pa:pa+1], b[pb:pb+1])
			fillSlice(row, row[0])
		}
		for k := r - 2; k >= 0; k-- {
			idx[k]++
			pa += bc.sa[k]
			pb += bc.sb[k]
			if idx[k] < bc.dims[k] {
				break
			}
			pa -= bc.sa[k] * idx[k]
			pb -= bc.sb[k] * idx[k]
			idx[k] = 0
		}
	}
}

func binContig[F float](op binaryOp, o, a, b []F) {
	a, b = a[:len(o)], b[:len(o)]
	switch op {
	case opAdd:
		if o, ok := any(o).([]float32); ok { // AVX-512 where available (gradient accumulation)
			vec.Add(o, any(a).([]float32), any(b).([]float32))
			return
		}
		for i := range o {
			o[i] = a[i] + b[i]
		}
	case opSub:
		for i := range o {
			o[i] = a[i] - b[i]
		}
	case opMul:
		for i := range o {
			o[i] = a[i] * b[i]
		}
	case opDiv:
		for i := range o {
			o[i] = a[i] / b[i]
		}
	case opPow:
		for i := range o {
			o[i] = F(math.Pow(float64(a[i]), float64(b[i])))
		}
	case opMax:
		for i := range o {
			o[i] = F(maxNaN(float64(a[i]), float64(b[i])))
		}
	case opMin:
		for i := range o {
			o[i] = F(minNaN(float64(a[i]), float64(b[i])))
		}
	case opEq:
		for i := range o {
			o[i] = b2f[F](a[i] == b[i])
		}
	case opGt:
		for i := range o {
			o[i] = b2f[F](a[i] > b[i])
		}
	case opLeft:
		copy(o, a)
	case opReLUGrad:
		reluGrad(o, a, b)
	case opSigmoidGrad:
		for i := range o {
			o[i] = a[i] * b[i] * (1 - b[i])
		}
	case opTanhGrad:
		for i := range o {
			o[i] = a[i] * (1 - b[i]*b[i])
		}
	case opGELUGrad:
		if o, ok := any(o).([]float32); ok { // 16 float32 lanes where available
			vec.GELUGrad(o, any(a).([]float32), any(b).([]float32))
			return
		}
		for i := range o {
			o[i] = a[i] * F(geluGrad(float64(b[i])))
		}
	case opGELUTanhGrad:
		for i := range o {
			o[i] = a[i] * F(geluTanhGrad(float64(b[i])))
		}
	default:
		panic("dl: internal error: unknown binary op")
	}
}

func b2f[F number](c bool) F {
	if c {
		return 1
	}
	return 0
}

// maxNaN and minNaN propagate NaN, like torch.maximum / torch.minimum.
func maxNaN(a, b float64) float64 {
	if a != a || a > b {
		return a
	}
	return b
}

func minNaN(a, b float64) float64 {
	if a != a || a < b {
		return a
	}
	return b
}

func (cpuBackend) scalar(op scalarOp, dst, src view, s float64) {
	if dst.st.dtype.isInt() { // s is an integer (the ops layer checks)
		intKernel(dst, func(o []int64) { scalarI(op, o, elems[int64](src), int64(s)) },
			func(o []int32) { scalarI(op, o, elems[int32](src), int32(s)) },
			func(o []uint8) { scalarI(op, o, elems[uint8](src), uint8(int64(s))) })
		return
	}
	if dst.st.dtype == Float64 {
		inPieces(dst.f64(), src.f64(), func(o, x []float64) { scalarF(op, o, x, s) })
	} else {
		inPieces(dst.f32(), src.f32(), func(o, x []float32) { scalarF(op, o, x, s) })
	}
}

func scalarF[F float](op scalarOp, o, x []F, s64 float64) {
	x = x[:len(o)]
	s := F(s64)
	switch op {
	case opAddS:
		for i, v := range x {
			o[i] = v + s
		}
	case opSubS:
		for i, v := range x {
			o[i] = v - s
		}
	case opRSubS:
		for i, v := range x {
			o[i] = s - v
		}
	case opMulS:
		for i, v := range x {
			o[i] = v * s
		}
	case opDivS:
		for i, v := range x {
			o[i] = v / s
		}
	case opRDivS:
		for i, v := range x {
			o[i] = s / v
		}
	case opPowS:
		scalarPow(o, x, s64)
	case opRPowS:
		for i, v := range x {
			o[i] = F(math.Pow(s64, float64(v)))
		}
	case opMaxS:
		for i, v := range x {
			o[i] = F(maxNaN(float64(v), s64))
		}
	case opMinS:
		for i, v := range x {
			o[i] = F(minNaN(float64(v), s64))
		}
	case opEqS:
		for i, v := range x {
			o[i] = b2f[F](v == s)
		}
	case opGtS:
		for i, v := range x {
			o[i] = b2f[F](v > s)
		}
	case opLtS:
		for i, v := range x {
			o[i] = b2f[F](v < s)
		}
	case opKeepS:
		copy(o, x)
	case opSetS:
		fillSlice(o, s)
	default:
		panic("dl: internal error: unknown scalar op")
	}
}

// scalarPow is x^s with fast paths for the common exponents 2 and 0.5.
func scalarPow[F float](o, x []F, s float64) {
	switch s {
	case 2:
		for i, v := range x {
			o[i] = v * v
		}
	case 0.5:
		for i, v := range x {
			o[i] = F(math.Sqrt(float64(v)))
		}
	default:
		for i, v := range x {
			o[i] = F(math.Pow(float64(v), s))
		}
	}
}

// reluGrad computes o = g·[y > 0] for y = relu(x) >= +0 without branches:
// with random signs a branch is mispredicted half of the time, which costs
// six times the arithmetic.  The mask comes from the bits of y: as an
// integer, a positive float is > 0 and +0 is 0, and (−bits)>>63 (or >>31)
// is all ones exactly for positive integers.
func reluGrad[F float](o, g, y []F) {
	switch o := any(o).(type) {
	case []float32: // the same mask, 16 lanes at a time where available
		vec.ReLUGrad(o, any(g).([]float32)[:len(o)], any(y).([]float32)[:len(o)])
	case []float64:
		g, y := any(g).([]float64)[:len(o)], any(y).([]float64)[:len(o)]
		for i := range o {
			m := uint64(-int64(math.Float64bits(y[i])) >> 63)
			o[i] = math.Float64frombits(math.Float64bits(g[i]) & m)
		}
	}
}
