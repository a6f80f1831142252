package dl

import (
	"math"

	"github.com/dlbd/dlbd/dl/internal/kernels/vec"
)

// softmaxPrefix replaces row[:n] by its softmax and the rest of row by
// zeros (the masked keys), and returns log Σ exp(row[:n]).  Float32 rows
// go through vec (Max, ExpSum, ExpScale: sums in float64), whose vector
// loops take 32 elements at a time: row[n:] up to the next multiple of 32
// is set to −Inf first, which they turn into exact zeros (exp64 is 0
// below −707), so a row's tail does not fall to the scalar exp64.
// Float64 rows use math.Exp.
func softmaxPrefix[F float](row []F, n int) float64 {
	if r32, ok := any(row).([]float32); ok {
		m := float64(vec.Max(r32[:n]))
		w := padMasked(r32, n)
		s := vec.ExpSum(r32[:w], m)
		vec.ExpScale(r32[:w], r32[:w], m, 1/s)
		return m + math.Log(s)
	}
	clear(row[n:])
	row = row[:n]
	m := math.Inf(-1)
	for _, v := range row {
		m = max(m, float64(v))
	}
	var s float64
	for i, v := range row {
		e := math.Exp(float64(v) - m)
		row[i] = F(e)
		s += e
	}
	for i := range row {
		row[i] = F(float64(row[i]) / s)
	}
	return m + math.Log(s)
}

// attnRowDots sets dd[(bi·h + j)·t + r] = D = Σ dY·Y over head j's columns
// of row r of batch item bi, for every head j and row r, from the output
// y and its gradient gy ([B, T, d], heads side by side).  It reads the
// item's rows in memory order, which the hardware prefetcher streams:
// computed per query block inside the (item, head) loop instead, every
// row's d/h columns came from memory a cache line at a time (6 ms of the
// 549 ms float32 training step at d=512, T=128).  Float32 rows go through
// vec.Dot64 (float64 lanes), float64 rows through the same sum in Go.
func attnRowDots[F float](g attnGeom, bi int, y, gy []F, dd []float64) {
	for r := range g.t {
		off := (bi*g.t + r) * g.d
		headDots(g, y[off:off+g.d], gy[off:off+g.d], dd[bi*g.h*g.t+r:])
	}
}

// headDots sets out[j·t] = Σ dY·Y over head j's columns of one row of y
// and gy (d values each), for every head j: the row's D in attnRowDots's
// layout.
func headDots[F float](g attnGeom, yr, gr []F, out []float64) {
	for j := range g.h {
		out[j*g.t] = dot64(gr[j*g.dh:(j+1)*g.dh], yr[j*g.dh:(j+1)*g.dh])
	}
}

// dot64 is Σ a[i]·b[i] in float64: vec.Dot64 for float32.
func dot64[F float](a, b []F) float64 {
	if a32, ok := any(a).([]float32); ok {
		return vec.Dot64(a32, any(b).([]float32))
	}
	var s float64
	for i, v := range a {
		s += float64(v) * float64(b[i])
	}
	return s
}

// softmaxGradRow sets dr[:n] to dS = P·(dP − D)·scale from the
// probabilities pr, dP in dr and the row's D = Σ dY·Y (attnRowDots), and
// dr[n:] to 0 (the masked keys).  Float32 rows go through vec.SoftmaxGrad
// (float64 arithmetic in AVX-512 lanes), float64 rows through the same
// formula in Go.
func softmaxGradRow[F float](dr, pr []F, dd float64, n int, scale float64) {
	if d32, ok := any(dr).([]float32); ok {
		vec.SoftmaxGrad(d32[:n], any(pr).([]float32)[:n], dd, scale)
		clear(d32[n:])
		return
	}
	for j, pv := range pr[:n] {
		dr[j] = F(float64(pv) * (float64(dr[j]) - dd) * scale)
	}
	clear(dr[n:])
}

// expShift sets row[i] = exp(row[i] − shift) for i < n and row[i] = 0
// beyond (float32 rows padded with −Inf as in softmaxPrefix).
func expShift[F float](row []F, n int, shift float64) {
	if r32, ok := any(row).([]float32); ok {
		w := padMasked(r32, n)
		vec.ExpScale(r32[:w], r32[:w], shift, 1)
		return
	}
	clear(row[n:])
	for i, v := range row[:n] {
		row[i] = F(math.Exp(float64(v) - shift))
	}
}

// padMasked sets row[n:w] to −Inf and row[w:] to 0, with w the multiple
// of 32 at or above n (at most len(row)), and returns w.
func padMasked(row []float32, n int) int {
	w := min(len(row), (n+31)&^31)
	inf := float32(math.Inf(-1))
	for i := n; i < w; i++ {
		row[i] = inf
	}
	clear(row[w:])
	return w
}
