package f32_test

import (
	"fmt"

	"gonum.org/v1/gonum/blas"

	"github.com/dlbd/dlbd/dl/internal/kernels/f32"
)

// C = A·B for A 2x3 and B 3x2, row-major.
func ExampleGemm() {
	a := []float32{1, 2, 3, 4, 5, 6}
	b := []float32{7, 8, 9, 10, 11, 12}
	c := make([]float32, 4)
	f32.Gemm(blas.NoTrans, blas.NoTrans, 2, 2, 3, 1, a, 3, b, 2, 0, c, 2)
	fmt.Println(c)
	// Output: [58 64 139 154]
}

// The same product with every kernel, and A·Aᵀ with the transpose flag.
func ExampleGemmWith() {
	a := []float32{1, 2, 3, 4, 5, 6}
	b := []float32{7, 8, 9, 10, 11, 12}
	for _, k := range []f32.Kernel{f32.Naive, f32.Blocked, f32.Gonum} {
		c := make([]float32, 4)
		f32.GemmWith(k, blas.NoTrans, blas.NoTrans, 2, 2, 3, 1, a, 3, b, 2, 0, c, 2)
		fmt.Println(k, c)
	}
	aat := make([]float32, 4)
	f32.GemmWith(f32.Naive, blas.NoTrans, blas.Trans, 2, 2, 3, 1, a, 3, a, 3, 0, aat, 2)
	fmt.Println("A·Aᵀ", aat)
	// Output:
	// naive [58 64 139 154]
	// blocked [58 64 139 154]
	// gonum [58 64 139 154]
	// A·Aᵀ [14 32 32 77]
}
