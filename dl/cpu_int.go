package dl

import (
	"unsafe"

	"github.com/dlbd/dlbd/dl/internal/kernels/half"
)

// Host kernels for the integer dtypes (Int64, Int32, Uint8) and Bool
// (stored as a uint8 holding 0 or 1), and the conversions between every
// pair of dtypes.  The ops layer (ops_int.go) decides which ops integer
// tensors support; these kernels implement them with integer arithmetic,
// so int64 values stay exact at any magnitude (no trip through float64).

type integer interface{ ~int64 | ~int32 | ~uint8 }

type number interface{ float | integer }

// elems views host storage as a []T (T of the view's element size).
func elems[T any](v view) []T {
	if v.n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(v.st.ptr()), v.st.n)[v.off : v.off+v.n : v.off+v.n]
}

// castAny converts src into dst for every pair of dtypes the fast paths of
// cpuBackend.cast do not cover: through float32 for the 2-byte floats,
// truncating toward zero from floats to integers (through int64, so a
// negative float wraps in a Uint8 as in PyTorch), and nonzero = true
// into Bool.
func castAny(dst, src view) {
	switch dst.st.dtype {
	case Float32:
		loadInto(elems[float32](dst), src)
	case Float64:
		loadInto(elems[float64](dst), src)
	case Int64:
		loadInto(elems[int64](dst), src)
	case Int32:
		loadInto(elems[int32](dst), src)
	case Uint8:
		loadInto(elems[uint8](dst), src)
	case Bool:
		o := elems[uint8](dst)
		tmp := make([]float64, len(o)) // any nonzero value, NaN included, is true
		loadInto(tmp, src)
		for i, v := range tmp {
			o[i] = b2f[uint8](v != 0)
		}
	case Float16, BFloat16:
		tmp := make([]float32, dst.n)
		loadInto(tmp, src)
		if dst.st.dtype == Float16 {
			half.EncodeFloat16(dst.u16(), tmp)
		} else {
			half.EncodeBFloat16(dst.u16(), tmp)
		}
	}
}

// loadInto converts the elements of src (any dtype) into dst.
func loadInto[D number](dst []D, src view) {
	switch src.st.dtype {
	case Float32:
		floatsTo(dst, elems[float32](src))
	case Float64:
		floatsTo(dst, elems[float64](src))
	case Float16, BFloat16:
		tmp := make([]float32, src.n)
		if src.st.dtype == Float16 {
			half.DecodeFloat16(tmp, src.u16())
		} else {
			half.DecodeBFloat16(tmp, src.u16())
		}
		floatsTo(dst, tmp)
	case Int64:
		convert2(dst, elems[int64](src))
	case Int32:
		convert2(dst, elems[int32](src))
	case Uint8, Bool:
		convert2(dst, elems[uint8](src))
	}
}

// floatsTo converts floats to D: a plain conversion into a float type,
// truncation toward zero through int64 into an integer type.
func floatsTo[D number, S float](dst []D, src []S) {
	var zero D
	switch any(zero).(type) {
	case float32, float64:
		convert2(dst, src)
	default:
		for i, x := range src[:len(dst)] {
			dst[i] = D(int64(x))
		}
	}
}

func convert2[D, S number](dst []D, src []S) {
	for i, x := range src[:len(dst)] {
		dst[i] = D(x)
	}
}

// fillInt sets every element of an integer or Bool view to v (truncated
// toward zero; nonzero is true).
func fillInt(dst view, v float64) {
	switch dst.st.dtype {
	case Int64:
		fillSlice(elems[int64](dst), int64(v))
	case Int32:
		fillSlice(elems[int32](dst), int32(int64(v)))
	case Uint8:
		fillSlice(elems[uint8](dst), uint8(int64(v)))
	case Bool:
		fillSlice(elems[uint8](dst), b2f[uint8](v != 0))
	}
}

// intKernel runs f on the view's elements as their integer type.
func intKernel(v view, i64 func([]int64), i32 func([]int32), u8 func([]uint8)) {
	switch v.st.dtype {
	case Int64:
		i64(elems[int64](v))
	case Int32:
		i32(elems[int32](v))
	default: // Uint8, Bool
		u8(elems[uint8](v))
	}
}

// unaryI computes o = op(x) for the integer unary ops (Neg, Abs, ReLU).
func unaryI[I integer](op unaryOp, o, x []I) {
	x = x[:len(o)]
	for i, v := range x {
		switch op {
		case opNeg:
			o[i] = -v
		case opAbs:
			o[i] = max(v, -v)
		case opReLU:
			o[i] = max(v, 0)
		}
	}
}

// binaryI computes o = op(a, b) with broadcasting for the integer binary
// ops (Add, Sub, Mul, Max, Min, Eq, Gt and the broadcast copy).
func binaryI[I integer](op binaryOp, o, a, b []I, bc *broadcast) {
	if bc == nil {
		binContigI(op, o, a, b)
		return
	}
	eachRow(o, a, b, bc, func(o, a, b []I) { binContigI(op, o, a, b) },
		func(o, a []I, b I) { scalarI(op.right(), o, a, b) },
		func(o, b []I, a I) { scalarI(op.left(), o, b, a) })
}

func binContigI[I integer](op binaryOp, o, a, b []I) {
	a, b = a[:len(o)], b[:len(o)]
	for i := range o {
		switch op {
		case opAdd:
			o[i] = a[i] + b[i]
		case opSub:
			o[i] = a[i] - b[i]
		case opMul:
			o[i] = a[i] * b[i]
		case opMax:
			o[i] = max(a[i], b[i])
		case opMin:
			o[i] = min(a[i], b[i])
		case opEq:
			o[i] = b2f[I](a[i] == b[i])
		case opGt:
			o[i] = b2f[I](a[i] > b[i])
		case opLeft:
			o[i] = a[i]
		}
	}
}

// scalarI computes o = op(x, s) for the integer scalar ops.
func scalarI[I integer](op scalarOp, o, x []I, s I) {
	x = x[:len(o)]
	for i, v := range x {
		switch op {
		case opAddS:
			o[i] = v + s
		case opSubS:
			o[i] = v - s
		case opRSubS:
			o[i] = s - v
		case opMulS:
			o[i] = v * s
		case opMaxS:
			o[i] = max(v, s)
		case opMinS:
			o[i] = min(v, s)
		case opEqS:
			o[i] = b2f[I](v == s)
		case opGtS:
			o[i] = b2f[I](v > s)
		case opLtS:
			o[i] = b2f[I](v < s)
		case opKeepS:
			o[i] = v
		case opSetS:
			o[i] = s
		}
	}
}

// reduceI reduces x [outer, n, inner] over its middle axis into o (Sum,
// with the ops layer passing Int64 so the sum does not overflow a
// narrower type, or Max).
func reduceI[I integer](op reduceOp, o, x []I, outer, n, inner int) {
	for p := range outer {
		os, xs := o[p*inner:(p+1)*inner], x[p*n*inner:(p+1)*n*inner]
		copy(os, xs[:inner])
		for j := 1; j < n; j++ {
			for i, v := range xs[j*inner : (j+1)*inner] {
				if op == opSum {
					os[i] += v
				} else {
					os[i] = max(os[i], v)
				}
			}
		}
	}
}

// argMax writes into o [outer, inner] the index of the first maximum of x
// [outer, n, inner] along its middle axis; a NaN counts as the maximum
// (its first occurrence), as in PyTorch.
func argMax[T number](o []int64, x []T, outer, n, inner int) {
	for p := range outer {
		os, xs := o[p*inner:(p+1)*inner], x[p*n*inner:(p+1)*n*inner]
		best := append([]T(nil), xs[:inner]...)
		clear(os)
		for j := 1; j < n; j++ {
			for i, v := range xs[j*inner : (j+1)*inner] {
				if v > best[i] || (v != v && best[i] == best[i]) {
					best[i], os[i] = v, int64(j)
				}
			}
		}
	}
}
