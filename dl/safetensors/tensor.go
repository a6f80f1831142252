package safetensors

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
)

// Tensor is one stored tensor in the format's neutral representation: an
// element type, a row-major shape and the raw little-endian bytes.
// A shape of length 0 is a scalar (one element); a dimension of 0 makes an
// empty tensor with no bytes.
type Tensor struct {
	DType DType
	Shape []int
	Data  []byte
}

// File is the content of a safetensors file: named tensors plus the optional
// free-form "__metadata__" string map.
type File struct {
	Tensors  map[string]Tensor
	Metadata map[string]string
}

// Names returns the tensor names in sorted order.
func (f *File) Names() []string {
	names := make([]string, 0, len(f.Tensors))
	for n := range f.Tensors {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// NumElements returns the product of the shape (1 for a scalar).
func (t Tensor) NumElements() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// byteSize returns numel(shape) × dtype size, or ok=false on overflow or a
// negative dimension.
func byteSize(d DType, shape []int) (uint64, bool) {
	n := uint64(d.Size())
	for _, s := range shape {
		if s < 0 {
			return 0, false
		}
		hi, lo := bits.Mul64(n, uint64(s))
		if hi != 0 {
			return 0, false
		}
		n = lo
	}
	return n, true
}

// check returns a reason when t is not a valid tensor description, or "".
func (t Tensor) check() string {
	if !t.DType.Valid() {
		return fmt.Sprintf("unknown dtype %q (want one of %v)", t.DType, dtypeOrder)
	}
	n, ok := byteSize(t.DType, t.Shape)
	if !ok {
		return fmt.Sprintf("shape %v is negative or overflows", t.Shape)
	}
	if uint64(len(t.Data)) != n {
		return fmt.Sprintf("dtype %s × shape %v needs %d bytes but the data has %d", t.DType, t.Shape, n, len(t.Data))
	}
	return ""
}

// FromFloat32s returns an F32 tensor holding a copy of v with the given shape.
// It panics if the shape does not hold len(v) elements.
func FromFloat32s(shape []int, v []float32) Tensor { return fromFloats(F32, shape, v) }

// FromFloat64s returns an F64 tensor holding a copy of v with the given shape.
// It panics if the shape does not hold len(v) elements.
func FromFloat64s(shape []int, v []float64) Tensor { return fromFloats(F64, shape, v) }

func fromFloats[T float32 | float64](d DType, shape []int, v []T) Tensor {
	t := Tensor{DType: d, Shape: slices.Clone(shape)}
	if t.NumElements() != len(v) {
		panic(fmt.Sprintf("safetensors: FromFloat%ds: shape %v does not hold %d values", 8*d.Size(), shape, len(v)))
	}
	t.Data, _ = binary.Append(make([]byte, 0, len(v)*d.Size()), binary.LittleEndian, v)
	return t
}

// Float32s decodes an F32 tensor's data. It returns an error for any other
// dtype or a data length that is not a multiple of 4.
func (t Tensor) Float32s() ([]float32, error) { return toFloats[float32](t, F32) }

// Float64s decodes an F64 tensor's data. It returns an error for any other
// dtype or a data length that is not a multiple of 8.
func (t Tensor) Float64s() ([]float64, error) { return toFloats[float64](t, F64) }

func toFloats[T float32 | float64](t Tensor, d DType) ([]T, error) {
	if t.DType != d || len(t.Data)%d.Size() != 0 {
		return nil, fmt.Errorf("safetensors: Float%ds: tensor is %s with %d bytes; want %s", 8*d.Size(), t.DType, len(t.Data), d)
	}
	v := make([]T, len(t.Data)/d.Size())
	_, err := binary.Decode(t.Data, binary.LittleEndian, v)
	return v, err
}
