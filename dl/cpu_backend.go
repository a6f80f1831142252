package dl

import (
	"fmt"
	"unsafe"

	"github.com/dlbd/dlbd/dl/internal/kernels/f32"
	"github.com/dlbd/dlbd/dl/internal/kernels/half"
)

// cpuBackend serves the CPU (and, through simBackend, Sim devices):
// memory is Go memory, kernels are loops over slices (and the assembly
// GEMM of dl/internal/kernels).
type cpuBackend struct{}

var cpu = cpuBackend{}

var (
	_ memoryBackend = cpu
	_ kernels       = cpu
	_ indexKernels  = cpu
)

func init() { registerBackend(CPUKind, cpu) }

// deviceCount is 1: there is one CPU device, whatever its cores.
func (cpuBackend) deviceCount() int { return 1 }

// malloc returns fresh, zeroed Go memory, 8-byte aligned (Go's size
// classes from 512 bytes, the allocator's smallest block, are multiples of
// 64, so blocks start on cache lines).  Touching it the first time costs
// page faults, which is why the allocator caches blocks.  Buffers of a
// huge page or more are advised for transparent huge pages
// (adviseHugePages; CPUConfig.SmallPages turns it off): the d=512
// Transformer step ran 2-4% faster.
// It refuses (with an error the allocator reports as *OutOfMemoryError)
// a request beyond the machine's memory, which would make the Go runtime
// die with an unrecoverable "fatal error: runtime: out of memory": this
// bounds Sim devices without a capacity too.
func (cpuBackend) malloc(_ Device, nbytes int) (buffer, error) {
	if mm := cpuCapacity(); mm > 0 && int64(nbytes) > mm {
		return buffer{}, fmt.Errorf("the machine has %s of memory (dl.MachineMemory)", FormatBytes(mm))
	}
	words := make([]uint64, (nbytes+7)/8)
	buf := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), nbytes)
	if !cpuSmallPages.Load() {
		adviseHugePages(buf)
	}
	return buffer{host: buf}, nil
}

// free drops the buffer; the garbage collector reclaims it.
func (cpuBackend) free(Device, buffer) {}

func (cpuBackend) copy(_ Device, dst buffer, dstOff int, _ Device, src buffer, srcOff int, n int) {
	copy(dst.host[dstOff:dstOff+n], src.host[srcOff:srcOff+n])
}

func (c cpuBackend) cast(dst, src view) {
	from, to := src.st.dtype, dst.st.dtype
	switch {
	case from == to: // a plain copy, in host memory: no need to dispatch
		sz := dst.st.dtype.Size()
		c.copy(dst.st.dev, dst.st.blk.buf, dst.off*sz, src.st.dev, src.st.blk.buf, src.off*sz, dst.n*sz)
	case from == Float32 && to == Float64:
		inPieces(dst.f64(), src.f32(), convert)
	case from == Float64 && to == Float32:
		inPieces(dst.f32(), src.f64(), convert)
	case from == Float32 && to == Float16:
		inPieces(dst.u16(), src.f32(), half.EncodeFloat16)
	case from == Float32 && to == BFloat16:
		inPieces(dst.u16(), src.f32(), half.EncodeBFloat16)
	case from == Float16 && to == Float32:
		inPieces(dst.f32(), src.u16(), half.DecodeFloat16)
	case from == BFloat16 && to == Float32:
		inPieces(dst.f32(), src.u16(), half.DecodeBFloat16)
	case from.isInt() || to.isInt():
		castAny(dst, src)
	default: // through float32: Float64 <-> half, Float16 <-> BFloat16
		buf, _ := c.malloc(CPU, src.n*4)
		tmp := view{st: &storage{dtype: Float32, n: src.n, blk: &block{buf: buf}}, n: src.n}
		c.cast(tmp, src)
		c.cast(dst, tmp)
	}
}

// inPieces runs the elementwise f(dst, src) over pieces of dst on dl's
// threads (f32.ForRange).
func inPieces[D, S any](dst []D, src []S, f func([]D, []S)) {
	src = src[:len(dst)]
	f32.ForRange(len(dst), func(lo, hi int) { f(dst[lo:hi], src[lo:hi]) })
}

func convert[D, S float](dst []D, src []S) {
	src = src[:len(dst)]
	for i, x := range src {
		dst[i] = D(x)
	}
}

func (cpuBackend) fill(dst view, v float64) {
	switch dst.st.dtype {
	case Float32:
		fillPieces(dst.f32(), float32(v))
	case Float64:
		fillPieces(dst.f64(), v)
	case Float16:
		fillPieces(dst.u16(), half.Float32ToFloat16(float32(v)))
	case BFloat16:
		fillPieces(dst.u16(), half.Float32ToBFloat16(float32(v)))
	default:
		fillInt(dst, v)
	}
}

// fillPieces is fillSlice over pieces of s on dl's threads.
func fillPieces[T any](s []T, v T) {
	f32.ForRange(len(s), func(lo, hi int) { fillSlice(s[lo:hi], v) })
}

func fillSlice[T any](s []T, v T) {
	if len(s) < 32 {
		for i := range s {
			s[i] = v
		}
		return
	}
	// Go does not vectorize the loop (about 5.5 GB/s here, a fifth of a
	// depthwise convolution's forward); copy (memmove) does: the first
	// elements are doubled up to fillBlock, then copied from that block,
	// which stays in L1 (24-50 GB/s on 784 to 4096 floats).
	s[0] = v
	k := 1
	for ; k < min(len(s), fillBlock); k *= 2 {
		copy(s[k:], s[:k])
	}
	for i := k; i < len(s); i += k {
		copy(s[i:], s[:k])
	}
}

// fillBlock is how many elements fillSlice doubles before it copies whole
// blocks: 8 KiB of float64, within L1.
const fillBlock = 1024

// permute copies src (shape dims) into dst so that dst's axis i is src's
// axis perm[i].  The innermost destination axis is copied in a tight
// loop; the outer axes advance like an odometer.
func (cpuBackend) permute(dst, src view, dims, perm []int) {
	switch dst.st.dtype.Size() { // a copy: only the element size matters
	case 8:
		permuteSlice(elems[uint64](dst), elems[uint64](src), dims, perm)
	case 4:
		permuteSlice(elems[uint32](dst), elems[uint32](src), dims, perm)
	case 2:
		permuteSlice(dst.u16(), src.u16(), dims, perm)
	default:
		permuteSlice(elems[uint8](dst), elems[uint8](src), dims, perm)
	}
}

func permuteSlice[T any](dst, src []T, dims, perm []int) {
	r := len(dims)
	if len(dst) == 0 {
		return
	}
	if r == 0 {
		dst[0] = src[0]
		return
	}
	srcStride := stridesOf(dims)
	outDims := make([]int, r)
	st := make([]int, r) // source stride of each destination axis
	for i, p := range perm {
		outDims[i] = dims[p]
		st[i] = srcStride[p]
	}
	inner, is := outDims[r-1], st[r-1]
	idx := make([]int, r)
	base := 0
	for o := 0; o < len(dst); o += inner {
		row := dst[o : o+inner]
		if is == 1 {
			copy(row, src[base:base+inner])
		} else {
			for j, p := 0, base; j < inner; j, p = j+1, p+is {
				row[j] = src[p]
			}
		}
		for a := r - 2; a >= 0; a-- { // odometer over the outer axes
			idx[a]++
			base += st[a]
			if idx[a] < outDims[a] {
				break
			}
			base -= st[a] * idx[a]
			idx[a] = 0
		}
	}
}

// stridesOf returns the row-major strides (in elements) of dims.
func stridesOf(dims []int) []int {
	s := make([]int, len(dims))
	acc := 1
	for i := len(dims) - 1; i >= 0; i-- {
		s[i] = acc
		acc *= dims[i]
	}
	return s
}
