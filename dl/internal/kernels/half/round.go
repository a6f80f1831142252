package half

// RoundFloat16 rounds every element of x to the nearest float16 value, in
// place: x[i] = Float16ToFloat32(Float32ToFloat16(x[i])) (values beyond
// float16's range become ±Inf).  It is what casting a float32 tensor to
// float16 and back gives, without the float16 tensor: the bulk
// conversions run on 512-element chunks through a stack buffer.
func RoundFloat16(x []float32) { roundVia(x, encodeFloat16, decodeFloat16) }

// RoundBFloat16 rounds every element of x to the nearest bfloat16 value,
// in place: x[i] = BFloat16ToFloat32(Float32ToBFloat16(x[i])).
func RoundBFloat16(x []float32) { roundVia(x, encodeBFloat16, decodeBFloat16) }

func roundVia(x []float32, enc func([]uint16, []float32), dec func([]float32, []uint16)) {
	var buf [512]uint16
	for len(x) > 0 {
		n := min(len(x), len(buf))
		enc(buf[:n], x[:n])
		dec(x[:n], buf[:n])
		x = x[n:]
	}
}
