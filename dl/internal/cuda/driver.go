package cuda

import (
	"fmt"
	"unsafe"
)

// The driver API (libcuda.so.1), bound at run time.
//
// Trap 1, versioned names: since CUDA 3.2 cuda.h #defines cuMemAlloc to
// cuMemAlloc_v2 (64-bit sizes and pointers) and so on. The library still
// exports the old unversioned symbols with their old ABI, so binding
// "cuMemAlloc" by its documented name gets a function that truncates sizes:
// the table below always names the symbol the header would have chosen.
// Contexts come from cuDevicePrimaryCtxRetain, never cuCtxCreate (which
// became cuCtxCreate_v4 with new arguments in CUDA 13): the same binary then
// runs on CUDA 12 and 13 drivers, and shares its context with cuBLAS and NCCL.
//
// Trap 2, host pointers: every host buffer is an unsafe.Pointer, never a
// uintptr. A uintptr is an integer to the compiler, so the buffer can stay
// on the goroutine's stack; purego's call may grow (and so move) that stack
// and the driver then writes to the old copy: the data silently never
// arrives (seen in the prototype).
var (
	cuInit                    func(flags uint32) int32
	cuDriverGetVersion        func(v *int32) int32
	cuDeviceGetCount          func(n *int32) int32
	cuDeviceGet               func(d *int32, ordinal int32) int32
	cuDeviceGetName           func(name *byte, n int32, d int32) int32
	cuDeviceGetAttribute      func(v *int32, attr int32, d int32) int32
	cuDeviceTotalMem          func(b *uint64, d int32) int32
	cuDevicePrimaryCtxRetain  func(ctx *uintptr, d int32) int32
	cuDevicePrimaryCtxRelease func(d int32) int32
	cuCtxSetCurrent           func(ctx uintptr) int32
	cuCtxSynchronize          func() int32
	cuMemGetInfo              func(free, total *uint64) int32
	cuMemAlloc                func(p *uint64, n uint64) int32
	cuMemFree                 func(p uint64) int32
	cuMemsetD8                func(p uint64, v uint8, n uint64) int32
	cuMemsetD32               func(p uint64, v uint32, n uint64) int32
	cuMemcpyHtoD              func(dst uint64, src unsafe.Pointer, n uint64) int32
	cuMemcpyDtoH              func(dst unsafe.Pointer, src uint64, n uint64) int32
	cuMemcpyDtoD              func(dst, src uint64, n uint64) int32
	cuMemcpyHtoDAsync         func(dst uint64, src unsafe.Pointer, n uint64, s uintptr) int32
	cuMemcpyDtoHAsync         func(dst unsafe.Pointer, src uint64, n uint64, s uintptr) int32
	cuMemcpyPeer              func(dst uint64, dstCtx uintptr, src uint64, srcCtx uintptr, n uint64) int32
	cuMemHostAlloc            func(p *unsafe.Pointer, n uint64, flags uint32) int32
	cuMemFreeHost             func(p unsafe.Pointer) int32
	cuStreamCreate            func(s *uintptr, flags uint32) int32
	cuStreamDestroy           func(s uintptr) int32
	cuStreamSynchronize       func(s uintptr) int32
	cuEventCreate             func(e *uintptr, flags uint32) int32
	cuEventRecord             func(e, s uintptr) int32
	cuEventSynchronize        func(e uintptr) int32
	cuEventElapsedTime        func(ms *float32, start, end uintptr) int32
	cuEventDestroy            func(e uintptr) int32
	cuModuleLoadData          func(m *uintptr, image unsafe.Pointer) int32
	cuModuleUnload            func(m uintptr) int32
	cuModuleGetFunction       func(f *uintptr, m uintptr, name string) int32
	cuLaunchKernel            func(f uintptr, gx, gy, gz, bx, by, bz, shmem uint32, s uintptr, params, extra *unsafe.Pointer) int32
	cuGetErrorName            func(r int32, s **byte) int32
	cuGetErrorString          func(r int32, s **byte) int32
)

var driverSymbols = []symbol{
	sym(&cuInit, "cuInit"),
	sym(&cuDriverGetVersion, "cuDriverGetVersion"),
	sym(&cuDeviceGetCount, "cuDeviceGetCount"),
	sym(&cuDeviceGet, "cuDeviceGet"),
	sym(&cuDeviceGetName, "cuDeviceGetName"),
	sym(&cuDeviceGetAttribute, "cuDeviceGetAttribute"),
	sym(&cuDeviceTotalMem, "cuDeviceTotalMem_v2"),
	sym(&cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
	sym(&cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
	sym(&cuCtxSetCurrent, "cuCtxSetCurrent"),
	sym(&cuCtxSynchronize, "cuCtxSynchronize"),
	sym(&cuMemGetInfo, "cuMemGetInfo_v2"),
	sym(&cuMemAlloc, "cuMemAlloc_v2"),
	sym(&cuMemFree, "cuMemFree_v2"),
	sym(&cuMemsetD8, "cuMemsetD8_v2"),
	sym(&cuMemsetD32, "cuMemsetD32_v2"),
	sym(&cuMemcpyHtoD, "cuMemcpyHtoD_v2"),
	sym(&cuMemcpyDtoH, "cuMemcpyDtoH_v2"),
	sym(&cuMemcpyDtoD, "cuMemcpyDtoD_v2"),
	sym(&cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"),
	sym(&cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"),
	sym(&cuMemcpyPeer, "cuMemcpyPeer"),
	sym(&cuMemHostAlloc, "cuMemHostAlloc"),
	sym(&cuMemFreeHost, "cuMemFreeHost"),
	sym(&cuStreamCreate, "cuStreamCreate"),
	sym(&cuStreamDestroy, "cuStreamDestroy_v2"),
	sym(&cuStreamSynchronize, "cuStreamSynchronize"),
	sym(&cuEventCreate, "cuEventCreate"),
	sym(&cuEventRecord, "cuEventRecord"),
	sym(&cuEventSynchronize, "cuEventSynchronize"),
	// CUDA 12.8 added _v2 (and CUDA 13 headers map the plain name to it);
	// older drivers only have the plain one. Both take the same arguments.
	sym(&cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime"),
	sym(&cuEventDestroy, "cuEventDestroy_v2"),
	sym(&cuModuleLoadData, "cuModuleLoadData"),
	sym(&cuModuleUnload, "cuModuleUnload"),
	sym(&cuModuleGetFunction, "cuModuleGetFunction"),
	sym(&cuLaunchKernel, "cuLaunchKernel"),
	sym(&cuGetErrorName, "cuGetErrorName"),
	sym(&cuGetErrorString, "cuGetErrorString"),
}

var driver = &library{spec: specDriver, syms: driverSymbols, after: initDriver}

// initDriver runs cuInit once the symbols are bound. On a machine with the
// driver package but no GPU (or no kernel module) this is where it fails.
func initDriver() error {
	if err := drvCheck(cuInit(0), "cuInit", ""); err != nil {
		if e, ok := err.(*Error); ok && e.kind == nil {
			e.kind = ErrNoDriver
		}
		return err
	}
	return nil
}

// Init loads libcuda.so.1 and initialises the driver, once per process.
// It returns a *LoadError wrapping ErrNoDriver when there is no driver, or
// an *Error wrapping ErrNoDriver/ErrNoDevice when cuInit fails; it never
// panics or exits, so CPU-only programs just see an error.
func Init() error { return driver.load() }

// DriverPath returns the libcuda.so.1 that was loaded ("" if none).
func DriverPath() string {
	if Init() != nil {
		return ""
	}
	return driver.path
}

// DriverVersion returns the CUDA version the driver supports, encoded as
// 1000*major + 10*minor (13000 is CUDA 13.0), like cuDriverGetVersion.
func DriverVersion() (int, error) {
	if err := Init(); err != nil {
		return 0, err
	}
	var v int32
	if err := drvCheck(cuDriverGetVersion(&v), "cuDriverGetVersion", ""); err != nil {
		return 0, err
	}
	return int(v), nil
}

// driverMajor is the driver's CUDA major version, or 0 without a driver.
func driverMajor() int {
	v, err := DriverVersion()
	if err != nil {
		return 0
	}
	return v / 1000
}

// drvCheck turns a CUresult into nil or an *Error with the driver's own
// name and description of the code.
func drvCheck(r int32, call, detail string) error {
	if r == 0 {
		return nil
	}
	e := &Error{Lib: "cuda", Call: call, Detail: detail, Code: int(r), kind: driverKind(int(r))}
	var p *byte
	if cuGetErrorName != nil && cuGetErrorName(r, &p) == 0 {
		e.Name = goString(p)
	}
	if cuGetErrorString != nil && cuGetErrorString(r, &p) == 0 {
		e.Msg = goString(p)
	}
	return e
}

// goString copies a NUL-terminated C string that the library owns.
func goString(p *byte) string {
	if p == nil {
		return ""
	}
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}

// DeviceCount returns the number of CUDA devices; zero devices is
// ErrNoDevice, so callers can treat "no GPU" as one case.
func DeviceCount() (int, error) {
	if err := Init(); err != nil {
		return 0, err
	}
	var n int32
	if err := drvCheck(cuDeviceGetCount(&n), "cuDeviceGetCount", ""); err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, fmt.Errorf("%w: the driver (%s) reports 0 devices", ErrNoDevice, driver.path)
	}
	return int(n), nil
}
