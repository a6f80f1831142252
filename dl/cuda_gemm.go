package dl

import (
	"fmt"

	"github.com/dlbd/dlbd/dl/internal/cuda"
)

// cudaGemmArgs describes Batch row-major products on one GPU:
// C_b = Alpha·op(A_b)·op(B_b) + Beta·C_b, where C_b is M×N, op(A_b) M×K
// and op(B_b) K×N, and item b of each operand starts Stride* elements
// after item b-1 (0: every item uses the same matrix). A and B share a
// dtype; C is that dtype or Float32.
type cudaGemmArgs struct {
	TransA, TransB            bool
	M, N, K                   int
	A, B, C                   cudaArray
	LDA, LDB, LDC             int // row strides as stored; 0: dense
	Batch                     int // 0 counts as 1
	StrideA, StrideB, StrideC int
	Alpha                     float64 // 0 counts as 1
	Beta                      float64
	// TF32 lets float32 products round their inputs to TF32 (10-bit
	// mantissa) on the tensor cores, like torch.backends.cuda.matmul.allow_tf32.
	TF32 bool
}

// cudaDataType maps a dtype to cuBLAS's element type.
func cudaDataType(d DType) cuda.DataType {
	return [...]cuda.DataType{Float32: cuda.R32F, Float64: cuda.R64F, Float16: cuda.R16F, BFloat16: cuda.R16BF}[d]
}

// cudaGemm runs g with cuBLAS: float32 through cublasSgemm (or TF32 tensor
// cores), float64 through cublasDgemm, and Float16/BFloat16 inputs through
// cublasGemmEx with float32 accumulation (CUBLAS_COMPUTE_32F): the
// tensor-core path that autocast uses.
func (c *cudaMem) cudaGemm(dev Device, g cudaGemmArgs) {
	ctx := c.context("MatMul", dev)
	h, err := ctx.BLAS()
	if err != nil {
		panic(cudaDeviceError("MatMul", err, dev))
	}
	if g.A.dtype != g.B.dtype || (g.C.dtype != g.A.dtype && g.C.dtype != Float32) || (g.A.dtype == Float64) != (g.C.dtype == Float64) {
		panic(&DTypeError{Op: "MatMul", DTypes: []DType{g.A.dtype, g.B.dtype, g.C.dtype},
			Reason: "cuBLAS multiplies A and B of one dtype into C of that dtype or float32", Fix: "cast the operands with .To(dtype)"})
	}
	op := func(t bool) cuda.Op {
		if t {
			return cuda.Trans
		}
		return cuda.NoTrans
	}
	compute := cuda.Compute32F
	if g.TF32 && g.A.dtype == Float32 {
		compute = cuda.Compute32FFastTF32
	}
	for b := range max(g.Batch, 1) {
		a, bm, cm := g.A, g.B, g.C
		a.off += b * g.StrideA
		bm.off += b * g.StrideB
		cm.off += b * g.StrideC
		err := h.RowMajorGemm(cuda.Gemm{
			TransA: op(g.TransA), TransB: op(g.TransB), M: g.M, N: g.N, K: g.K,
			A: a.ptr(), B: bm.ptr(), C: cm.ptr(), LDA: g.LDA, LDB: g.LDB, LDC: g.LDC,
			AType: cudaDataType(a.dtype), BType: cudaDataType(bm.dtype), CType: cudaDataType(cm.dtype),
			Compute: compute, Alpha: g.Alpha, Beta: g.Beta,
		})
		if err != nil {
			panic(cudaDeviceError("MatMul", fmt.Errorf("batch item %d of %d: %w", b, max(g.Batch, 1), err), dev))
		}
	}
}
