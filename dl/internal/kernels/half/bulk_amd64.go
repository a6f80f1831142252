//go:build !dlbd_noasm

package half

import "golang.org/x/sys/cpu"

// Vector loops in bulk_amd64.s; n must be a positive multiple of the
// vector width (16, or 8 for the F16C ones).
//
//go:noescape
func encodeF16AVX512(dst *uint16, src *float32, n int)

//go:noescape
func decodeF16AVX512(dst *float32, src *uint16, n int)

//go:noescape
func encodeF16F16C(dst *uint16, src *float32, n int)

//go:noescape
func decodeF16F16C(dst *float32, src *uint16, n int)

//go:noescape
func encodeBF16AVX512(dst *uint16, src *float32, n int)

//go:noescape
func encodeBF16NE(dst *uint16, src *float32, n int)

//go:noescape
func decodeBF16AVX512(dst *float32, src *uint16, n int)

// encodeBF16AVX2 and decodeBF16AVX2 are the bfloat16 loops on 8 values
// at a time, for AVX2 CPUs without AVX-512.
//
//go:noescape
func encodeBF16AVX2(dst *uint16, src *float32, n int)

//go:noescape
func decodeBF16AVX2(dst *float32, src *uint16, n int)

//go:noescape
func encodeRowsAVX512(dst *uint16, ldd int, src *float32, lds, rows int, mlo, mhi uint64, bias *float32, f16 int)

var (
	haveAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW // VPMOVDW, VCVTPS2PH zmm
	haveF16C   = cpu.X86.HasAVX && cpu.X86.HasF16C
	haveBF16   = cpu.X86.HasAVX512BF16
	haveAVX2   = cpu.X86.HasAVX2
)

// vectorLen returns the prefix of n elements the vector loops convert.
func vectorLen(n, width int) int { return n &^ (width - 1) }

// encodeFloat16 converts with VCVTPS2PH, then the generic loop for the tail.
func encodeFloat16(dst []uint16, src []float32) {
	n := 0
	switch {
	case haveAVX512:
		if n = vectorLen(len(src), 16); n > 0 {
			encodeF16AVX512(&dst[0], &src[0], n)
		}
	case haveF16C:
		if n = vectorLen(len(src), 8); n > 0 {
			encodeF16F16C(&dst[0], &src[0], n)
		}
	}
	encodeFloat16Generic(dst[n:], src[n:])
}

// decodeFloat16 converts with VCVTPH2PS, then the generic loop for the tail.
func decodeFloat16(dst []float32, src []uint16) {
	n := 0
	switch {
	case haveAVX512:
		if n = vectorLen(len(src), 16); n > 0 {
			decodeF16AVX512(&dst[0], &src[0], n)
		}
	case haveF16C:
		if n = vectorLen(len(src), 8); n > 0 {
			decodeF16F16C(&dst[0], &src[0], n)
		}
	}
	decodeFloat16Generic(dst[n:], src[n:])
}

// encodeBFloat16 uses the integer RNE loop (not VCVTNEPS2BF16, which
// flushes subnormal inputs), then the generic loop for the tail.
func encodeBFloat16(dst []uint16, src []float32) {
	n := 0
	switch {
	case haveAVX512:
		if n = vectorLen(len(src), 16); n > 0 {
			encodeBF16AVX512(&dst[0], &src[0], n)
		}
	case haveAVX2:
		if n = vectorLen(len(src), 8); n > 0 {
			encodeBF16AVX2(&dst[0], &src[0], n)
		}
	}
	encodeBFloat16Generic(dst[n:], src[n:])
}

// decodeBFloat16 shifts with the AVX-512 or AVX2 loop, then the generic
// loop for the tail.
func decodeBFloat16(dst []float32, src []uint16) {
	n := 0
	switch {
	case haveAVX512:
		if n = vectorLen(len(src), 16); n > 0 {
			decodeBF16AVX512(&dst[0], &src[0], n)
		}
	case haveAVX2:
		if n = vectorLen(len(src), 8); n > 0 {
			decodeBF16AVX2(&dst[0], &src[0], n)
		}
	}
	decodeBFloat16Generic(dst[n:], src[n:])
}

// encodeRows runs the AVX-512 loop on rows of at most 32 columns and
// reports whether it did (else the caller's generic loop runs).
func encodeRows(dst []uint16, ldd int, src []float32, lds, rows, cols int, bias []float32, f16 bool) bool {
	if !haveAVX512 || !cpu.X86.HasAVX512VL || cols > 32 {
		return false
	}
	var b *float32
	if bias != nil {
		b = &bias[0]
	}
	mode := 0
	if f16 {
		mode = 1
	}
	mlo, mhi := uint64(1)<<min(cols, 16)-1, uint64(1)<<max(cols-16, 0)-1
	encodeRowsAVX512(&dst[0], 2*ldd, &src[0], 4*lds, rows, mlo, mhi, b, mode)
	return true
}
