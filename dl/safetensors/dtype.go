package safetensors

// DType is the element type of a stored tensor, spelled as in the
// safetensors header ("F32", "BF16", ...).
type DType string

// The element types of the safetensors format. The list and the byte sizes
// follow the reference implementation (huggingface/safetensors, tensor.rs).
const (
	BOOL    DType = "BOOL"
	U8      DType = "U8"
	I8      DType = "I8"
	F8E5M2  DType = "F8_E5M2"
	F8E4M3  DType = "F8_E4M3"
	I16     DType = "I16"
	U16     DType = "U16"
	F16     DType = "F16"
	BF16    DType = "BF16"
	I32     DType = "I32"
	U32     DType = "U32"
	F32     DType = "F32"
	F64     DType = "F64"
	I64     DType = "I64"
	U64     DType = "U64"
	unknown DType = ""
)

// dtypeOrder lists the dtypes in the order of the reference implementation's
// enum. Writers place tensors by descending rank in this list, then by name,
// which keeps every tensor aligned to its element size (and makes our files
// identical, up to metadata key order, to the ones Python's safetensors
// writes for the same input).
var dtypeOrder = []DType{BOOL, U8, I8, F8E5M2, F8E4M3, I16, U16, F16, BF16, I32, U32, F32, F64, I64, U64}

// Size returns the number of bytes of one element, or 0 for a dtype the
// format does not define.
func (d DType) Size() int {
	switch d {
	case BOOL, U8, I8, F8E5M2, F8E4M3:
		return 1
	case I16, U16, F16, BF16:
		return 2
	case I32, U32, F32:
		return 4
	case F64, I64, U64:
		return 8
	}
	return 0
}

// Valid reports whether d is one of the dtypes the format defines.
func (d DType) Valid() bool { return d.Size() > 0 }

// rank is d's position in dtypeOrder (-1 if unknown).
func (d DType) rank() int {
	for i, x := range dtypeOrder {
		if x == d {
			return i
		}
	}
	return -1
}
