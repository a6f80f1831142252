package dl

import (
	"fmt"
	"runtime"
	"sync"
	"time"
)

// MemoryInfo describes the memory of one device, like
// torch.cuda.memory_stats.  Allocated counts the bytes of live tensors
// exactly (elements × dtype size); Reserved also counts the blocks the
// caching allocator keeps for reuse, rounded up to their size classes.
type MemoryInfo struct {
	Allocated int64 // bytes held by live tensors
	Peak      int64 // the highest Allocated since start or ResetPeakMemory
	Reserved  int64 // bytes taken from the device: in use plus cached
	Capacity  int64 // the device's capacity (0: unlimited; see ConfigureSim and ConfigureCPU)

	Allocs    int64 // allocations served
	CacheHits int64 // allocations served from the cache (no fresh memory)
	Frees     int64 // blocks returned to the cache
}

// deviceMemory is the caching allocator and accounting of one device.
// Like PyTorch's, it keeps freed blocks by size class and hands them out
// again: fresh host memory costs a page fault per 4 KiB on first touch
// (about 17 µs per page on the course machine), device memory a
// cuMemAlloc, while a cached block costs a map lookup.
type deviceMemory struct {
	mu       sync.Mutex
	dev      Device
	stats    MemoryInfo
	cached   map[int64][]*block // free blocks by size class
	capacity int64
}

var (
	memMu    sync.RWMutex
	memories = map[Device]*deviceMemory{}
)

// memoryOf returns the allocator of dev, creating it on first use.
func memoryOf(dev Device) *deviceMemory {
	memMu.RLock()
	m := memories[dev]
	memMu.RUnlock()
	if m != nil {
		return m
	}
	memMu.Lock()
	defer memMu.Unlock()
	if m = memories[dev]; m == nil {
		m = &deviceMemory{dev: dev, cached: map[int64][]*block{}}
		if dev == CPU {
			m.capacity = cpuCapacity() // see CPUConfig
		}
		memories[dev] = m
	}
	return m
}

// MemoryStats returns the memory statistics of dev.
func MemoryStats(dev Device) MemoryInfo {
	m := memoryOf(dev)
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.stats
	s.Capacity = m.capacity
	return s
}

// CollectGarbage runs the garbage collector and waits until the tensors
// dropped without Release have been freed, like Python's gc.collect
// before a memory measurement.  A dropped tensor is freed by a runtime
// cleanup after some collection, at a moment nobody controls: in the
// middle of a measurement of MemoryStats it would lower Allocated and
// Peak by the bytes of tensors the measured code never saw.  It waits
// until the allocated bytes of every host device (the CPU and the
// simulated devices) stop changing over three collections, at most about
// two seconds.
func CollectGarbage() {
	total := func() int64 {
		sum := MemoryStats(CPU).Allocated
		for i := range DeviceCount(SimKind) {
			sum += MemoryStats(Sim(i)).Allocated
		}
		return sum
	}
	last, stable := total(), 0
	for deadline := time.Now().Add(2 * time.Second); stable < 3 && time.Now().Before(deadline); {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
		if now := total(); now == last {
			stable++
		} else {
			last, stable = now, 0
		}
	}
}

// ResetPeakMemory sets dev's Peak to its current Allocated, like
// torch.cuda.reset_peak_memory_stats.
func ResetPeakMemory(dev Device) {
	m := memoryOf(dev)
	m.mu.Lock()
	m.stats.Peak = m.stats.Allocated
	m.mu.Unlock()
}

// EmptyCache returns dev's cached free blocks to the device, so Reserved
// drops to what live tensors use (rounded to size classes), like
// torch.cuda.empty_cache.
func EmptyCache(dev Device) {
	m := memoryOf(dev)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.emptyLocked()
}

func (m *deviceMemory) emptyLocked() {
	be := memoryBackendOf(m.dev)
	for class, list := range m.cached {
		for _, b := range list {
			be.free(m.dev, b.buf)
			m.stats.Reserved -= b.size
		}
		delete(m.cached, class)
	}
}

// sizeClass rounds n up so that similar sizes share cached blocks: to a
// multiple of 512 bytes, and of 1/16 of the power of two at or below n
// (at most 1 MiB), so a block wastes less than 1/8 of its size and never
// more than 1 MiB.
func sizeClass(n int64) int64 {
	g := int64(512)
	for g*16 <= n && g < 1<<20 {
		g *= 2
	}
	return (n + g - 1) / g * g
}

// get returns a block for nbytes bytes, reusing a cached one when it can;
// it panics with *OutOfMemoryError if dev's capacity would be exceeded or
// the device has no memory left.
func (m *deviceMemory) get(op string, nbytes int64) *block {
	class := sizeClass(nbytes)
	m.mu.Lock()
	defer m.mu.Unlock()
	var b *block
	if list := m.cached[class]; len(list) > 0 {
		b = list[len(list)-1]
		list[len(list)-1] = nil
		m.cached[class] = list[:len(list)-1]
		m.stats.CacheHits++
	} else {
		if m.capacity > 0 && m.stats.Reserved+class > m.capacity {
			m.emptyLocked() // like PyTorch: free the cached blocks and retry
			if m.stats.Reserved+class > m.capacity {
				panic(m.oom(op, nbytes, nil))
			}
		}
		buf, err := memoryBackendOf(m.dev).malloc(m.dev, int(class))
		if err != nil {
			m.emptyLocked()
			if buf, err = memoryBackendOf(m.dev).malloc(m.dev, int(class)); err != nil {
				panic(m.oom(op, nbytes, err))
			}
		}
		b = &block{buf: buf, size: class}
		m.stats.Reserved += class
	}
	m.stats.Allocs++
	m.stats.Allocated += nbytes
	m.stats.Peak = max(m.stats.Peak, m.stats.Allocated)
	return b
}

// put returns a block holding nbytes of a released tensor to the cache.
func (m *deviceMemory) put(b *block, nbytes int64) {
	m.mu.Lock()
	m.stats.Allocated -= nbytes
	m.stats.Frees++
	m.cached[b.size] = append(m.cached[b.size], b)
	m.mu.Unlock()
}

// OutOfMemoryError reports an allocation beyond a device's capacity.  Its
// message follows CUDA's: what was requested, the capacity, what is
// allocated and what is free.  Unwrap returns ErrOutOfMemory.
type OutOfMemoryError struct {
	Op        string
	Device    Device
	Requested int64 // bytes of the failed allocation
	Capacity  int64 // device capacity in bytes (0: unknown/unlimited)
	Allocated int64 // bytes held by live tensors
	Free      int64 // capacity minus reserved bytes
	Cause     error // the backend's error, if any
}

// Error returns the message, worded like CUDA's.
func (e *OutOfMemoryError) Error() string {
	s := fmt.Sprintf("dl: out of memory on %v: tried to allocate %s (capacity %s; %s allocated; %s free)",
		e.Device, FormatBytes(e.Requested), FormatBytes(e.Capacity), FormatBytes(e.Allocated), FormatBytes(e.Free))
	if e.Cause != nil {
		s += ": " + e.Cause.Error()
	}
	if e.Op != "" {
		s += " in " + e.Op
	}
	fix := "; release tensors you no longer need (t.Release()), use a smaller batch, or raise the capacity"
	switch e.Device.kind {
	case CPUKind:
		fix += " (dl.ConfigureCPU; the default is the machine's memory)"
	case SimKind:
		fix += " (dl.ConfigureSim)"
	}
	return s + fix
}

// Unwrap returns ErrOutOfMemory.
func (e *OutOfMemoryError) Unwrap() error { return ErrOutOfMemory }

func (m *deviceMemory) oom(op string, nbytes int64, cause error) *OutOfMemoryError {
	free := int64(0)
	if m.capacity > 0 {
		free = max(m.capacity-m.stats.Reserved, 0)
	}
	return &OutOfMemoryError{Op: op, Device: m.dev, Requested: nbytes, Capacity: m.capacity,
		Allocated: m.stats.Allocated, Free: free, Cause: cause}
}

// FormatBytes writes a byte count with binary units as PyTorch's memory
// messages do: "512 bytes", "64.00 MiB", "1.00 GiB".
func FormatBytes(n int64) string {
	units := []string{"KiB", "MiB", "GiB", "TiB"}
	if n < 1024 && n > -1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	v := float64(n) / 1024
	i := 0
	for (v >= 1024 || v <= -1024) && i < len(units)-1 {
		v /= 1024
		i++
	}
	return fmt.Sprintf("%.2f %s", v, units[i])
}
