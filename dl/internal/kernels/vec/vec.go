package vec

import (
	"fmt"
	"math"
)

// Axpy sets y[i] += alpha*x[i] (BLAS saxpy with unit strides), rounding
// the product and then the sum like the Go expression.  It panics if
// len(x) != len(y).
func Axpy(alpha float32, x, y []float32) {
	check("Axpy", len(x), len(y))
	n := axpyVec(alpha, x, y)
	axpyGeneric(alpha, x[n:], y[n:])
}

// ReLU sets dst[i] = max(src[i], 0), like torch.relu: NaN stays NaN and
// −0 becomes +0.  dst and src may be the same slice.  It panics if
// len(dst) != len(src).
func ReLU(dst, src []float32) {
	check("ReLU", len(dst), len(src))
	n := reluVec(dst, src)
	reluGeneric(dst[n:], src[n:])
}

// ReLUGrad sets dst[i] = g[i] where y[i] > 0 (including +Inf and NaNs
// with the sign bit clear) and +0 elsewhere: the gradient of y = relu(x)
// from its output.  The test is on the bits of y as an int32, whose
// negation must be negative, so y = −0 (0x80000000, which ReLU never
// produces) also passes g.  It panics unless the lengths are equal.
func ReLUGrad(dst, g, y []float32) {
	check("ReLUGrad", len(dst), len(g))
	check("ReLUGrad", len(dst), len(y))
	n := reluGradVec(dst, g, y)
	reluGradGeneric(dst[n:], g[n:], y[n:])
}

// Add sets dst[i] = a[i] + b[i]; dst may be a or b.  It panics unless the
// lengths are equal.
func Add(dst, a, b []float32) {
	check("Add", len(dst), len(a))
	check("Add", len(dst), len(b))
	n := addVec(dst, a, b)
	addGeneric(dst[n:], a[n:], b[n:])
}

func check(op string, a, b int) {
	if a != b {
		panic(fmt.Sprintf("vec: %s: slice lengths %d and %d differ; pass slices of equal length", op, a, b))
	}
}

// Max returns the largest element of x, NaN if any element is NaN, and
// −Inf for an empty x, like math.Max over the slice (except that when the
// largest value is a zero its sign is unspecified: the vector loop keeps
// whichever zero it met).
func Max(x []float32) float32 {
	m, nan, n := maxVec(x)
	for _, v := range x[n:] {
		if v != v {
			nan = true
		}
		m = max(m, v)
	}
	if nan {
		return float32(math.NaN())
	}
	return m
}

// Sum64 returns Σ x in float64, summed over 16 lanes as LayerNormRow's
// mean (the same bits with and without AVX-512).
func Sum64[F Float](x []F) float64 { return sum64(x) }

// SqDev64 returns Σ (x − c)² in float64, summed as Sum64.
func SqDev64[F Float](x []F, c float64) float64 { return sqDev64(x, c) }

// Affine sets dst[i] = a·x[i] + b, each operation rounded to float32 (a
// per-channel scale and shift: BatchNorm's normalisation).  It panics
// unless the lengths are equal.
func Affine(dst, x []float32, a, b float32) {
	check("Affine", len(dst), len(x))
	n := affineVec(dst, x, a, b)
	affineGeneric(dst[n:], x[n:], a, b)
}

// Affine2 sets dst[i] = (a·x[i] + b·y[i]) + c, each operation rounded to
// float32 (BatchNorm's input gradient).  It panics unless the lengths are
// equal.
func Affine2(dst, x, y []float32, a, b, c float32) {
	check("Affine2", len(dst), len(x))
	check("Affine2", len(dst), len(y))
	n := affine2Vec(dst, x, y, a, b, c)
	affine2Generic(dst[n:], x[n:], y[n:], a, b, c)
}
