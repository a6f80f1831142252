package half

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// bulkLengths are the lengths the vector loops must handle: empty, shorter
// than a vector, around one and two vectors, and long with a tail.
var bulkLengths = []int{0, 1, 7, 8, 9, 15, 16, 17, 1023}

const guardLen = 8

// encodeCase checks one bulk encoder against its scalar reference on src
// placed at an unaligned offset, with guard elements after dst.
func encodeCase(t *testing.T, name string, bulk func([]uint16, []float32), scalar func(float32) uint16, src []float32, off int) {
	t.Helper()
	buf := make([]uint16, off+len(src)+guardLen)
	for i := range buf {
		buf[i] = 0xdead
	}
	dst := buf[off : off+len(src)]
	s := make([]float32, off+len(src))[off:]
	copy(s, src)
	bulk(dst, s)
	for i, f := range src {
		if want := scalar(f); dst[i] != want {
			t.Fatalf("%s(len %d, offset %d)[%d] (%#08x) = %#04x; want %#04x", name, len(src), off, i, math.Float32bits(f), dst[i], want)
		}
	}
	for i, g := range buf[:off] {
		if g != 0xdead {
			t.Fatalf("%s: guard before dst[%d] overwritten", name, i)
		}
	}
	for i, g := range buf[off+len(src):] {
		if g != 0xdead {
			t.Fatalf("%s(len %d, offset %d): guard after dst[%d] overwritten", name, len(src), off, i)
		}
	}
}

func decodeCase(t *testing.T, name string, bulk func([]float32, []uint16), scalar func(uint16) float32, src []uint16, off int) {
	t.Helper()
	guardBits := uint32(0x7fc0dead)
	buf := make([]float32, off+len(src)+guardLen)
	for i := range buf {
		buf[i] = math.Float32frombits(guardBits)
	}
	dst := buf[off : off+len(src)]
	s := make([]uint16, off+len(src))[off:]
	copy(s, src)
	bulk(dst, s)
	for i, h := range src {
		if got, want := math.Float32bits(dst[i]), math.Float32bits(scalar(h)); got != want {
			t.Fatalf("%s(len %d, offset %d)[%d] (%#04x) = %#08x; want %#08x", name, len(src), off, i, h, got, want)
		}
	}
	for i, g := range buf {
		if (i < off || i >= off+len(src)) && math.Float32bits(g) != guardBits {
			t.Fatalf("%s(len %d, offset %d): guard %d overwritten", name, len(src), off, i)
		}
	}
}

// TestBulkMatchesScalar: the dispatched bulk functions (assembly where the
// CPU has it) against the scalar conversions, on all 65,536 16-bit
// patterns, on the dense float32 sample, and on every length in
// bulkLengths at offsets 0..3 with guards.
func TestBulkMatchesScalar(t *testing.T) {
	all16 := make([]uint16, 1<<16)
	for i := range all16 {
		all16[i] = uint16(i)
	}
	decodeCase(t, "DecodeFloat16", DecodeFloat16, Float16ToFloat32, all16, 0)
	decodeCase(t, "DecodeBFloat16", DecodeBFloat16, BFloat16ToFloat32, all16, 0)
	stride := uint32(997)
	if testing.Short() {
		stride = 99991
	}
	var f32 []float32
	for _, b := range float32Samples(stride) {
		f32 = append(f32, math.Float32frombits(b))
	}
	encodeCase(t, "EncodeFloat16", EncodeFloat16, Float32ToFloat16, f32, 0)
	encodeCase(t, "EncodeBFloat16", EncodeBFloat16, Float32ToBFloat16, f32, 0)

	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range bulkLengths {
		for off := 0; off < 4; off++ {
			src := make([]float32, n)
			h := make([]uint16, n)
			for i := range src {
				src[i] = math.Float32frombits(r.Uint32()) // every class: NaN, Inf, subnormal, ...
				h[i] = uint16(r.Uint32())
			}
			encodeCase(t, "EncodeFloat16", EncodeFloat16, Float32ToFloat16, src, off)
			encodeCase(t, "EncodeBFloat16", EncodeBFloat16, Float32ToBFloat16, src, off)
			decodeCase(t, "DecodeFloat16", DecodeFloat16, Float16ToFloat32, h, off)
			decodeCase(t, "DecodeBFloat16", DecodeBFloat16, BFloat16ToFloat32, h, off)
		}
	}
}

// TestGenericMatchesScalar runs the generic twins (the -tags dlbd_noasm and
// non-amd64 implementation) through the same lengths.
func TestGenericMatchesScalar(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range bulkLengths {
		src := make([]float32, n)
		h := make([]uint16, n)
		for i := range src {
			src[i] = math.Float32frombits(r.Uint32())
			h[i] = uint16(r.Uint32())
		}
		encodeCase(t, "encodeFloat16Generic", encodeFloat16Generic, Float32ToFloat16, src, 1)
		encodeCase(t, "encodeBFloat16Generic", encodeBFloat16Generic, Float32ToBFloat16, src, 1)
		decodeCase(t, "decodeFloat16Generic", decodeFloat16Generic, Float16ToFloat32, h, 1)
		decodeCase(t, "decodeBFloat16Generic", decodeBFloat16Generic, BFloat16ToFloat32, h, 1)
	}
}

// BenchmarkConvert compares the bulk conversions (assembly where
// available) with the generic scalar loops, in GB/s of source plus
// destination bytes (6 per element), on 1 Mi elements (4 MiB + 2 MiB,
// L2/L3-resident as an activation tensor would be).
func BenchmarkConvert(b *testing.B) {
	const n = 1 << 20
	f := make([]float32, n)
	h := make([]uint16, n)
	r := rand.New(rand.NewPCG(5, 6))
	for i := range f {
		f[i] = float32(r.NormFloat64())
	}
	EncodeFloat16(h, f)
	for _, c := range []struct {
		name string
		run  func()
	}{
		{"op=encode-f16/impl=bulk", func() { EncodeFloat16(h, f) }},
		{"op=encode-f16/impl=generic", func() { encodeFloat16Generic(h, f) }},
		{"op=decode-f16/impl=bulk", func() { DecodeFloat16(f, h) }},
		{"op=decode-f16/impl=generic", func() { decodeFloat16Generic(f, h) }},
		{"op=encode-bf16/impl=bulk", func() { EncodeBFloat16(h, f) }},
		{"op=encode-bf16/impl=generic", func() { encodeBFloat16Generic(h, f) }},
		{"op=decode-bf16/impl=bulk", func() { DecodeBFloat16(f, h) }},
		{"op=decode-bf16/impl=generic", func() { decodeBFloat16Generic(f, h) }},
	} {
		b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
			b.SetBytes(6 * n)
			for b.Loop() {
				c.run()
			}
		})
	}
}
