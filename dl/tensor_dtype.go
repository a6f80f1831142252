package dl

import "strconv"

// DType is the element type of a tensor, like torch.dtype.  The zero value
// is Float32, the default of PyTorch and of dl.
type DType uint8

// The element types.  Float16 and BFloat16 are stored as 2-byte values and
// computed in float32 (ops decode, compute with float32 accumulation and
// encode the result), as tensor cores and CPU autocast do.
//
// Int64, Int32, Uint8 and Bool hold class targets, token ids, counts and
// masks, as torch.int64 (PyTorch's default integer type), torch.int32,
// torch.uint8 and torch.bool do.  They support creation, conversion
// (AsType, To), printing, shape ops and indexing, comparisons (which
// return Bool masks, like PyTorch's), Where and MaskedFill masks,
// integer arithmetic (Add, Sub, Mul, Neg and their scalar forms with
// integer scalars), Sum (into Int64), Max and ArgMax, and loading and
// saving; ops that need fractions (Div, Exp, Mean, MatMul, ...) panic with
// a *DTypeError saying to convert with AsType, as PyTorch refuses
// mean() of an integer tensor.  They never require grad.  They compute on
// host devices (CPU, Sim); on a GPU they can be stored and moved only.
const (
	Float32  DType = iota // IEEE 754 binary32, 4 bytes (the default)
	Float64               // IEEE 754 binary64, 8 bytes
	Float16               // IEEE 754 binary16 ("half"), 2 bytes
	BFloat16              // bfloat16: the upper half of a float32, 2 bytes
	Int64                 // signed 64-bit integer, 8 bytes (torch.int64, "long")
	Int32                 // signed 32-bit integer, 4 bytes (torch.int32)
	Uint8                 // unsigned 8-bit integer, 1 byte (torch.uint8)
	Bool                  // false or true, 1 byte holding 0 or 1 (torch.bool)
)

var dtypeNames = [...]string{Float32: "float32", Float64: "float64", Float16: "float16", BFloat16: "bfloat16",
	Int64: "int64", Int32: "int32", Uint8: "uint8", Bool: "bool"}

// String returns the dtype's name as PyTorch spells it without the
// "torch." prefix: "float32", "float64", "float16", "bfloat16", "int64",
// "int32", "uint8" or "bool".
func (d DType) String() string {
	if d.valid() {
		return dtypeNames[d]
	}
	return "DType(" + strconv.Itoa(int(d)) + ")"
}

// Size returns the number of bytes of one element, like
// torch.dtype.itemsize.
func (d DType) Size() int {
	switch d {
	case Float64, Int64:
		return 8
	case Float16, BFloat16:
		return 2
	case Uint8, Bool:
		return 1
	}
	return 4
}

// IsHalf reports whether d is one of the 2-byte types (Float16, BFloat16).
func (d DType) IsHalf() bool { return d == Float16 || d == BFloat16 }

// IsFloat reports whether d is a floating-point type, like
// torch.dtype.is_floating_point: only those require grad and compute
// fractions.
func (d DType) IsFloat() bool { return d <= BFloat16 }

// isInt reports whether d is an integer type or Bool.
func (d DType) isInt() bool { return d >= Int64 && d <= Bool }

// valid reports whether d is one of the eight dtypes.
func (d DType) valid() bool { return d <= Bool }

// dtGo spells a dtype as Go code, for the fixes in error messages.
func dtGo(d DType) string {
	if !d.valid() {
		return d.String()
	}
	return [...]string{Float32: "Float32", Float64: "Float64", Float16: "Float16", BFloat16: "BFloat16",
		Int64: "Int64", Int32: "Int32", Uint8: "Uint8", Bool: "Bool"}[d]
}
