package dl

import (
	_ "embed" // cuda_kernels.cu
	"fmt"
	"math/bits"

	"github.com/dlbd/dlbd/dl/internal/cuda"
	"github.com/dlbd/dlbd/dl/internal/kernels/half"
)

// cudaKernelSource is every CUDA kernel of the backend, compiled by NVRTC
// on first use for the GPU present (cached on disk afterwards).
//
//go:embed cuda_kernels.cu
var cudaKernelSource string

// cudaFn names a kernel family of cuda_kernels.cu; the launch adds the
// dtype suffix (relu -> relu_f32).
type cudaFn string

// Kernel families, as named in cuda_kernels.cu.
const (
	cudaNeg, cudaExp, cudaLog, cudaSqrt, cudaRsqrt, cudaTanh cudaFn = "neg", "exp", "log", "sqrt", "rsqrt", "tanh"
	cudaSigmoid, cudaReLU, cudaAbs, cudaGELU, cudaGELUTanh   cudaFn = "sigmoid", "relu", "abs", "gelu", "gelu_tanh"
	cudaAdd, cudaSub, cudaMul, cudaDiv, cudaPow, cudaMax     cudaFn = "add", "sub", "mul", "div", "pow", "max"
	cudaMin, cudaEq, cudaGt, cudaLeft                        cudaFn = "min", "eq", "gt", "left"
	cudaReLUGrad, cudaSigmoidGrad, cudaTanhGrad              cudaFn = "relu_grad", "sigmoid_grad", "tanh_grad"
	cudaGELUGrad, cudaGELUTanhGrad                           cudaFn = "gelu_grad", "gelu_tanh_grad"
	cudaAddS, cudaSubS, cudaRSubS, cudaMulS, cudaDivS        cudaFn = "add_s", "sub_s", "rsub_s", "mul_s", "div_s"
	cudaRDivS, cudaPowS, cudaRPowS, cudaMaxS, cudaMinS       cudaFn = "rdiv_s", "pow_s", "rpow_s", "max_s", "min_s"
	cudaEqS, cudaGtS, cudaLtS, cudaKeepS, cudaSetS           cudaFn = "eq_s", "gt_s", "lt_s", "keep_s", "set_s"
	cudaReduceSum, cudaReduceMax, cudaArgMax                 cudaFn = "reduce_sum", "reduce_max", "argmax"
)

// cudaArray is n elements of dtype in a device buffer, from element off.
type cudaArray struct {
	buf   buffer
	off   int
	dtype DType
}

func (a cudaArray) ptr() cuda.DevPtr {
	return cuda.DevPtr(a.buf.addr).Add(int64(a.off) * int64(a.dtype.Size()))
}

// cudaSuffix is the kernel-name suffix of a dtype.
func cudaSuffix(d DType) string { return [...]string{"f32", "f64", "f16", "bf16"}[d] }

const cudaBlock = 256 // threads per block; BLOCK in cuda_kernels.cu

// function returns kernel name on dev, compiling the source on first use.
func (c *cudaMem) function(op string, dev Device, name string) (*cuda.Context, cuda.Function) {
	ctx := c.context(op, dev)
	key := fmt.Sprintf("%d/%s", dev.Index(), name)
	c.mu.Lock()
	f, ok := c.fns[key]
	c.mu.Unlock()
	if !ok {
		var err error
		if f, err = ctx.Kernel(cudaKernelSource, name); err != nil {
			panic(cudaDeviceError(op, err, dev))
		}
		c.mu.Lock()
		c.fns[key] = f
		c.mu.Unlock()
	}
	return ctx, f
}

// launch runs an elementwise kernel over n elements: enough blocks of 256
// threads to give each thread one element, capped at 65536 blocks (the
// grid-stride loop covers the rest).
func (c *cudaMem) launch(op string, dev Device, name string, n int, args ...any) {
	if n == 0 {
		return
	}
	ctx, f := c.function(op, dev, name)
	blocks := min((n+cudaBlock-1)/cudaBlock, 1<<16)
	if err := ctx.Launch(f, cuda.Dim3{X: blocks}, cuda.Dim3{X: cudaBlock}, 0, 0, args...); err != nil {
		panic(cudaDeviceError(op, err, dev))
	}
}

// cudaFill sets n elements of dst to v (rounded to dst's dtype on the host).
func (c *cudaMem) cudaFill(dev Device, dst cudaArray, n int, v float64) {
	switch dst.dtype {
	case Float32:
		c.launch("Fill", dev, "fill_f32", n, dst.ptr(), float32(v), int64(n))
	case Float64:
		c.launch("Fill", dev, "fill_f64", n, dst.ptr(), v, int64(n))
	case Float16:
		c.launch("Fill", dev, "fill_u16", n, dst.ptr(), uint32(half.Float32ToFloat16(float32(v))), int64(n))
	case BFloat16:
		c.launch("Fill", dev, "fill_u16", n, dst.ptr(), uint32(half.Float32ToBFloat16(float32(v))), int64(n))
	}
}

// cudaCast converts n elements of src into dst's dtype.
func (c *cudaMem) cudaCast(dev Device, dst, src cudaArray, n int) {
	if dst.dtype == src.dtype {
		c.copy(dev, dst.buf, dst.off*dst.dtype.Size(), dev, src.buf, src.off*src.dtype.Size(), n*dst.dtype.Size())
		return
	}
	c.launch("To", dev, "cast_"+cudaSuffix(src.dtype)+"_"+cudaSuffix(dst.dtype), n, src.ptr(), dst.ptr(), int64(n))
}

// cudaUnary computes dst = fn(src) over n Float32 or Float64 elements.
func (c *cudaMem) cudaUnary(dev Device, fn cudaFn, dst, src cudaArray, n int) {
	c.launch(string(fn), dev, string(fn)+"_"+cudaSuffix(dst.dtype), n, src.ptr(), dst.ptr(), int64(n))
}

// cudaScalar computes dst = fn(src, s) over n elements.
func (c *cudaMem) cudaScalar(dev Device, fn cudaFn, dst, src cudaArray, n int, s float64) {
	c.launch(string(fn), dev, string(fn)+"_"+cudaSuffix(dst.dtype), n, src.ptr(), dst.ptr(), s, int64(n))
}

// cudaMaxDims is MAXDIMS in cuda_kernels.cu: the most axes a broadcast or
// permute kernel takes (after merging contiguous axes).
const cudaMaxDims = 8

// cudaLayout packs shape and strides into the kernel's by-value struct:
// ndim, then each slice padded to cudaMaxDims.
func cudaLayout(op string, dev Device, lists ...[]int) cuda.Int64s {
	nd := len(lists[0])
	if nd > cudaMaxDims {
		panic(&DeviceError{Op: op, Devices: []Device{dev}, Reason: fmt.Sprintf("the CUDA kernels take at most %d axes, got %d", cudaMaxDims, nd),
			Fix: "reshape the tensors to fewer axes"})
	}
	out := make(cuda.Int64s, 1+len(lists)*cudaMaxDims)
	out[0] = int64(nd)
	for j, l := range lists {
		for i, v := range l {
			out[1+j*cudaMaxDims+i] = int64(v)
		}
	}
	return out
}

// cudaBinary computes dst = fn(a, b) over n elements. With dims nil, a, b
// and dst have n elements each; otherwise dst has shape dims and a, b
// advance by sa[i], sb[i] elements along axis i (0: broadcast).
func (c *cudaMem) cudaBinary(dev Device, fn cudaFn, dst, a, b cudaArray, n int, dims, sa, sb []int) {
	sfx := cudaSuffix(dst.dtype)
	if dims == nil {
		c.launch(string(fn), dev, string(fn)+"_"+sfx, n, a.ptr(), b.ptr(), dst.ptr(), int64(n))
		return
	}
	c.launch(string(fn), dev, string(fn)+"_bc_"+sfx, n, a.ptr(), b.ptr(), dst.ptr(), int64(n), cudaLayout(string(fn), dev, dims, sa, sb))
}

// cudaReduce reduces src, seen as [outer, n, inner], over its middle axis
// into dst [outer, inner] (cudaReduceSum, cudaReduceMax or cudaArgMax).
// One block per output element; a block has the smallest power of two of
// threads >= n, at most 256, so short rows do not idle 256 threads.
func (c *cudaMem) cudaReduce(dev Device, fn cudaFn, dst, src cudaArray, outer, n, inner int) {
	if outer*inner == 0 {
		return
	}
	ctx, f := c.function(string(fn), dev, string(fn)+"_"+cudaSuffix(dst.dtype))
	threads := min(1<<bits.Len(uint(max(n, 1)-1)), cudaBlock)
	err := ctx.Launch(f, cuda.Dim3{X: outer * inner}, cuda.Dim3{X: threads}, 0, 0, src.ptr(), dst.ptr(), int64(n), int64(inner))
	if err != nil {
		panic(cudaDeviceError(string(fn), err, dev))
	}
}

// cudaPermute copies src (shape dims) into dst so that dst's axis i is
// src's axis perm[i]: transpose and permute as one strided gather.
func (c *cudaMem) cudaPermute(dev Device, dst, src cudaArray, dims, perm []int) {
	r := len(dims)
	n := 1
	stride := make([]int, r) // src's row-major strides
	for i := r - 1; i >= 0; i-- {
		stride[i] = n
		n *= dims[i]
	}
	outDims, xs := make([]int, r), make([]int, r)
	for i, p := range perm {
		outDims[i], xs[i] = dims[p], stride[p]
	}
	if r == 0 {
		outDims, xs = []int{1}, []int{0}
	}
	name := fmt.Sprintf("permute_b%d", dst.dtype.Size())
	c.launch("Permute", dev, name, n, src.ptr(), dst.ptr(), int64(n), cudaLayout("Permute", dev, outDims, xs))
}

// cudaSynchronize waits for the GPU work queued on dev (tests and timing;
// copies to the host synchronise by themselves).
func (c *cudaMem) cudaSynchronize(dev Device) {
	if err := c.context("Synchronize", dev).Synchronize(); err != nil {
		panic(cudaDeviceError("Synchronize", err, dev))
	}
}
