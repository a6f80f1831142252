// Package cuda is a small binding to NVIDIA's CUDA libraries, loaded at
// run time with purego: no cgo, no CUDA headers or toolkit at build time.
// One binary runs on a laptop without a GPU (every call returns an error
// value) and on a GPU machine with a CUDA 12 or 13 driver.
//
// # Overview
//
// Four libraries, each found and bound on first use:
//
//   - the driver, libcuda.so.1: [Init], [DeviceCount], [Device] (name,
//     memory, SMs, compute capability), [Primary] contexts, memory
//     ([Context.Alloc], copies host↔device with pageable memory or pinned
//     [HostBuffer]s), [Stream]s and [Event]s for timing ([Context.Time]),
//     modules and kernel launches ([Context.Function], [Context.Launch]);
//   - NVRTC, the run-time compiler: [Compile] turns CUDA C++ source into a
//     CUBIN for the GPU ([TargetFor] picks sm_XY), cached per process;
//     [Context.Kernel] compiles, loads and looks a kernel up in one step;
//   - cuBLAS: [Context.BLAS] returns a handle with Sgemm, GemmEx (fp16 and
//     bf16 inputs with float32 accumulation), TF32 mode ([BLAS.SetMath]) and
//     [BLAS.RowMajorGemm] for row-major matrices;
//   - NCCL: [CommInitAll] for several local GPUs, AllReduce, AllGather,
//     ReduceScatter, Broadcast and [Group].
//
// Libraries are searched in $DL_CUDA_LIB_DIRS (a colon-separated list),
// then by the system loader (LD_LIBRARY_PATH, ldconfig), then in
// /usr/local/cuda and NVIDIA's pip wheels (site-packages/nvidia/cu13/lib,
// nvidia/cublas/lib, ...), newest soname first (.13, .12, .11) but never
// newer than the driver. [Libraries] reports what was found where.
//
// # Errors
//
// Nothing here panics or exits for a missing GPU. A missing driver is a
// *[LoadError] wrapping [ErrNoDriver]; a driver without GPUs, or a bad
// ordinal, wraps [ErrNoDevice]; a missing cuBLAS/NVRTC/NCCL wraps
// [ErrNoLibrary]. A failed call is an *[Error] naming the library, the C
// function, its key arguments and the status with the library's own name
// and text ("cuda: cuMemAlloc_v2(80.0 GiB on cuda:0):
// CUDA_ERROR_OUT_OF_MEMORY (2): out of memory"); out-of-memory statuses
// wrap [ErrOutOfMemory]. NVRTC diagnostics come as a *[CompileError].
// Kernel launches are asynchronous: a fault inside a kernel is reported
// by the next synchronising call ([Context.Synchronize], a copy to host).
//
// # Concepts
//
// Course: "Computación eficiente para Deep Learning" (GPUs, CUDA) and
// "Devices" (moving data to the GPU).
//
// The driver API talks to the GPU through contexts. Each device has one
// primary context, shared with the CUDA runtime, cuBLAS and NCCL; a
// context is current per OS thread, so [Context.Do] pins the goroutine
// while it makes calls. Device memory is a number ([DevPtr]) the Go
// garbage collector does not see: every Alloc needs a Free. Copies from
// ordinary (pageable) Go memory are staged by the driver through pinned
// memory; copying from pinned memory skips that step and is the only kind
// allowed to be asynchronous. GPU work is queued on streams and runs in
// order; CPU timers measure only the queueing, GPU events the work.
//
// The traps met in writing this binding are commented where they are
// avoided: versioned symbols (cuMemAlloc_v2, cublasSgemm_v2) in
// driver.go and blas.go, host pointers passed as unsafe.Pointer in
// driver.go, CUBIN rather than PTX in arch.go, the stub libcuda in
// search.go, NCCL groups in nccl.go.
package cuda
