package reduce

import (
	"fmt"
	"unsafe"
)

// Op is an element-wise reduction. Mean is not an Op: it is Sum followed by
// a division (the div argument of the kernels).
type Op int

// The reductions.
const (
	Sum Op = iota
	Prod
	Max
	Min
)

// Float is the element type of the kernels.
type Float interface{ ~float32 | ~float64 }

// apply returns op(a, b). Max and Min propagate NaN, like Go's max and min.
func apply[T Float](op Op, a, b T) T {
	switch op {
	case Sum:
		return a + b
	case Prod:
		return a * b
	case Max:
		return max(a, b)
	case Min:
		return min(a, b)
	}
	panic(fmt.Sprintf("reduce: unknown op %d", int(op)))
}

// CombineGo is the reference loop of Combine:
//
//	for i := range dst { dst[i] = op(dst[i], src[i]); if div != 0 { dst[i] /= div } }
func CombineGo[T Float](dst, src []T, op Op, div T) {
	if len(src) != len(dst) {
		panic(fmt.Sprintf("reduce: Combine with len(dst)=%d, len(src)=%d", len(dst), len(src)))
	}
	src = src[:len(dst)]
	if op == Sum && div == 0 {
		addGo(dst, src)
		return
	}
	for i := range dst {
		v := apply(op, dst[i], src[i])
		if div != 0 {
			v /= div
		}
		dst[i] = v
	}
}

// addGo is dst[i] += src[i], unrolled by 8 (len(src) == len(dst)).
func addGo[T Float](dst, src []T) {
	i := 0
	for ; i+8 <= len(dst); i += 8 {
		d := dst[i : i+8 : i+8]
		s := src[i : i+8 : i+8]
		d[0] += s[0]
		d[1] += s[1]
		d[2] += s[2]
		d[3] += s[3]
		d[4] += s[4]
		d[5] += s[5]
		d[6] += s[6]
		d[7] += s[7]
	}
	for ; i < len(dst); i++ {
		dst[i] += src[i]
	}
}

// goTile is the number of elements the Go fused kernel accumulates at a
// time: 4 KiB of float32, small enough to stay in L1.
const goTile = 1024

// FusedGo is the reference loop of Fused:
//
//	for i := off; i < off+cnt; i++ {
//		v := bufs[0][i]
//		for k := 1; k < len(bufs); k++ { v = op(v, bufs[k][i]) }
//		if div != 0 { v /= div }
//		for k := range bufs { bufs[k][i] = v }
//	}
//
// It works tile by tile so that the tile of every buffer is still cached
// when the result is stored back.
func FusedGo[T Float](bufs [][]T, off, cnt int, op Op, div T) {
	var acc [goTile]T
	end := off + cnt
	for t := off; t < end; t += goTile {
		m := min(goTile, end-t)
		a := acc[:m]
		copy(a, bufs[0][t:t+m])
		for k := 1; k < len(bufs); k++ {
			CombineGo(a, bufs[k][t:t+m], op, 0)
		}
		if div != 0 {
			for i := range a {
				a[i] /= div
			}
		}
		for k := range bufs {
			copy(bufs[k][t:t+m], a)
		}
	}
}

// Combine sets dst[i] = op(dst[i], src[i]), then divides by div when div is
// not 0 (the last step of a mean). It panics if the lengths differ.
func Combine[T Float](dst, src []T, op Op, div T) {
	if len(src) != len(dst) {
		panic(fmt.Sprintf("reduce: Combine with len(dst)=%d, len(src)=%d", len(dst), len(src)))
	}
	if op == Sum && len(dst) > 0 && hasAVX512 {
		if vec := len(dst) &^ (stripe[T]() - 1); vec > 0 {
			addAsm(unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), vec, div)
			dst, src = dst[vec:], src[vec:]
		}
	}
	CombineGo(dst, src, op, div)
}

// Fused reduces element range [off, off+cnt) of every buffer of bufs with op
// (optionally dividing by div) and stores the result into all of them; see
// FusedGo for the loop. ptrs[k] must be &bufs[k][0]; it is passed so that the
// caller can build it once per collective instead of once per block.
func Fused[T Float](bufs [][]T, ptrs []unsafe.Pointer, off, cnt int, op Op, div T) {
	if op == Sum && cnt > 0 && hasAVX512 {
		if vec := cnt &^ (stripe[T]() - 1); vec > 0 {
			fusedAsm(ptrs, off, vec, div)
			off, cnt = off+vec, cnt-vec
		}
	}
	if cnt > 0 {
		FusedGo(bufs, off, cnt, op, div)
	}
}

// Double sets x[i] += x[i] over the whole slice: an in-place
// read-modify-write stream whose memory traffic (read and write every byte
// once) is the pattern of an in-place all-reduce. Benchmarks use it to
// measure the bandwidth B of the all-reduce floor t_min = 2·n·S/B.
func Double[T Float](x []T) { Combine(x, x, Sum, 0) }

// HasAVX512 reports whether the assembly kernels are in use.
func HasAVX512() bool { return hasAVX512 }

// stripe is the number of elements of each buffer the assembly kernels
// handle per iteration: 256 bytes, four 64-byte ZMM registers.
func stripe[T Float]() int { return 256 / int(unsafe.Sizeof(T(0))) }

// FlushCache evicts x from every cache level (writing dirty lines back) and
// reports whether it could; benchmarks use it to time calls on data that is
// in main memory only.
func FlushCache[T Float](x []T) bool {
	if !haveFlush || len(x) == 0 {
		return false
	}
	flushAsm(unsafe.Pointer(&x[0]), len(x)*int(unsafe.Sizeof(x[0])))
	return true
}
