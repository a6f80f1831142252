//go:build !noasm

package vec

import "golang.org/x/sys/cpu"

// The AVX-512 loops in vec_amd64.s process n elements, n > 0 and a
// multiple of 16 (one zmm register); the Go wrappers below pass the
// longest such prefix and return its length, and the generic loops do the
// rest.

// axpyAVX512 is axpyGeneric on n elements: VMULPS then VADDPS (not
// VFMADD, which would round once and change the bits).
//
//go:noescape
func axpyAVX512(alpha float32, x, y *float32, n int)

// reluAVX512 is reluGeneric on n elements.
//
//go:noescape
func reluAVX512(dst, src *float32, n int)

// reluGradAVX512 is reluGradGeneric on n elements.
//
//go:noescape
func reluGradAVX512(dst, grad, y *float32, n int)

// addAVX512 is addGeneric on n elements.
//
//go:noescape
func addAVX512(dst, a, b *float32, n int)

var haveAVX512 = cpu.X86.HasAVX512F

// vectorLen returns the prefix of n the vector loops handle (0 without
// AVX-512).
func vectorLen(n int) int {
	if !haveAVX512 {
		return 0
	}
	return n &^ 15
}

func axpyVec(alpha float32, x, y []float32) int {
	n := vectorLen(len(y))
	if n > 0 {
		axpyAVX512(alpha, &x[0], &y[0], n)
	}
	return n
}

func reluVec(dst, src []float32) int {
	n := vectorLen(len(dst))
	if n > 0 {
		reluAVX512(&dst[0], &src[0], n)
	}
	return n
}

func reluGradVec(dst, g, y []float32) int {
	n := vectorLen(len(dst))
	if n > 0 {
		reluGradAVX512(&dst[0], &g[0], &y[0], n)
	}
	return n
}

func addVec(dst, a, b []float32) int {
	n := vectorLen(len(dst))
	if n > 0 {
		addAVX512(&dst[0], &a[0], &b[0], n)
	}
	return n
}
