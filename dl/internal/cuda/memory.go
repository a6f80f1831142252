package cuda

import (
	"fmt"
	"runtime"
	"unsafe"
)

// DevPtr is a device address (CUdeviceptr). It is a number, not a Go
// pointer: the Go garbage collector knows nothing about device memory, so
// every Alloc needs its Free.
type DevPtr uint64

// Add returns p advanced by n bytes.
func (p DevPtr) Add(n int64) DevPtr { return p + DevPtr(n) }

// Alloc allocates n bytes of device memory (cuMemAlloc_v2). A device that
// is full returns an *Error wrapping ErrOutOfMemory.
func (c *Context) Alloc(n int64) (DevPtr, error) {
	var p uint64
	err := c.Do(func() error {
		return drvCheck(cuMemAlloc(&p, uint64(n)), "cuMemAlloc_v2", bytesString(n)+" on "+c.name())
	})
	return DevPtr(p), err
}

// Free releases memory from Alloc.
func (c *Context) Free(p DevPtr) error {
	return c.Do(func() error { return drvCheck(cuMemFree(uint64(p)), "cuMemFree_v2", "") })
}

// Memset32 sets count 4-byte words at p to v; with v = 0x7fc00000 it fills
// a float32 buffer with NaN (tests poison outputs this way).
func (c *Context) Memset32(p DevPtr, v uint32, count int64) error {
	return c.Do(func() error { return drvCheck(cuMemsetD32(uint64(p), v, uint64(count)), "cuMemsetD32_v2", "") })
}

// Memset8 sets n bytes at p to v.
func (c *Context) Memset8(p DevPtr, v byte, n int64) error {
	return c.Do(func() error { return drvCheck(cuMemsetD8(uint64(p), v, uint64(n)), "cuMemsetD8_v2", "") })
}

// CopyHtoD copies n bytes from host memory at src to the device. With
// pageable (ordinary Go) memory the driver stages the data through its own
// pinned buffer and returns when src may be reused.
func (c *Context) CopyHtoD(dst DevPtr, src unsafe.Pointer, n int64) error {
	if n == 0 {
		return nil
	}
	return c.Do(func() error {
		return drvCheck(cuMemcpyHtoD(uint64(dst), src, uint64(n)), "cuMemcpyHtoD_v2", bytesString(n))
	})
}

// CopyDtoH copies n bytes from the device to host memory at dst; it
// returns when the data has arrived (and so waits for queued kernels).
func (c *Context) CopyDtoH(dst unsafe.Pointer, src DevPtr, n int64) error {
	if n == 0 {
		return nil
	}
	return c.Do(func() error {
		return drvCheck(cuMemcpyDtoH(dst, uint64(src), uint64(n)), "cuMemcpyDtoH_v2", bytesString(n))
	})
}

// CopyDtoD copies n bytes between two buffers of this device.
func (c *Context) CopyDtoD(dst, src DevPtr, n int64) error {
	if n == 0 {
		return nil
	}
	return c.Do(func() error {
		return drvCheck(cuMemcpyDtoD(uint64(dst), uint64(src), uint64(n)), "cuMemcpyDtoD_v2", bytesString(n))
	})
}

// CopyPeer copies n bytes from src on device sc to dst on device dc,
// directly over NVLink/PCIe when the devices allow peer access.
func CopyPeer(dc *Context, dst DevPtr, sc *Context, src DevPtr, n int64) error {
	if n == 0 {
		return nil
	}
	return dc.Do(func() error {
		return drvCheck(cuMemcpyPeer(uint64(dst), dc.h, uint64(src), sc.h, uint64(n)), "cuMemcpyPeer",
			fmt.Sprintf("%s from %s to %s", bytesString(n), sc.name(), dc.name()))
	})
}

// Upload copies the elements of src (any fixed-size element type) to dst.
func Upload[T any](c *Context, dst DevPtr, src []T) error {
	err := c.CopyHtoD(dst, unsafe.Pointer(unsafe.SliceData(src)), sliceBytes(src))
	runtime.KeepAlive(src)
	return err
}

// Download copies len(dst) elements from src into dst.
func Download[T any](c *Context, dst []T, src DevPtr) error {
	err := c.CopyDtoH(unsafe.Pointer(unsafe.SliceData(dst)), src, sliceBytes(dst))
	runtime.KeepAlive(dst)
	return err
}

func sliceBytes[T any](s []T) int64 {
	var z T
	return int64(len(s)) * int64(unsafe.Sizeof(z))
}

// HostBuffer is page-locked ("pinned") host memory from cuMemHostAlloc.
// The GPU's copy engines can read and write it directly (DMA), so copies
// run at full PCIe/NVLink speed and can be asynchronous; pageable memory
// must first be copied by the CPU into a pinned staging buffer. Pinned
// memory is outside the Go heap: call Free.
type HostBuffer struct {
	c   *Context
	ptr unsafe.Pointer
	n   int64
}

// cuMemHostAlloc flag: pinned for every context, not only the allocating one.
const memHostAllocPortable = 0x01

// HostAlloc allocates n bytes of pinned host memory.
func (c *Context) HostAlloc(n int64) (*HostBuffer, error) {
	b := &HostBuffer{c: c, n: n}
	err := c.Do(func() error {
		return drvCheck(cuMemHostAlloc(&b.ptr, uint64(n), memHostAllocPortable), "cuMemHostAlloc", bytesString(n))
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Bytes returns the buffer as a byte slice (valid until Free).
func (b *HostBuffer) Bytes() []byte { return unsafe.Slice((*byte)(b.ptr), b.n) }

// Float32s returns the buffer as a float32 slice (valid until Free).
func (b *HostBuffer) Float32s() []float32 { return unsafe.Slice((*float32)(b.ptr), b.n/4) }

// Len returns the size in bytes.
func (b *HostBuffer) Len() int64 { return b.n }

// Free releases the pinned memory.
func (b *HostBuffer) Free() error {
	if b.ptr == nil {
		return nil
	}
	err := b.c.Do(func() error { return drvCheck(cuMemFreeHost(b.ptr), "cuMemFreeHost", "") })
	b.ptr = nil
	return err
}

// CopyHtoDAsync queues a copy of n bytes from b[off:] to dst on stream s
// and returns at once. Only pinned memory is accepted: the copy runs after
// this call returns, and Go memory could not be guaranteed to stay alive
// and unchanged until then. Synchronize the stream before reusing b.
func (c *Context) CopyHtoDAsync(dst DevPtr, b *HostBuffer, off, n int64, s Stream) error {
	if err := b.check(off, n); err != nil {
		return err
	}
	return c.Do(func() error {
		return drvCheck(cuMemcpyHtoDAsync(uint64(dst), unsafe.Add(b.ptr, off), uint64(n), uintptr(s)),
			"cuMemcpyHtoDAsync_v2", bytesString(n))
	})
}

// CopyDtoHAsync queues a copy of n bytes from src to b[off:] on stream s.
func (c *Context) CopyDtoHAsync(b *HostBuffer, off int64, src DevPtr, n int64, s Stream) error {
	if err := b.check(off, n); err != nil {
		return err
	}
	return c.Do(func() error {
		return drvCheck(cuMemcpyDtoHAsync(unsafe.Add(b.ptr, off), uint64(src), uint64(n), uintptr(s)),
			"cuMemcpyDtoHAsync_v2", bytesString(n))
	})
}

func (b *HostBuffer) check(off, n int64) error {
	if b.ptr == nil || off < 0 || n < 0 || off+n > b.n {
		return fmt.Errorf("cuda: pinned copy of [%d, %d) outside a %d-byte host buffer (freed: %v)",
			off, off+n, b.n, b.ptr == nil)
	}
	return nil
}
