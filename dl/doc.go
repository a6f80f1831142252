// Package dl is dlbd's tensor library: device-aware n-dimensional arrays,
// the operations of deep learning, reverse-mode automatic differentiation
// and exact per-device memory accounting, written to be read by students
// of "Deep Learning y Big Data".
//
// # Overview
//
// A [Tensor] is a dense, row-major array of a [DType] (Float32 by
// default, Float64, and the 2-byte Float16 and BFloat16, computed with
// float32 accumulation; Int64, Int32, Uint8 and Bool for class targets,
// token ids and masks) on a [Device] ([CPU], simulated devices [Sim] and
// [CUDA] GPUs).  Comparisons return Bool masks and ArgMax returns Int64
// indices, as in PyTorch.  Create tensors with [Zeros], [Ones], [Full], [Arange],
// [FromSlice], [Rand] and [Randn], or with an [Options] value naming the
// device, dtype and [Generator].  Ops are methods that return new tensors
// (Add, Mul, MatMul, Sum, ReLU, ...); methods ending in InPlace modify
// the receiver and are invisible to autograd.  [Tensor.String] prints like
// PyTorch and [Tensor.HTML] renders for notebooks.  Layers' building
// blocks are functions: [Linear], [LayerNorm], [CrossEntropy], [MSE],
// [Dropout], [OneHot], [Where], [Cat], [Stack], and for convolutional
// networks on [N, C, H, W] tensors [Conv2d] (im2col and GEMM;
// [Conv2dNaive] is the seven-loop reference), [MaxPool2d], [AvgPool2d],
// [AdaptiveAvgPool2d] and [BatchNorm].
//
// Autograd: mark leaves with [Tensor.SetRequiresGrad], compute, call
// [Tensor.Backward] on a scalar, read [Tensor.Grad].  [NoGrad] disables
// recording on the calling goroutine and amp.Autocast (package dl/amp)
// runs matrix products in Float16/BFloat16.  Leaf hooks
// ([Tensor.RegisterPostAccumulateGradHook]) fire when a gradient is final;
// [Apply] runs a user-defined [Function] (custom forward and backward; its
// Backward may itself call Backward, as gradient checkpointing does).
//
// Memory: [MemoryStats] reports allocated, peak and reserved bytes per
// device; [Tensor.Release] frees a tensor now; [Tensor.To] copies between
// devices and [TransferStats] counts the bytes moved.
//
// # Errors
//
// Misusing tensors panics with a typed error naming the operation, the
// shapes, dtypes or devices involved and the fix: [*ShapeError],
// [*DeviceError], [*DTypeError], [*OutOfMemoryError], [*ReleasedError],
// [*AutogradError] and [*ValueError] (a nil tensor, a range or a
// configuration value out of bounds), which unwrap to [ErrShape],
// [ErrDevice], [ErrDType], [ErrOutOfMemory], [ErrReleased], [ErrAutograd]
// and [ErrValue].  Element counts are checked for overflow
// ([MaxElements]), and the CPU has a capacity (the machine's memory by
// default, see [ConfigureCPU]), so a tensor too large for the machine is
// an out-of-memory error, not a crash of the whole process.  An
// operation stopped because the context given to [SetCancel] is done (the
// notebook kernel's interrupt) panics with a [*CanceledError], which
// unwraps to [ErrCanceled] and to the context's error.  [Catch] turns
// such a panic into an error.  Configuration that depends on the
// environment ([ConfigureSim]) returns an error.
//
// # Concepts
//
// Course: "Computación eficiente para Deep Learning", "De bucles for a
// operaciones vectorizadas", "Devices en TensorFlow y PyTorch".
//
// Devices.  Data moves between devices only through To, whose cost is the
// bytes it copies.  An op on tensors of two devices panics with a
// *DeviceError naming both and the fix (.To(dev)).  Sim devices are host
// memory with their own accounting, an optional capacity (exceeding it is
// an out-of-memory error worded like CUDA's) and the name of a hardware
// profile, which dl only stores: dl/plan looks it up in the facts dataset
// for estimates.
//
// Memory and release.  Every device has a caching allocator, like
// PyTorch's: released memory is kept by size class and reused, because
// fresh memory is expensive (a page fault per 4 KiB on first touch on the
// host, a cuMemAlloc on a GPU).  MemoryStats.Allocated counts the exact
// bytes of live tensors.  Memory is released deterministically in three
// ways: Release; Backward, which releases the graph it walked (the
// intermediate results, except the tensor Backward was called on and
// tensors marked with Retain, and what ops saved for backward); and
// ZeroGrad, which releases gradients.  Using a released tensor panics
// with a *ReleasedError saying how to keep it; Item still reads a
// one-element intermediate Backward released (a loss), whose value it
// keeps.  A tensor that is simply
// dropped is released by a runtime cleanup when the garbage collector
// finds it, which is not deterministic: code that measures peaks releases
// explicitly.  Float32Data and Float64Data return the host memory itself
// (no copy) for optimisers and collectives; autograd does not see writes
// through them.
//
// Autograd is a dynamic tape (define by run): each op on tensors that
// require grad records a node with a backward function; Backward visits
// the nodes in reverse topological order, summing the gradients of tensors
// used several times, and accumulates into the leaves' Grad across calls.
// The grad mode of NoGrad is goroutine-local (dl/internal/gls), as
// PyTorch's is thread-local, so data-parallel ranks running as goroutines
// do not disturb each other.
//
// Backends.  Ops check their arguments and call kernels through a small
// internal interface (backend.go): a memory part (deviceCount, malloc,
// free, copy) under the caching allocator, a kernel part (fill, cast,
// unary, binary with broadcasting, scalar, reduce, permute, gemm) on
// contiguous views, and optional index kernels (indexSelect, indexAdd,
// where) for embeddings, cross-entropy and masks.  Each backend registers
// itself for its DeviceKind from an init function, and every dispatch
// (DeviceCount, allocation, copies, kernels) goes through that table: the
// CPU backend (cpu_*.go) serves CPU, Sim devices use its memory and
// kernels (device_sim.go), and the CUDA backend (cuda_*.go) serves CUDA.
// The file names say the role: tensor_* (the Tensor value), device_*,
// ops_*, autograd_*, autocast_*, fused_*, backend*, cpu_* and cuda_*.
// MatMul on host devices uses the GEMM kernels of dl/internal/kernels (naive,
// blocked, gonum, SIMD assembly; see MatMulKernel), and so does Conv2d,
// whose im2col and col2im are host loops (ops_conv_kernel.go); no backend
// has a convolution kernel, so on CUDA the convolution and pooling ops are
// composed of the index kernels, MatMul and reductions
// (ops_conv_generic.go).
package dl
