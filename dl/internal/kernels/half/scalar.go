package half

import "math"

// Float32ToFloat16 returns the IEEE 754 binary16 bits nearest to f (ties to
// even), with subnormal results, ±Inf on overflow (|f| ≥ 65520) and NaN
// kept as a quiet NaN with its sign and the top 9 bits of its payload, like
// torch.tensor(f).half() and the F16C instruction VCVTPS2PH.
func Float32ToFloat16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	man := b & 0x7fffff
	if exp == 0xff {
		if man == 0 {
			return sign | 0x7c00 // ±Inf
		}
		return sign | 0x7e00 | uint16(man>>13) // quiet NaN
	}
	e := exp - 127 + 15 // float16 biased exponent
	if e >= 0x1f {
		return sign | 0x7c00 // overflow
	}
	if e <= 0 {
		// Subnormal float16: value = m * 2^-24 with m = significand >> s.
		s := uint(14 - e)
		if s > 24 {
			return sign // below half the smallest subnormal: ±0
		}
		return sign | roundShift(man|0x800000, s)
	}
	// Normal: drop 13 mantissa bits; a carry out of the mantissa correctly
	// increments the exponent (and turns 65520 and above into Inf).
	return sign | roundShift(uint32(e)<<23|man, 13)
}

// roundShift returns x >> s rounded to nearest, ties to even.
func roundShift(x uint32, s uint) uint16 {
	h := x >> s
	rem := x & (1<<s - 1)
	half := uint32(1) << (s - 1)
	if rem > half || rem == half && h&1 == 1 {
		h++
	}
	return uint16(h)
}

// Float16ToFloat32 returns the float32 equal to the binary16 value h (every
// float16 is exactly representable); a signalling NaN is quieted.
func Float16ToFloat32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f && man == 0:
		return math.Float32frombits(sign | 0x7f800000) // ±Inf
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7fc00000 | man<<13) // quiet NaN
	case exp == 0 && man == 0:
		return math.Float32frombits(sign) // ±0
	case exp == 0:
		// Subnormal: man * 2^-24, normalised for float32.
		e := uint32(127 - 15 + 1)
		for man&0x400 == 0 {
			man <<= 1
			e--
		}
		return math.Float32frombits(sign | e<<23 | (man&0x3ff)<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | man<<13)
}

// Float32ToBFloat16 returns the bfloat16 bits nearest to f (ties to even):
// the upper 16 bits of f after rounding, so subnormals stay subnormal,
// overflow rounds to ±Inf and NaN stays a quiet NaN with its sign, like
// torch.tensor(f).bfloat16().
func Float32ToBFloat16(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 {
		return uint16(b>>16) | 0x0040 // quiet NaN (also if the payload was only in the low bits)
	}
	// Add just under half an ulp of bfloat16, plus one if the kept part is
	// odd: the carry rounds up exactly when RNE does.
	return uint16((b + 0x7fff + (b>>16)&1) >> 16)
}

// BFloat16ToFloat32 returns the float32 equal to the bfloat16 value b (the
// bits shifted into the upper half); a signalling NaN is quieted.
func BFloat16ToFloat32(b uint16) float32 {
	if b&0x7fff > 0x7f80 {
		b |= 0x0040
	}
	return math.Float32frombits(uint32(b) << 16)
}
