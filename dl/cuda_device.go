package dl

import (
	"fmt"
	"time"
	"unsafe"

	"github.com/dlbd/dlbd/dl/internal/cuda"
)

// CUDAAvailable returns nil when at least one CUDA GPU can be used, and
// otherwise the reason (no driver, no GPU, which libraries were tried),
// for notebooks that explain themselves on machines without a GPU, like
// torch.cuda.is_available with the why.
func CUDAAvailable() error {
	_, err := cuda.DeviceCount()
	return err
}

// CUDADeviceProperties describes one GPU, like the object returned by
// torch.cuda.get_device_properties.
type CUDADeviceProperties struct {
	Name                string // e.g. "NVIDIA H200"
	TotalMemory         int64  // bytes of device memory
	MultiProcessorCount int    // streaming multiprocessors (SMs)
	Major, Minor        int    // compute capability, 9.0 for Hopper
	L2CacheSize         int    // bytes
	DriverVersion       int    // CUDA version of the driver, 1000*major + 10*minor
}

// CUDAProperties returns the properties of dev, a CUDA device.
func CUDAProperties(dev Device) (CUDADeviceProperties, error) {
	if dev.Kind() != CUDAKind {
		return CUDADeviceProperties{}, fmt.Errorf("dl: CUDAProperties(%v): not a CUDA device", dev)
	}
	p, err := cuda.Device(dev.Index())
	if err != nil {
		return CUDADeviceProperties{}, err
	}
	return CUDADeviceProperties{Name: p.Name, TotalMemory: p.TotalMem, MultiProcessorCount: p.SMs,
		Major: p.Major, Minor: p.Minor, L2CacheSize: p.L2Bytes, DriverVersion: p.DriverVersion}, nil
}

// CUDAMemInfo returns the free and total memory of dev as the driver sees
// them (other processes, the CUDA context and cuBLAS's workspace
// included), like torch.cuda.mem_get_info. MemoryStats counts only what
// dl's tensors hold.
func CUDAMemInfo(dev Device) (free, total int64, err error) {
	if dev.Kind() != CUDAKind {
		return 0, 0, fmt.Errorf("dl: CUDAMemInfo(%v): not a CUDA device", dev)
	}
	ctx, err := cuda.Primary(dev.Index())
	if err != nil {
		return 0, 0, err
	}
	return ctx.MemInfo()
}

// CopyBenchConfig sizes CUDACopyBandwidth. The zero value is the default.
type CopyBenchConfig struct {
	Bytes int64 // bytes per copy; 0: 256 MiB
	Reps  int   // timed copies per direction and kind; 0: 10
}

// CopyBandwidth is measured host↔device bandwidth in bytes per second.
// Pageable is ordinary Go memory, which the driver must first copy into a
// pinned staging buffer; pinned memory is page-locked, so the GPU's copy
// engines read and write it directly (DMA).
type CopyBandwidth struct {
	HostToDevicePageable, DeviceToHostPageable float64
	HostToDevicePinned, DeviceToHostPinned     float64
	Bytes                                      int64 // bytes per copy
	Reps                                       int   // copies timed for each figure
}

// CUDACopyBandwidth measures copies between host memory and dev, the cost
// behind every .To(dl.CUDA(0)), like a bandwidthTest run. It takes about
// a second with the defaults.
func CUDACopyBandwidth(dev Device, cfg CopyBenchConfig) (CopyBandwidth, error) {
	if dev.Kind() != CUDAKind {
		return CopyBandwidth{}, fmt.Errorf("dl: CUDACopyBandwidth(%v): not a CUDA device", dev)
	}
	bw := CopyBandwidth{Bytes: cfg.Bytes, Reps: cfg.Reps}
	if bw.Bytes <= 0 {
		bw.Bytes = 256 << 20
	}
	if bw.Reps <= 0 {
		bw.Reps = 10
	}
	ctx, err := cuda.Primary(dev.Index())
	if err != nil {
		return bw, err
	}
	d, err := ctx.Alloc(bw.Bytes)
	if err != nil {
		return bw, err
	}
	defer ctx.Free(d)
	pinned, err := ctx.HostAlloc(bw.Bytes)
	if err != nil {
		return bw, err
	}
	defer pinned.Free()
	pageable := make([]byte, bw.Bytes)
	for i := range pageable { // touch every page first: first-touch faults are not copy time
		pageable[i] = byte(i)
	}
	copy(pinned.Bytes(), pageable)
	for _, m := range []struct {
		host      unsafe.Pointer
		h2d, d2h  *float64
		kindWords string
	}{
		{unsafe.Pointer(&pageable[0]), &bw.HostToDevicePageable, &bw.DeviceToHostPageable, "pageable"},
		{unsafe.Pointer(&pinned.Bytes()[0]), &bw.HostToDevicePinned, &bw.DeviceToHostPinned, "pinned"},
	} {
		if *m.h2d, err = timeCopies(bw, ctx, func() error { return ctx.CopyHtoD(d, m.host, bw.Bytes) }); err != nil {
			return bw, fmt.Errorf("dl: %s host-to-device copy: %w", m.kindWords, err)
		}
		if *m.d2h, err = timeCopies(bw, ctx, func() error { return ctx.CopyDtoH(m.host, d, bw.Bytes) }); err != nil {
			return bw, fmt.Errorf("dl: %s device-to-host copy: %w", m.kindWords, err)
		}
	}
	return bw, nil
}

// timeCopies runs one untimed copy (warm-up), then Reps timed ones, and
// returns bytes per second by the wall clock. A pageable host-to-device
// copy may return before its last chunk lands, hence the final
// synchronisation inside the timed span.
func timeCopies(bw CopyBandwidth, ctx *cuda.Context, copyOnce func() error) (float64, error) {
	if err := copyOnce(); err != nil {
		return 0, err
	}
	start := time.Now()
	for range bw.Reps {
		if err := copyOnce(); err != nil {
			return 0, err
		}
	}
	if err := ctx.Synchronize(); err != nil {
		return 0, err
	}
	return float64(bw.Bytes) * float64(bw.Reps) / time.Since(start).Seconds(), nil
}
