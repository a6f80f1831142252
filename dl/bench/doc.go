// Package bench measures, on the machine it runs on, what the course's
// notebooks compare: the matrix-multiply kernels (the naive triple loop,
// blocked Go, gonum's BLAS, SIMD assembly, cuBLAS on a GPU), copies
// between the host and a device, and all-reduces between ranks.  Every
// figure is a measurement taken in the call; nothing is estimated from a
// hardware profile.
//
// # Overview
//
// Each sweep is one call with a config struct whose zero value is a
// sensible default, and returns plain result structs (exported fields, so
// a notebook can keep them with kernel.Cache):
//
//	rs, err := bench.MatMul(bench.MatMulConfig{Sizes: []int{128, 512}})
//	cs, err := bench.Copy(bench.CopyConfig{Device: dl.Sim(0)})
//	ar, err := bench.AllReduce(bench.AllReduceConfig{Ranks: []int{2, 4}})
//	fs, err := bench.Funcs(bench.FuncsConfig{Funcs: []bench.Func{{Name: "im2col", FLOPs: f, Run: run}}})
//
// MatMul reports GFLOP/s per kernel and size and checks every kernel's
// product against a float64 reference; Copy reports GB/s of Tensor.To in
// both directions next to a host memcpy of the same size; AllReduce
// reports algorithm and bus bandwidth as nccl-tests does; Funcs times
// functions a notebook writes (a convolution's seven loops, im2col and
// MatMul, dl.Conv2d) the same way.  ReadReports reads what `make bench`
// wrote (build/bench*.json: each entry against NumPy or PyTorch on this
// machine), so that a notebook can show it next to its own measurement.  The Benchmark
// functions of the package tests run the same products under `go test
// -bench` (scripts/gpu-check runs those matching "MatMul" on a GPU).
//
// # Errors
//
// A bad config (a size that is not positive, a negative count, a kernel
// this machine lacks, a host kernel asked for on a GPU) and a device that
// cannot be used (a CUDA device without a GPU: the error wraps
// dl.CUDAAvailable's reason) are returned as errors prefixed "bench:".
// Nothing is measured then.
//
// # Concepts
//
// How a figure is taken.  Each point is warmed up first (the first call
// pays page faults, allocation and cold caches, which are not what is
// measured), then timed in samples that repeat the call until a sample
// lasts at least 10 ms.  The points of one size are sampled round-robin
// (interleaved), so that a slow moment of a shared machine falls on every
// kernel alike, and each figure is the median of its samples.  A GPU runs
// kernels asynchronously: a sample ends only when the device has finished
// (reading one element back, as torch.cuda.synchronize would).
//
// Budgets.  A sweep must fit in a notebook cell.  MatMul predicts the
// time of a product from the kernel's previous size (as n³) and skips
// points over the budget, saying so in the result; long samples are taken
// fewer times.  Skipped points are reported, never filled in.
//
// FLOPs.  An n×n×n product is n³ multiply-adds: 2n³ floating-point
// operations (FLOPs), the convention of BLAS benchmarks and of the
// accelerators' peak TFLOPS.
//
// Course: "Computación eficiente para Deep Learning", "De bucles for a
// operaciones vectorizadas", "Devices en TensorFlow y PyTorch".
package bench
