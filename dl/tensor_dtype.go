package dl

import "strconv"

// DType is the element type of a tensor, like torch.dtype.  The zero value
// is Float32, the default of PyTorch and of dl.
type DType uint8

// The element types.  Float16 and BFloat16 are stored as 2-byte values and
// computed in float32 (ops decode, compute with float32 accumulation and
// encode the result), as tensor cores and CPU autocast do.
const (
	Float32  DType = iota // IEEE 754 binary32, 4 bytes (the default)
	Float64               // IEEE 754 binary64, 8 bytes
	Float16               // IEEE 754 binary16 ("half"), 2 bytes
	BFloat16              // bfloat16: the upper half of a float32, 2 bytes
)

// String returns the dtype's name as PyTorch spells it without the
// "torch." prefix: "float32", "float64", "float16" or "bfloat16".
func (d DType) String() string {
	switch d {
	case Float32:
		return "float32"
	case Float64:
		return "float64"
	case Float16:
		return "float16"
	case BFloat16:
		return "bfloat16"
	}
	return "DType(" + strconv.Itoa(int(d)) + ")"
}

// Size returns the number of bytes of one element, like
// torch.dtype.itemsize.
func (d DType) Size() int {
	switch d {
	case Float64:
		return 8
	case Float16, BFloat16:
		return 2
	}
	return 4
}

// IsHalf reports whether d is one of the 2-byte types (Float16, BFloat16).
func (d DType) IsHalf() bool { return d == Float16 || d == BFloat16 }

// valid reports whether d is one of the four dtypes.
func (d DType) valid() bool { return d <= BFloat16 }

// dtGo spells a dtype as Go code, for the fixes in error messages.
func dtGo(d DType) string {
	if !d.valid() {
		return d.String()
	}
	return [...]string{Float32: "Float32", Float64: "Float64", Float16: "Float16", BFloat16: "BFloat16"}[d]
}
