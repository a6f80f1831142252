package vec

import "math"

// The reference loops: the assembly must match them bit for bit, and they
// are the implementation without it (other architectures, -tags dlbd_noasm)
// and for the tail the vector loops leave.

// axpyGeneric is: for i := range y { y[i] += alpha * x[i] }.
func axpyGeneric(alpha float32, x, y []float32) {
	x = x[:len(y)]
	for i := range y {
		y[i] += alpha * x[i]
	}
}

// reluGeneric is: for i, v := range src { dst[i] = max(v, 0) }.
func reluGeneric(dst, src []float32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = max(v, 0)
	}
}

// reluGradGeneric is: dst[i] = g[i] if −int32(bits(y[i])) < 0, else +0.
// The mask (−bits)>>31 (arithmetic shift) is all ones exactly for positive
// integers and for 0x80000000 (−0, whose negation wraps to itself), so the
// loop has no branch (with random signs a branch is mispredicted half of
// the time).
func reluGradGeneric(dst, g, y []float32) {
	g, y = g[:len(dst)], y[:len(dst)]
	for i := range dst {
		m := uint32(-int32(math.Float32bits(y[i])) >> 31)
		dst[i] = math.Float32frombits(math.Float32bits(g[i]) & m)
	}
}

// addGeneric is: for i := range dst { dst[i] = a[i] + b[i] }.
func addGeneric(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] + b[i]
	}
}

// maxGeneric is Max's loop: the largest element (ignoring NaNs, which it
// reports), starting from −Inf.
func maxGeneric(x []float32) (m float32, nan bool) {
	m = float32(math.Inf(-1))
	for _, v := range x {
		if v != v {
			nan = true
			continue
		}
		m = max(m, v)
	}
	return m, nan
}

// affineGeneric is: for i := range dst { dst[i] = a*x[i] + b }.
func affineGeneric(dst, x []float32, a, b float32) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = a*x[i] + b
	}
}

// affine2Generic is: for i := range dst { dst[i] = a*x[i] + b*y[i] + c }.
func affine2Generic(dst, x, y []float32, a, b, c float32) {
	x, y = x[:len(dst)], y[:len(dst)]
	for i := range dst {
		dst[i] = a*x[i] + b*y[i] + c
	}
}
