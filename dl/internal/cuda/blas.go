package cuda

import (
	"fmt"
	"unsafe"
)

// cuBLAS (libcublas), bound at run time.
//
// Trap: libcublas still exports the legacy, handle-less API of CUDA 1-3
// under the documented names (cublasSgemm takes no handle!). cublas_v2.h
// #defines the handle API to the _v2 symbols, so the table names those.
// cublasGemmEx has 19 parameters: it needs purego >= v0.11 (15 before).
var (
	cublasCreate          func(h *uintptr) int32
	cublasDestroy         func(h uintptr) int32
	cublasSetStream       func(h, s uintptr) int32
	cublasSetMathMode     func(h uintptr, mode int32) int32
	cublasGetVersion      func(h uintptr, v *int32) int32
	cublasSgemm           func(h uintptr, ta, tb, m, n, k int32, alpha *float32, a uint64, lda int32, b uint64, ldb int32, beta *float32, c uint64, ldc int32) int32
	cublasDgemm           func(h uintptr, ta, tb, m, n, k int32, alpha *float64, a uint64, lda int32, b uint64, ldb int32, beta *float64, c uint64, ldc int32) int32
	cublasGemmEx          func(h uintptr, ta, tb, m, n, k int32, alpha unsafe.Pointer, a uint64, at, lda int32, b uint64, bt, ldb int32, beta unsafe.Pointer, c uint64, ct, ldc, compute, algo int32) int32
	cublasGetStatusName   func(s int32) string
	cublasGetStatusString func(s int32) string
)

var blasSymbols = []symbol{
	sym(&cublasCreate, "cublasCreate_v2"),
	sym(&cublasDestroy, "cublasDestroy_v2"),
	sym(&cublasSetStream, "cublasSetStream_v2"),
	sym(&cublasSetMathMode, "cublasSetMathMode"),
	sym(&cublasGetVersion, "cublasGetVersion_v2"),
	sym(&cublasSgemm, "cublasSgemm_v2"),
	sym(&cublasDgemm, "cublasDgemm_v2"),
	sym(&cublasGemmEx, "cublasGemmEx"),
	// Since cuBLAS 11.4; older ones get names from blasStatusNames.
	opt(&cublasGetStatusName, "cublasGetStatusName"),
	opt(&cublasGetStatusString, "cublasGetStatusString"),
}

var cublas = &library{spec: specBLAS, syms: blasSymbols}

// LoadBLAS loads cuBLAS (once). Loading needs no GPU; creating a handle does.
func LoadBLAS() error { return cublas.load() }

// Op says whether cuBLAS reads a matrix as stored or transposed.
type Op int32

// cublasOperation_t values.
const (
	NoTrans Op = 0 // CUBLAS_OP_N
	Trans   Op = 1 // CUBLAS_OP_T
)

// DataType is a cudaDataType_t: the element type of a GemmEx operand.
type DataType int32

// cudaDataType_t values (library_types.h). The zero value is float32.
const (
	R32F  DataType = 0  // CUDA_R_32F, float
	R64F  DataType = 1  // CUDA_R_64F, double (Dgemm only here)
	R16F  DataType = 2  // CUDA_R_16F, IEEE half
	R16BF DataType = 14 // CUDA_R_16BF, bfloat16
)

// ComputeType is a cublasComputeType_t: the precision products are summed in.
type ComputeType int32

// The float32-accumulating compute types (cublas_api.h). alpha and beta
// are float32 for all of them, which is what GemmEx passes.
const (
	Compute32F         ComputeType = 68 // CUBLAS_COMPUTE_32F: fp32 sums (fp16/bf16 inputs use tensor cores)
	Compute32FPedantic ComputeType = 69 // CUBLAS_COMPUTE_32F_PEDANTIC: no reduced-precision shortcuts
	Compute32FFastTF32 ComputeType = 77 // CUBLAS_COMPUTE_32F_FAST_TF32: fp32 inputs rounded to TF32 (10-bit mantissa)
)

// Math is a cublasMath_t, the handle's math mode for Sgemm.
type Math int32

// cublasMath_t values.
const (
	DefaultMath Math = 0 // CUBLAS_DEFAULT_MATH: true fp32 Sgemm
	TF32Math    Math = 3 // CUBLAS_TF32_TENSOR_OP_MATH: Sgemm on tensor cores with TF32 inputs
)

// gemmDefault is CUBLAS_GEMM_DEFAULT: let cuBLAS pick the algorithm.
const gemmDefault = -1

// BLAS is a cuBLAS handle bound to one context. cuBLAS allocates its own
// workspace on first use; that memory shows in MemInfo, not in any
// allocation counted by callers of Alloc.
type BLAS struct {
	c *Context
	h uintptr
}

// BLAS returns the context's cuBLAS handle, creating it on first use.
func (c *Context) BLAS() (*BLAS, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.blas != nil {
		return c.blas, nil
	}
	if err := LoadBLAS(); err != nil {
		return nil, err
	}
	b := &BLAS{c: c}
	if err := c.Do(func() error { return blasCheck(cublasCreate(&b.h), "cublasCreate_v2", c.name()) }); err != nil {
		return nil, err
	}
	c.blas = b
	return b, nil
}

// Version returns cuBLAS's version, e.g. 131000 for 13.10.0.
func (b *BLAS) Version() (int, error) {
	var v int32
	err := b.c.Do(func() error { return blasCheck(cublasGetVersion(b.h, &v), "cublasGetVersion_v2", "") })
	return int(v), err
}

// SetStream makes later calls queue on s.
func (b *BLAS) SetStream(s Stream) error {
	return b.c.Do(func() error { return blasCheck(cublasSetStream(b.h, uintptr(s)), "cublasSetStream_v2", "") })
}

// SetMath selects true fp32 (DefaultMath) or TF32 tensor cores (TF32Math)
// for Sgemm: PyTorch's torch.backends.cuda.matmul.allow_tf32.
func (b *BLAS) SetMath(m Math) error {
	return b.c.Do(func() error { return blasCheck(cublasSetMathMode(b.h, int32(m)), "cublasSetMathMode", fmt.Sprint(m)) })
}

// Sgemm computes C = alpha·op(A)·op(B) + beta·C in float32, with cuBLAS's
// column-major conventions (C is m×n, lda/ldb/ldc count elements between
// columns). See RowMajorGemm for dl's row-major layout.
func (b *BLAS) Sgemm(ta, tb Op, m, n, k int, alpha float32, a DevPtr, lda int, bm DevPtr, ldb int, beta float32, c DevPtr, ldc int) error {
	return b.c.Do(func() error {
		return blasCheck(cublasSgemm(b.h, int32(ta), int32(tb), int32(m), int32(n), int32(k), &alpha, uint64(a), int32(lda),
			uint64(bm), int32(ldb), &beta, uint64(c), int32(ldc)), "cublasSgemm_v2", fmt.Sprintf("m=%d n=%d k=%d", m, n, k))
	})
}

// Dgemm is Sgemm in float64.
func (b *BLAS) Dgemm(ta, tb Op, m, n, k int, alpha float64, a DevPtr, lda int, bm DevPtr, ldb int, beta float64, c DevPtr, ldc int) error {
	return b.c.Do(func() error {
		return blasCheck(cublasDgemm(b.h, int32(ta), int32(tb), int32(m), int32(n), int32(k), &alpha, uint64(a), int32(lda),
			uint64(bm), int32(ldb), &beta, uint64(c), int32(ldc)), "cublasDgemm_v2", fmt.Sprintf("m=%d n=%d k=%d", m, n, k))
	})
}

// GemmEx is Sgemm with chosen element types for A, B and C and a
// float32-accumulating compute type: bf16 or fp16 inputs with fp32 sums
// run on the tensor cores (what autocast uses).
func (b *BLAS) GemmEx(ta, tb Op, m, n, k int, alpha float32, a DevPtr, at DataType, lda int, bm DevPtr, bt DataType, ldb int,
	beta float32, c DevPtr, ct DataType, ldc int, compute ComputeType) error {
	if compute != Compute32F && compute != Compute32FPedantic && compute != Compute32FFastTF32 {
		return fmt.Errorf("cuda: GemmEx compute type %d: only the float32-accumulating types are supported (alpha and beta are float32)", compute)
	}
	return b.c.Do(func() error {
		return blasCheck(cublasGemmEx(b.h, int32(ta), int32(tb), int32(m), int32(n), int32(k), unsafe.Pointer(&alpha),
			uint64(a), int32(at), int32(lda), uint64(bm), int32(bt), int32(ldb), unsafe.Pointer(&beta), uint64(c), int32(ct), int32(ldc),
			int32(compute), gemmDefault), "cublasGemmEx", fmt.Sprintf("m=%d n=%d k=%d types %d,%d->%d", m, n, k, at, bt, ct))
	})
}

// blasStatusNames names cublasStatus_t values for cuBLAS versions
// without cublasGetStatusName.
var blasStatusNames = map[int]string{
	1: "CUBLAS_STATUS_NOT_INITIALIZED", 3: "CUBLAS_STATUS_ALLOC_FAILED", 7: "CUBLAS_STATUS_INVALID_VALUE",
	8: "CUBLAS_STATUS_ARCH_MISMATCH", 11: "CUBLAS_STATUS_MAPPING_ERROR", 13: "CUBLAS_STATUS_EXECUTION_FAILED",
	14: "CUBLAS_STATUS_INTERNAL_ERROR", 15: "CUBLAS_STATUS_NOT_SUPPORTED", 16: "CUBLAS_STATUS_LICENSE_ERROR",
}

// blasCheck turns a cublasStatus_t into nil or an *Error.
func blasCheck(s int32, call, detail string) error {
	if s == 0 {
		return nil
	}
	e := &Error{Lib: "cublas", Call: call, Detail: detail, Code: int(s), Name: blasStatusNames[int(s)]}
	if cublasGetStatusName != nil {
		e.Name = cublasGetStatusName(s)
	}
	if cublasGetStatusString != nil {
		e.Msg = cublasGetStatusString(s)
	}
	if s == cublasStatusAlloc {
		e.kind = ErrOutOfMemory
	}
	return e
}
