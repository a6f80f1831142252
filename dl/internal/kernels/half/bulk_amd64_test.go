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
	enc := func(dst []uint16, src []float32) {
		n := vectorLen(len(src), 8)
		if n > 0 {
			encodeF16F16C(&dst[0], &src[0], n)
		}
		encodeFloat16Generic(dst[n:], src[n:])
	}
	dec := func(dst []float32, src []uint16) {
		n := vectorLen(len(src), 8)
		if n > 0 {
			decodeF16F16C(&dst[0], &src[0], n)
		}
		decodeFloat16Generic(dst[n:], src[n:])
	}
	all16 := make([]uint16, 1<<16)
	for i := range all16 {
		all16[i] = uint16(i)
	}
	decodeCase(t, "decodeF16F16C", dec, Float16ToFloat32, all16, 0)
	var f32 []float32
	for _, b := range float32Samples(99991) {
		f32 = append(f32, math.Float32frombits(b))
	}
	encodeCase(t, "encodeF16F16C", enc, Float32ToFloat16, f32, 0)
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range bulkLengths {
		src := make([]float32, n)
		for i := range src {
			src[i] = math.Float32frombits(r.Uint32())
		}
		encodeCase(t, "encodeF16F16C", enc, Float32ToFloat16, src, 3)
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
