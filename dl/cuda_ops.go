package dl

// The kernels interface of backend.go on CUDA devices: each method maps
// dl's op codes to the kernel families of cuda_kernels.cu.

import (
	"fmt"

	"github.com/dlbd/dlbd/dl/internal/cuda"
)

var _ kernels = (*cudaMem)(nil)

var (
	cudaUnaryOf = [...]cudaFn{opNeg: cudaNeg, opExp: cudaExp, opLog: cudaLog, opSqrt: cudaSqrt, opRsqrt: cudaRsqrt,
		opTanh: cudaTanh, opSigmoid: cudaSigmoid, opReLU: cudaReLU, opAbs: cudaAbs, opGELU: cudaGELU, opGELUTanh: cudaGELUTanh}
	cudaBinaryOf = [...]cudaFn{opAdd: cudaAdd, opSub: cudaSub, opMul: cudaMul, opDiv: cudaDiv, opPow: cudaPow,
		opMax: cudaMax, opMin: cudaMin, opEq: cudaEq, opGt: cudaGt, opLeft: cudaLeft, opReLUGrad: cudaReLUGrad,
		opSigmoidGrad: cudaSigmoidGrad, opTanhGrad: cudaTanhGrad, opGELUGrad: cudaGELUGrad, opGELUTanhGrad: cudaGELUTanhGrad}
	cudaScalarOf = [...]cudaFn{opAddS: cudaAddS, opSubS: cudaSubS, opRSubS: cudaRSubS, opMulS: cudaMulS, opDivS: cudaDivS,
		opRDivS: cudaRDivS, opPowS: cudaPowS, opRPowS: cudaRPowS, opMaxS: cudaMaxS, opMinS: cudaMinS, opEqS: cudaEqS,
		opGtS: cudaGtS, opLtS: cudaLtS, opKeepS: cudaKeepS, opSetS: cudaSetS}
	cudaReduceOf = [...]cudaFn{opSum: cudaReduceSum, opMaxR: cudaReduceMax, opArgMax: cudaArgMax}
)

// arr is the device array behind a view.
func arr(v view) cudaArray { return cudaArray{buf: v.st.blk.buf, off: v.off, dtype: v.st.dtype} }

func (c *cudaMem) fill(dst view, v float64) { c.cudaFill(dst.st.dev, arr(dst), dst.n, v) }

func (c *cudaMem) cast(dst, src view) { c.cudaCast(dst.st.dev, arr(dst), arr(src), dst.n) }

func (c *cudaMem) unary(op unaryOp, dst, src view) {
	c.cudaUnary(dst.st.dev, cudaUnaryOf[op], arr(dst), arr(src), dst.n)
}

func (c *cudaMem) binary(op binaryOp, dst, a, b view, bc *broadcast) {
	if bc == nil {
		c.cudaBinary(dst.st.dev, cudaBinaryOf[op], arr(dst), arr(a), arr(b), dst.n, nil, nil, nil)
		return
	}
	c.cudaBinary(dst.st.dev, cudaBinaryOf[op], arr(dst), arr(a), arr(b), dst.n, bc.dims, bc.sa, bc.sb)
}

func (c *cudaMem) scalar(op scalarOp, dst, src view, s float64) {
	c.cudaScalar(dst.st.dev, cudaScalarOf[op], arr(dst), arr(src), dst.n, s)
}

func (c *cudaMem) reduce(op reduceOp, dst, src view, outer, n, inner int) {
	c.cudaReduce(dst.st.dev, cudaReduceOf[op], arr(dst), arr(src), outer, n, inner)
}

func (c *cudaMem) permute(dst, src view, dims, perm []int) {
	c.cudaPermute(dst.st.dev, arr(dst), arr(src), dims, perm)
}

// gemm ignores the host kernel choice k: on a GPU it is always cuBLAS.
// TF32 stays off, so float32 products are true fp32, as on the CPU.
func (c *cudaMem) gemm(_ MatMulKernel, g *gemmArgs) {
	c.cudaGemm(g.c.st.dev, cudaGemmArgs{TransA: g.transA, TransB: g.transB, M: g.m, N: g.n, K: g.k,
		A: arr(g.a), B: arr(g.b), C: arr(g.c), LDA: g.lda, LDB: g.ldb, LDC: g.ldc,
		Batch: g.batch, StrideA: g.strideA, StrideB: g.strideB, StrideC: g.strideC, Alpha: g.alpha, Beta: g.beta})
}

// indexSelect and indexAdd copy the host's row numbers to the GPU first
// (as int64: the kernels' i64).
func (c *cudaMem) indexSelect(dst, src view, idx []int, rowLen int) {
	c.indexKernel("IndexSelect", fmt.Sprintf("index_select_b%d", dst.st.dtype.Size()), dst, src, idx, rowLen)
}

func (c *cudaMem) indexAdd(dst, src view, idx []int, rowLen int) {
	c.indexKernel("IndexAdd", "index_add_"+cudaSuffix(dst.st.dtype), dst, src, idx, rowLen)
}

func (c *cudaMem) indexKernel(op, name string, dst, src view, idx []int, rowLen int) {
	if len(idx) == 0 || rowLen == 0 {
		return
	}
	dev := dst.st.dev
	ctx := c.context(op, dev)
	rows := make([]int64, len(idx))
	for i, r := range idx {
		rows[i] = int64(r)
	}
	d, err := ctx.Alloc(int64(8 * len(rows)))
	if err != nil {
		panic(cudaDeviceError(op, err, dev))
	}
	defer func() { // wait for the kernel that reads d before freeing it
		ctx.Synchronize()
		ctx.Free(d)
	}()
	if err := cuda.Upload(ctx, d, rows); err != nil {
		panic(cudaDeviceError(op, err, dev))
	}
	c.launch(op, dev, name, len(idx)*rowLen, arr(src).ptr(), arr(dst).ptr(), d, int64(len(idx)), int64(rowLen))
}

func (c *cudaMem) where(dst, cond, a, b view) {
	c.launch("Where", dst.st.dev, "where_"+cudaSuffix(dst.st.dtype), dst.n,
		arr(cond).ptr(), arr(a).ptr(), arr(b).ptr(), arr(dst).ptr(), int64(dst.n))
}
