package dl

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// CPUConfig configures the CPU device's memory: its accounting and its
// page advice.  The zero value is the default.
type CPUConfig struct {
	// Capacity is the most bytes CPU tensors may hold (reserved by the
	// caching allocator, like a Sim device's capacity); an allocation
	// beyond it panics with *OutOfMemoryError instead of letting the Go
	// runtime die with "fatal error: runtime: out of memory", which no
	// recover can catch.  0 means the default, MachineMemory(): the
	// machine's physical memory, or the cgroup (container) limit when it
	// is lower.  An allocation below the capacity can still fail when
	// other processes use the memory; the capacity only refuses requests
	// the machine can never give.
	Capacity int64

	// SmallPages turns off the advice that asks Linux for transparent huge
	// pages for host buffers of 2 MiB or more (madvise MADV_HUGEPAGE, on by
	// default).  Huge pages spare the TLB misses of strided GEMM packing
	// and elementwise passes (the d=512 Transformer step: 2-4% faster);
	// their price is paid at a buffer's first touch, which takes longer
	// when the kernel must reclaim memory to find 2 MiB pages (setup and
	// first step of that model on a machine with its memory in page cache:
	// +0 to +1 s for ~400 MB).  The caching allocator reuses buffers, so a
	// training loop pays it once.
	SmallPages bool
}

var cpuCapacity = sync.OnceValue(func() int64 { return MachineMemory() })

// cpuSmallPages is CPUConfig.SmallPages of the last ConfigureCPU.
var cpuSmallPages atomic.Bool

// ConfigureCPU sets the CPU's capacity and page advice.  It returns an
// error for a negative capacity.  Tensors already allocated stay; the
// configuration applies to later allocations.
func ConfigureCPU(cfg CPUConfig) error {
	if cfg.Capacity < 0 {
		return fmt.Errorf("dl: ConfigureCPU: negative capacity %d", cfg.Capacity)
	}
	c := cfg.Capacity
	if c == 0 {
		c = cpuCapacity()
	}
	m := memoryOf(CPU)
	m.mu.Lock()
	m.capacity = c
	m.mu.Unlock()
	cpuSmallPages.Store(cfg.SmallPages)
	return nil
}

// MachineMemory returns the bytes of memory this process can have: the
// physical memory (MemTotal of /proc/meminfo), or the cgroup memory
// limit (memory.max of cgroup v2, memory.limit_in_bytes of v1) when that
// is lower.  It returns 0 (unknown: no capacity) where neither can be
// read, as on systems other than Linux.
func MachineMemory() int64 { return machineMemory() }
