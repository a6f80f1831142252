package half

import (
	"fmt"
	"math"
	"testing"

	"github.com/x448/float16"
)

func isNaN32(f float32) bool { return f != f }

// TestFloat16RoundTrip: every one of the 65,536 float16 values converts to
// float32 and back unchanged (NaN stays NaN, quieted, with its sign).
func TestFloat16RoundTrip(t *testing.T) {
	for i := 0; i < 1<<16; i++ {
		h := uint16(i)
		f := Float16ToFloat32(h)
		isNaN := h&0x7c00 == 0x7c00 && h&0x3ff != 0
		if isNaN {
			back := Float32ToFloat16(f)
			if !isNaN32(f) || back != h|0x0200 {
				t.Errorf("NaN %#04x -> %v -> %#04x; want NaN and %#04x", h, f, back, h|0x0200)
			}
			continue
		}
		if want := float16.Frombits(h).Float32(); math.Float32bits(f) != math.Float32bits(want) {
			t.Errorf("Float16ToFloat32(%#04x) = %v; want %v (x448/float16)", h, f, want)
		}
		if back := Float32ToFloat16(f); back != h {
			t.Errorf("Float32ToFloat16(Float16ToFloat32(%#04x)) = %#04x", h, back)
		}
	}
}

// TestBFloat16RoundTrip: every bfloat16 value round-trips through float32.
func TestBFloat16RoundTrip(t *testing.T) {
	for i := 0; i < 1<<16; i++ {
		b := uint16(i)
		f := BFloat16ToFloat32(b)
		isNaN := b&0x7f80 == 0x7f80 && b&0x7f != 0
		if isNaN {
			if back := Float32ToBFloat16(f); !isNaN32(f) || back != b|0x0040 {
				t.Errorf("NaN %#04x -> %v -> %#04x; want NaN and %#04x", b, f, back, b|0x0040)
			}
			continue
		}
		if got, want := math.Float32bits(f), uint32(b)<<16; got != want {
			t.Errorf("BFloat16ToFloat32(%#04x) bits = %#08x; want %#08x", b, got, want)
		}
		if back := Float32ToBFloat16(f); back != b {
			t.Errorf("Float32ToBFloat16(BFloat16ToFloat32(%#04x)) = %#04x", b, back)
		}
	}
}

// float32Samples returns a dense sample of float32 bit patterns: every
// pattern whose low 13 bits (the ones float16 drops) are near the rounding
// boundaries, for every sign/exponent/top-mantissa combination, plus
// strided patterns in between.  That covers all ties, all values next to
// ties, subnormals of both formats, the overflow threshold, Inf and NaN.
func float32Samples(stride uint32) []uint32 {
	var out []uint32
	low := []uint32{0, 1, 2, 0x0fff, 0x1000, 0x1001, 0x1fff, 0x7fff, 0x8000, 0x8001, 0xffff}
	for hi := uint32(0); hi < 1<<19; hi++ { // sign, exponent, top 10 mantissa bits
		for _, l := range low {
			out = append(out, hi<<13|l&0x1fff)
		}
	}
	for b := uint64(0); b < 1<<32; b += uint64(stride) {
		out = append(out, uint32(b))
	}
	return out
}

// TestFloat32ToFloat16MatchesX448 compares against github.com/x448/float16
// (whose author checked all 2^32 conversions) on the dense sample.
func TestFloat32ToFloat16MatchesX448(t *testing.T) {
	stride := uint32(97)
	if testing.Short() {
		stride = 9973
	}
	bad := 0
	for _, b := range float32Samples(stride) {
		f := math.Float32frombits(b)
		got, want := Float32ToFloat16(f), float16.Fromfloat32(f).Bits()
		if got != want {
			if bad++; bad <= 5 {
				t.Errorf("Float32ToFloat16(%#08x = %g) = %#04x; want %#04x", b, f, got, want)
			}
		}
	}
}

func TestFloat16KnownValues(t *testing.T) {
	for _, tc := range []struct {
		f    float32
		want uint16
	}{
		{0, 0x0000}, {float32(math.Copysign(0, -1)), 0x8000}, {1, 0x3c00}, {-2, 0xc000},
		{65504, 0x7bff},                     // max
		{65519.99, 0x7bff}, {65520, 0x7c00}, // the overflow tie rounds to even: Inf
		{float32(math.Inf(-1)), 0xfc00}, // -Inf
		{6.1035156e-05, 0x0400},         // smallest normal 2^-14
		{5.9604645e-08, 0x0001},         // smallest subnormal 2^-24
		{2.9802322e-08, 0x0000},         // 2^-25: tie between 0 and 2^-24 -> even (0)
		{2.9802326e-08, 0x0001},         // just above the tie
		{1 + 1.0/2048, 0x3c00},          // tie, even below
		{1 + 3.0/2048, 0x3c02},          // tie, even above
		{0.1, 0x2e66},
	} {
		if got := Float32ToFloat16(tc.f); got != tc.want {
			t.Errorf("Float32ToFloat16(%g) = %#04x; want %#04x", tc.f, got, tc.want)
		}
	}
}

// TestBFloat16RNE checks ties to even and the neighbours of ties.
func TestBFloat16RNE(t *testing.T) {
	for _, tc := range []struct {
		bits uint32
		want uint16
	}{
		{0x3f800000, 0x3f80}, // 1
		{0x3f808000, 0x3f80}, // tie, kept part even: down
		{0x3f818000, 0x3f82}, // tie, kept part odd: up
		{0x3f808001, 0x3f81}, // above the tie: up
		{0x3f807fff, 0x3f80}, // below the tie: down
		{0x7f7fffff, 0x7f80}, // max float32 rounds to Inf
		{0x7f7f7fff, 0x7f7f}, // stays max bfloat16
		{0x00008000, 0x0000}, // subnormal tie to even (0)
		{0x00018000, 0x0002}, // subnormal tie to even (2)
		{0x80000001, 0x8000}, // -tiny -> -0
		{0x7f800001, 0x7fc0}, // NaN with payload in the low bits stays NaN
		{0xff810000, 0xffc1}, // signalling NaN quieted, sign and payload kept
	} {
		if got := Float32ToBFloat16(math.Float32frombits(tc.bits)); got != tc.want {
			t.Errorf("Float32ToBFloat16(%#08x) = %#04x; want %#04x", tc.bits, got, tc.want)
		}
	}
}

func TestBulkLengthMismatch(t *testing.T) {
	defer func() {
		want := "half: EncodeFloat16: len(dst) = 2, len(src) = 3; make them equal"
		if r := recover(); fmt.Sprint(r) != want {
			t.Errorf("panic = %v; want %q", r, want)
		}
	}()
	EncodeFloat16(make([]uint16, 2), make([]float32, 3))
}
