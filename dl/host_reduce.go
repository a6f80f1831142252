package dl

import (
	"math"

	"github.com/dlbd/dlbd/dl/internal/kernels/vec"
)

func (hostBackend) reduce(op reduceOp, dst, src view, outer, n, inner int) {
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
			copy(os, xs[:inner])
			for j := 1; j < n; j++ {
				addRow(os, xs[j*inner:(j+1)*inner])
			}
		case opMaxR, opArgMax:
			reduceMaxRows(op, os, xs, n, inner)
		}
	}
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
	case opSum:
		var acc float64
		for _, v := range xs {
			acc += float64(v)
		}
		return F(acc)
	default:
		best, arg := F(math.Inf(-1)), 0
		for i, v := range xs {
			if v > best || (v != v && best == best) {
				best, arg = v, i
			}
		}
		if op == opArgMax {
			return F(arg)
		}
		if len(xs) > 0 && arg == 0 {
			best = xs[0]
		}
		return best
	}
}

// reduceMaxRows computes the elementwise maximum (or its first index) of
// n rows of length inner.
func reduceMaxRows[F float](op reduceOp, os, xs []F, n, inner int) {
	best := make([]F, inner)
	copy(best, xs[:inner])
	if op == opArgMax {
		clear(os)
	}
	for j := 1; j < n; j++ {
		row := xs[j*inner : (j+1)*inner]
		for i, v := range row {
			if v > best[i] || (v != v && best[i] == best[i]) {
				best[i] = v
				if op == opArgMax {
					os[i] = F(j)
				}
			}
		}
	}
	if op == opMaxR {
		copy(os, best)
	}
}
