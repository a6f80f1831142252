package dl

import (
	"sync/atomic"
	"unsafe"
)

// storage is the memory behind one or more tensors: a view (Reshape, View,
// Narrow, Detach) is a new *Tensor sharing its parent's storage.  Every
// live *Tensor holds one reference; the memory goes back to the device's
// caching allocator when the last reference is released (explicitly, by
// Backward freeing the graph, or by the runtime cleanup of a dropped
// tensor).
type storage struct {
	dev    Device
	dtype  DType
	n      int   // elements
	nbytes int64 // n * dtype.Size(): what MemoryStats counts
	blk    *block
	refs   atomic.Int32
}

// block is a buffer with its size class: the unit the caching allocator
// keeps and reuses.
type block struct {
	buf  buffer
	size int64 // bytes (the size class)
}

// retain adds a reference.
func (s *storage) retain() { s.refs.Add(1) }

// decRef drops a reference and frees the memory with the last one.
func (s *storage) decRef() {
	if s.refs.Add(-1) == 0 && s.blk != nil {
		memoryOf(s.dev).put(s.blk, s.nbytes)
		s.blk = nil
	}
}

// bytes returns the host bytes of the whole storage (host devices).
func (s *storage) bytes() []byte {
	if s.blk == nil || s.nbytes == 0 {
		return nil
	}
	return s.blk.buf.host[:s.nbytes]
}

// ptr returns the address of the first host byte.
func (s *storage) ptr() unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s.blk.buf.host)) }

// f32, f64 and u16 view host storage as typed slices (views of host
// devices only).
func (v view) f32() []float32 {
	if v.n == 0 {
		return nil
	}
	return unsafe.Slice((*float32)(v.st.ptr()), v.st.n)[v.off : v.off+v.n : v.off+v.n]
}

func (v view) f64() []float64 {
	if v.n == 0 {
		return nil
	}
	return unsafe.Slice((*float64)(v.st.ptr()), v.st.n)[v.off : v.off+v.n : v.off+v.n]
}

func (v view) u16() []uint16 {
	if v.n == 0 {
		return nil
	}
	return unsafe.Slice((*uint16)(v.st.ptr()), v.st.n)[v.off : v.off+v.n : v.off+v.n]
}

// sub returns the elements [i, i+n) of v.
func (v view) sub(i, n int) view { return view{st: v.st, off: v.off + i, n: n} }
