//go:build !dlbd_noasm

package half

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestF16CMatchesScalar tests the 256-bit F16C loops, which the dispatch
// skips on AVX-512 machines.
func TestF16CMatchesScalar(t *testing.T) {
	if !haveF16C {
		t.Skip("no F16C")
	}
	checkVectorLoops(t, "F16C", encodeF16F16C, decodeF16F16C, encodeFloat16Generic, decodeFloat16Generic,
		Float32ToFloat16, Float16ToFloat32, 99991)
}

// TestBF16AVX2MatchesScalar tests the AVX2 bfloat16 loops, which the
// dispatch skips on AVX-512 machines.
func TestBF16AVX2MatchesScalar(t *testing.T) {
	if !haveAVX2 {
		t.Skip("no AVX2")
	}
	checkVectorLoops(t, "BF16AVX2", encodeBF16AVX2, decodeBF16AVX2, encodeBFloat16Generic, decodeBFloat16Generic,
		Float32ToBFloat16, BFloat16ToFloat32, 9973)
}

// checkVectorLoops compares a pair of 8-wide loops (the generic ones
// converting the tail) with the scalar conversions: all 65,536 patterns
// decoded; the dense float32 sample (ties, NaN payloads only in the low
// bits, subnormals, overflow) and random bits at every bulk length
// encoded.
func checkVectorLoops(t *testing.T, name string, encVec func(*uint16, *float32, int), decVec func(*float32, *uint16, int),
	encGen func([]uint16, []float32), decGen func([]float32, []uint16), encScalar func(float32) uint16, decScalar func(uint16) float32, stride uint32) {
	enc := func(dst []uint16, src []float32) {
		n := vectorLen(len(src), 8)
		if n > 0 {
			encVec(&dst[0], &src[0], n)
		}
		encGen(dst[n:], src[n:])
	}
	dec := func(dst []float32, src []uint16) {
		n := vectorLen(len(src), 8)
		if n > 0 {
			decVec(&dst[0], &src[0], n)
		}
		decGen(dst[n:], src[n:])
	}
	all16 := make([]uint16, 1<<16)
	for i := range all16 {
		all16[i] = uint16(i)
	}
	decodeCase(t, "decode"+name, dec, decScalar, all16, 0)
	var f32 []float32
	for _, b := range float32Samples(stride) {
		f32 = append(f32, math.Float32frombits(b))
	}
	encodeCase(t, "encode"+name, enc, encScalar, f32, 0)
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range bulkLengths {
		src, h := make([]float32, n), make([]uint16, n)
		for i := range src {
			src[i] = math.Float32frombits(r.Uint32())
			h[i] = uint16(r.Uint32())
		}
		encodeCase(t, "encode"+name, enc, encScalar, src, 3)
		decodeCase(t, "decode"+name, dec, decScalar, h, 3)
	}
}

// TestVCVTNEPS2BF16FlushesSubnormals documents why EncodeBFloat16 does
// not use the AVX512_BF16 instruction: it rounds like Float32ToBFloat16
// except that subnormal inputs become ±0 (an implicit DAZ), which breaks
// "subnormals exactly as IEEE".
func TestVCVTNEPS2BF16FlushesSubnormals(t *testing.T) {
	if !haveBF16 {
		t.Skip("no AVX512_BF16")
	}
	var src []float32
	for _, b := range float32Samples(99991) {
		src = append(src, math.Float32frombits(b))
	}
	src = src[:vectorLen(len(src), 16)]
	dst := make([]uint16, len(src))
	encodeBF16NE(&dst[0], &src[0], len(src))
	flushed := 0
	for i, f := range src {
		b := math.Float32bits(f)
		want := Float32ToBFloat16(f)
		subnormal := b&0x7f800000 == 0 && b&0x7fffff != 0
		switch {
		case subnormal && dst[i] == uint16(b>>16)&0x8000:
			flushed++
		case subnormal:
			t.Fatalf("VCVTNEPS2BF16(%#08x) = %#04x; want ±0 (flushed)", b, dst[i])
		case dst[i] != want && !(isNaN32(f) && dst[i]&0x7fc0 == 0x7fc0):
			t.Fatalf("VCVTNEPS2BF16(%#08x) = %#04x; want %#04x", b, dst[i], want)
		}
	}
	if flushed == 0 {
		t.Fatalf("no subnormal inputs in the sample")
	}
	t.Logf("%d subnormal inputs flushed to zero", flushed)
}

// BenchmarkVCVTNEPS2BF16 times the AVX512_BF16 instruction that
// EncodeBFloat16 does not use, for comparison with op=encode-bf16 of
// BenchmarkConvert.
func BenchmarkVCVTNEPS2BF16(b *testing.B) {
	if !haveBF16 {
		b.Skip("no AVX512_BF16")
	}
	const n = 1 << 20
	f := make([]float32, n)
	h := make([]uint16, n)
	b.SetBytes(6 * n)
	for b.Loop() {
		encodeBF16NE(&h[0], &f[0], n)
	}
}
