package gemm

import (
	"sync"
	"unsafe"
)

// workspace holds the packing buffers of one worker.  They are kept on a
// free list and reused across calls.  A sync.Pool is not used on purpose:
// it is emptied at every GC, and re-allocating (and zeroing) ~1-4 MiB of
// buffers showed up in timings (first touch of a fresh page costs ~17 µs
// per 4 KiB here).  The cost is that one workspace per concurrently running
// worker stays allocated for the life of the process.
type workspace[T Float] struct {
	a, b []T // packed A chunk (rows x KC) and B block (KC x NC)
	tile []T // MR x NR scratch for edge tiles
	t    []T // Cᵀ for products with few columns (see transposed)
}

// pools holds one free list per element type (float32, float64).
var pools sync.Map // map[uintptr]*pool

type pool struct {
	mu   sync.Mutex
	free []any
}

func poolFor[T Float]() *pool {
	var z T
	key := unsafe.Sizeof(z)
	if p, ok := pools.Load(key); ok {
		return p.(*pool)
	}
	p, _ := pools.LoadOrStore(key, new(pool))
	return p.(*pool)
}

// getWorkspace returns a workspace for packing rows x kc of A and
// kc x ncMax of B, for any block depth kc the job may pick (maxDepth).
func getWorkspace[T Float](mk *MicroKernel[T], rows, ncMax int) *workspace[T] {
	pl := poolFor[T]()
	pl.mu.Lock()
	var ws *workspace[T]
	if n := len(pl.free); n > 0 {
		ws = pl.free[n-1].(*workspace[T])
		pl.free = pl.free[:n-1]
	} else {
		ws = new(workspace[T])
	}
	pl.mu.Unlock()
	ws.a = aligned(ws.a, rows*maxDepth(mk.KC))
	ws.b = aligned(ws.b, maxDepth(mk.KC)*ncMax)
	ws.tile = aligned(ws.tile, mk.MR*mk.NR)
	return ws
}

func putWorkspace[T Float](ws *workspace[T]) {
	pl := poolFor[T]()
	pl.mu.Lock()
	pl.free = append(pl.free, ws)
	pl.mu.Unlock()
}

// aligned returns buf if it is already large enough, else a new slice of n
// elements whose first element is 64-byte aligned, so that every packed row
// of a micro-panel starts on a cache line and vector loads never split one.
func aligned[T Float](buf []T, n int) []T {
	if cap(buf) >= n {
		return buf[:n]
	}
	var z T
	size := int(unsafe.Sizeof(z))
	raw := make([]T, n+64/size)
	off := int(uintptr(unsafe.Pointer(&raw[0]))&63) / size
	if off != 0 {
		off = 64/size - off
	}
	return raw[off : off+n : off+n]
}
