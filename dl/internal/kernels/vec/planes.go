package vec

import "fmt"

// The *Rows functions run a loop of this package on rows rows of n
// float32, row r at x[r·stride:] (and the same offsets in the other
// slices): BatchNorm's planes of one channel across a batch, in one call
// instead of one per plane (a ResNet's 7×7 planes made 8,192 calls a
// channel pass).  The sums run in float64; their order differs from the
// per-row functions' (the partial sums of all rows share accumulators),
// within float64 rounding.  They panic if a slice is too short; rows or n
// of 0 is an empty loop.

// SumRows64 returns Σ x over the rows, in float64.
func SumRows64(x []float32, n, rows, stride int) float64 {
	if !checkRows("SumRows64", n, rows, stride, len(x)) {
		return 0
	}
	if s, ok := sumRowsVec(x, n, rows, stride); ok {
		return s
	}
	s := 0.0
	for r := range rows {
		s += Sum64(x[r*stride:][:n])
	}
	return s
}

// SqDevRows64 returns Σ (x − c)² over the rows, in float64.
func SqDevRows64(x []float32, n, rows, stride int, c float64) float64 {
	if !checkRows("SqDevRows64", n, rows, stride, len(x)) {
		return 0
	}
	if s, ok := sqDevRowsVec(x, n, rows, stride, c); ok {
		return s
	}
	s := 0.0
	for r := range rows {
		s += SqDev64(x[r*stride:][:n], c)
	}
	return s
}

// SumDotRows64 returns Σ g and Σ g·x over the rows, in float64.
func SumDotRows64(g, x []float32, n, rows, stride int) (s, sx float64) {
	if !checkRows("SumDotRows64", n, rows, stride, len(g), len(x)) {
		return 0, 0
	}
	if s, sx, ok := sumDotRowsVec(g, x, n, rows, stride); ok {
		return s, sx
	}
	for r := range rows {
		gr := g[r*stride:][:n]
		s += Sum64(gr)
		sx += Dot64(gr, x[r*stride:][:n])
	}
	return s, sx
}

// AffineRows is Affine on each row: dst = a·x + b.
func AffineRows(dst, x []float32, n, rows, stride int, a, b float32) {
	if !checkRows("AffineRows", n, rows, stride, len(dst), len(x)) || affineRowsVec(dst, x, n, rows, stride, a, b) {
		return
	}
	for r := range rows {
		Affine(dst[r*stride:][:n], x[r*stride:][:n], a, b)
	}
}

// Affine2Rows is Affine2 on each row: dst = (a·x + b·y) + c.
func Affine2Rows(dst, x, y []float32, n, rows, stride int, a, b, c float32) {
	if !checkRows("Affine2Rows", n, rows, stride, len(dst), len(x), len(y)) || affine2RowsVec(dst, x, y, n, rows, stride, a, b, c) {
		return
	}
	for r := range rows {
		o := r * stride
		Affine2(dst[o:][:n], x[o:][:n], y[o:][:n], a, b, c)
	}
}

// checkRows panics unless slices of these lengths hold the rows, and
// reports whether there is anything to do.
func checkRows(op string, n, rows, stride int, lens ...int) bool {
	if n < 0 || rows < 0 || (rows > 1 && stride < n) {
		panic(fmt.Sprintf("vec: %s: n=%d rows=%d stride=%d; want n, rows >= 0 and stride >= n", op, n, rows, stride))
	}
	if n == 0 || rows == 0 {
		return false
	}
	need := (rows-1)*stride + n
	for _, l := range lens {
		if l < need {
			panic(fmt.Sprintf("vec: %s: a slice of %d elements for %d rows of %d with stride %d; want at least %d", op, l, rows, n, stride, need))
		}
	}
	return true
}
