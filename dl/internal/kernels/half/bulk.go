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

// EncodeBFloat16Rows sets, for rows rows of cols values, row i of dst
// (row stride ldd) to Float32ToBFloat16 of row i of src (row stride lds)
// plus bias[j] (a float32 sum; nil: nothing added): the epilogue of a
// tile of a matrix product (AVX-512: one call for up to 32 columns).  It
// panics if a slice is too short.
func EncodeBFloat16Rows(dst []uint16, ldd int, src []float32, lds, rows, cols int, bias []float32) {
	encodeRowsOf("EncodeBFloat16Rows", dst, ldd, src, lds, rows, cols, bias, false)
}

// EncodeFloat16Rows is EncodeBFloat16Rows with Float32ToFloat16.
func EncodeFloat16Rows(dst []uint16, ldd int, src []float32, lds, rows, cols int, bias []float32) {
	encodeRowsOf("EncodeFloat16Rows", dst, ldd, src, lds, rows, cols, bias, true)
}

func encodeRowsOf(op string, dst []uint16, ldd int, src []float32, lds, rows, cols int, bias []float32, f16 bool) {
	if rows <= 0 || cols <= 0 {
		return
	}
	if len(dst) < (rows-1)*ldd+cols || len(src) < (rows-1)*lds+cols || (bias != nil && len(bias) < cols) || ldd < cols || lds < cols {
		panic(fmt.Sprintf("half: %s: %d rows of %d with strides %d (dst, len %d) and %d (src, len %d), bias of len %d: a slice is too short or a stride below the row length",
			op, rows, cols, ldd, len(dst), lds, len(src), len(bias)))
	}
	if encodeRows(dst, ldd, src, lds, rows, cols, bias, f16) {
		return
	}
	// Row by row through the bulk loops (vector ones where the CPU has
	// them), the bias added first in pieces on the stack.
	enc := encodeBFloat16
	if f16 {
		enc = encodeFloat16
	}
	var sum [64]float32
	for i := range rows {
		d, s := dst[i*ldd:][:cols], src[i*lds:][:cols]
		if bias == nil {
			enc(d, s)
			continue
		}
		for j := 0; j < cols; j += len(sum) {
			part := sum[:min(len(sum), cols-j)]
			for k := range part {
				part[k] = s[j+k] + bias[j+k]
			}
			enc(d[j:j+len(part)], part)
		}
	}
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
