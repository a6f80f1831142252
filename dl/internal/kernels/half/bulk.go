package half

import "fmt"

// EncodeFloat16 sets dst[i] = Float32ToFloat16(src[i]) for every i.  It
// panics if len(dst) != len(src).
func EncodeFloat16(dst []uint16, src []float32) {
	checkLen("EncodeFloat16", len(dst), len(src))
	encodeFloat16(dst, src)
}

// DecodeFloat16 sets dst[i] = Float16ToFloat32(src[i]) for every i.  It
// panics if len(dst) != len(src).
func DecodeFloat16(dst []float32, src []uint16) {
	checkLen("DecodeFloat16", len(dst), len(src))
	decodeFloat16(dst, src)
}

// EncodeBFloat16 sets dst[i] = Float32ToBFloat16(src[i]) for every i.  It
// panics if len(dst) != len(src).
func EncodeBFloat16(dst []uint16, src []float32) {
	checkLen("EncodeBFloat16", len(dst), len(src))
	encodeBFloat16(dst, src)
}

// DecodeBFloat16 sets dst[i] = BFloat16ToFloat32(src[i]) for every i.  It
// panics if len(dst) != len(src).
func DecodeBFloat16(dst []float32, src []uint16) {
	checkLen("DecodeBFloat16", len(dst), len(src))
	decodeBFloat16(dst, src)
}

func checkLen(op string, dst, src int) {
	if dst != src {
		panic(fmt.Sprintf("half: %s: len(dst) = %d, len(src) = %d; make them equal", op, dst, src))
	}
}

// The generic twins: the reference loops that the assembly versions
// (half_amd64.s) must match bit for bit, and the implementation elsewhere.

// encodeFloat16Generic is: for i, f := range src { dst[i] = Float32ToFloat16(f) }.
func encodeFloat16Generic(dst []uint16, src []float32) {
	for i, f := range src {
		dst[i] = Float32ToFloat16(f)
	}
}

// decodeFloat16Generic is: for i, h := range src { dst[i] = Float16ToFloat32(h) }.
func decodeFloat16Generic(dst []float32, src []uint16) {
	for i, h := range src {
		dst[i] = Float16ToFloat32(h)
	}
}

// encodeBFloat16Generic is: for i, f := range src { dst[i] = Float32ToBFloat16(f) }.
func encodeBFloat16Generic(dst []uint16, src []float32) {
	for i, f := range src {
		dst[i] = Float32ToBFloat16(f)
	}
}

// decodeBFloat16Generic is: for i, b := range src { dst[i] = BFloat16ToFloat32(b) }.
func decodeBFloat16Generic(dst []float32, src []uint16) {
	for i, b := range src {
		dst[i] = BFloat16ToFloat32(b)
	}
}
