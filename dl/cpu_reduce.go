package dl

import (
	"math"

	"github.com/dlbd/dlbd/dl/internal/kernels/f32"
	"github.com/dlbd/dlbd/dl/internal/kernels/vec"
)

func (cpuBackend) reduce(op reduceOp, dst, src view, outer, n, inner int) {
	if op == opArgMax { // dst is Int64 on host devices
		o := elems[int64](dst)
		switch src.st.dtype {
		case Float64:
			argMax(o, src.f64(), outer, n, inner)
		case Float32:
			argMax(o, src.f32(), outer, n, inner)
		default:
			intKernel(src, func(x []int64) { argMax(o, x, outer, n, inner) },
				func(x []int32) { argMax(o, x, outer, n, inner) }, func(x []uint8) { argMax(o, x, outer, n, inner) })
		}
		return
	}
	if src.st.dtype.isInt() {
		intKernel(dst, func(o []int64) { reduceI(op, o, elems[int64](src), outer, n, inner) },
			func(o []int32) { reduceI(op, o, elems[int32](src), outer, n, inner) },
			func(o []uint8) { reduceI(op, o, elems[uint8](src), outer, n, inner) })
		return
	}
	if src.st.dtype == Float64 {
		reduceF(op, dst.f64(), src.f64(), outer, n, inner)
	} else {
		reduceF(op, dst.f32(), src.f32(), outer, n, inner)
	}
}

// reduceF reduces x [outer, n, inner] over its middle axis into o [outer,
// inner].  With inner == 1 each output is a reduction of a contiguous row
// (accumulated in float64); otherwise rows of length inner are combined
// elementwise, which keeps the loops contiguous.
func reduceF[F float](op reduceOp, o, x []F, outer, n, inner int) {
	for p := 0; p < outer; p++ {
		xs := x[p*n*inner : (p+1)*n*inner]
		os := o[p*inner : (p+1)*inner]
		if inner == 1 {
			os[0] = reduceRow(op, xs)
			continue
		}
		switch op {
		case opSum:
			columnPieces(n, inner, func(lo, hi int) {
				copy(os[lo:hi], xs[lo:hi])
				for j := 1; j < n; j++ {
					addRow(os[lo:hi], xs[j*inner+lo:j*inner+hi])
				}
			})
		case opMaxR:
			reduceMaxRows(os, xs, n, inner)
		}
	}
}

// columnPieces runs f on pieces [lo, hi) of the inner columns of n rows
// on dl's threads (f32.ForEach), each piece a multiple of 16 columns
// with at least f32.ElementGrain elements of the rows: a sum of rows
// (a bias's gradient over 1024 rows) then adds each column's rows in the
// same order on any number of threads.
func columnPieces(n, inner int, f func(lo, hi int)) {
	pieces := min(f32.Threads(), n*inner/f32.ElementGrain, inner/16)
	if pieces <= 1 {
		f(0, inner)
		return
	}
	step := ((inner+pieces-1)/pieces + 15) &^ 15
	f32.ForEach((inner+step-1)/step, func(i int) error {
		f(i*step, min((i+1)*step, inner))
		return nil
	})
}

// addRow sets os[i] += row[i] (vectorised for float32: the same sums, in
// the same order).
func addRow[F float](os, row []F) {
	if os, ok := any(os).([]float32); ok {
		vec.Add(os, os, any(row).([]float32))
		return
	}
	for i, v := range row {
		os[i] += v
	}
}

func reduceRow[F float](op reduceOp, xs []F) F {
	switch op {
	case opSum: // in float64 over 16 lanes (AVX-512 for float32)
		return F(vec.Sum64(xs))
	default:
		best, arg := F(math.Inf(-1)), 0
		for i, v := range xs {
			if v > best || (v != v && best == best) {
				best, arg = v, i
			}
		}
		if len(xs) > 0 && arg == 0 {
			best = xs[0]
		}
		return best
	}
}

// reduceMaxRows computes the elementwise maximum of n rows of length
// inner (NaN propagates).  ArgMax has its own kernel (argMax, cpu_int.go).
func reduceMaxRows[F float](os, xs []F, n, inner int) {
	copy(os, xs[:inner])
	for j := 1; j < n; j++ {
		for i, v := range xs[j*inner : (j+1)*inner] {
			if v > os[i] || (v != v && os[i] == os[i]) {
				os[i] = v
			}
		}
	}
}
