//go:build !dlbd_noasm

package reduce

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// hasAVX512 is true when the CPU and the OS support AVX-512F (ZMM state)
// and the race detector is off.
var hasAVX512 = cpu.X86.HasAVX512F && !raceEnabled

// fusedAsm runs the fused sum (and division, when div != 0) over cnt
// elements from element offset off; cnt is a multiple of stripe[T]().
func fusedAsm[T Float](ptrs []unsafe.Pointer, off, cnt int, div T) {
	size := unsafe.Sizeof(div)
	if size == 4 {
		fused32AVX512(&ptrs[0], len(ptrs), uintptr(off)*size, cnt, float32(div))
	} else {
		fused64AVX512(&ptrs[0], len(ptrs), uintptr(off)*size, cnt, float64(div))
	}
}

// addAsm sets dst += src (then /= div when div != 0) over cnt elements; cnt
// is a multiple of stripe[T]().
func addAsm[T Float](dst, src unsafe.Pointer, cnt int, div T) {
	if unsafe.Sizeof(div) == 4 {
		add32AVX512(dst, src, cnt, float32(div))
	} else {
		add64AVX512(dst, src, cnt, float64(div))
	}
}

// fused32AVX512 is FusedGo for float32 Sum on cnt elements (a multiple of
// 64) starting at byte offset off of each of the n buffers ptrs[0..n-1]:
//
//	for each 256-byte stripe: Z0..Z3 = ptrs[0][stripe] + ptrs[1][stripe] + ...
//	(in this order); if div != 0 { Z /= div }; store Z0..Z3 into every ptrs[k][stripe]
//
//go:noescape
func fused32AVX512(ptrs *unsafe.Pointer, n int, off uintptr, cnt int, div float32)

// fused64AVX512 is fused32AVX512 for float64 (cnt a multiple of 32).
//
//go:noescape
func fused64AVX512(ptrs *unsafe.Pointer, n int, off uintptr, cnt int, div float64)

// add32AVX512 is CombineGo for float32 Sum: dst[i] += src[i]; if div != 0
// { dst[i] /= div } for i < cnt (a multiple of 64).
//
//go:noescape
func add32AVX512(dst, src unsafe.Pointer, cnt int, div float32)

// add64AVX512 is add32AVX512 for float64 (cnt a multiple of 32).
//
//go:noescape
func add64AVX512(dst, src unsafe.Pointer, cnt int, div float64)

// haveFlush reports CLFLUSHOPT (CPUID leaf 7, EBX bit 23), which
// golang.org/x/sys/cpu does not expose.
var haveFlush = cpuid7ebx()&(1<<23) != 0

// cpuid7ebx returns EBX of CPUID leaf 7, sub-leaf 0.
func cpuid7ebx() uint32

// flushAsm evicts [p, p+n) from every cache level with CLFLUSHOPT.
//
//go:noescape
func flushAsm(p unsafe.Pointer, n int)
