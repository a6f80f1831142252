package nn

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/safetensors"
)

// stDType maps dl dtypes to safetensors names.
var stDType = map[dl.DType]safetensors.DType{
	dl.Float64: safetensors.F64, dl.Float32: safetensors.F32,
	dl.Float16: safetensors.F16, dl.BFloat16: safetensors.BF16,
	dl.Int64: safetensors.I64, dl.Int32: safetensors.I32,
	dl.Uint8: safetensors.U8, dl.Bool: safetensors.BOOL,
}

// toStored copies t's bytes (bitwise, little-endian) to host memory.
func toStored(t *dl.Tensor) safetensors.Tensor {
	h := t.To(dl.CPU) // t itself when already on CPU
	if h != t {
		defer h.Release()
	}
	st := safetensors.Tensor{DType: stDType[t.DType()], Shape: t.Shape()}
	var err error
	switch t.DType() {
	case dl.Float64:
		st.Data, err = binary.Append(nil, binary.LittleEndian, h.Float64Data())
	case dl.Float32:
		st.Data, err = binary.Append(nil, binary.LittleEndian, h.Float32Data())
	case dl.Int64:
		st.Data, err = binary.Append(nil, binary.LittleEndian, h.Int64Data())
	case dl.Int32:
		st.Data, err = binary.Append(nil, binary.LittleEndian, narrow[int32](h.Int64s()))
	case dl.Uint8, dl.Bool: // one byte each; a Bool holds 0 or 1, as the BOOL format does
		st.Data = narrow[uint8](h.Int64s())
	default: // Float16, BFloat16: raw 2-byte patterns
		st.Data, err = binary.Append(nil, binary.LittleEndian, h.Uint16Data())
	}
	if err != nil {
		panic(err) // slices of fixed-size numbers always encode
	}
	return st
}

// fromStored returns a CPU tensor of dtype dt holding st's bytes exactly.
// st's dtype, shape and length have been validated.
func fromStored(st safetensors.Tensor, dt dl.DType) *dl.Tensor {
	switch dt { // integers: decoded, then built exactly from int64 values
	case dl.Int32:
		v := make([]int32, len(st.Data)/4)
		if _, err := binary.Decode(st.Data, binary.LittleEndian, v); err != nil {
			panic(err)
		}
		return dl.Options{DType: dt}.FromInt64s(widen(v), st.Shape...)
	case dl.Uint8, dl.Bool:
		return dl.Options{DType: dt}.FromInt64s(widen(st.Data), st.Shape...)
	}
	t := dl.Options{DType: dt}.Zeros(st.Shape...)
	var err error
	switch dt {
	case dl.Int64:
		_, err = binary.Decode(st.Data, binary.LittleEndian, t.Int64Data())
	case dl.Float64:
		_, err = binary.Decode(st.Data, binary.LittleEndian, t.Float64Data())
	case dl.Float32:
		_, err = binary.Decode(st.Data, binary.LittleEndian, t.Float32Data())
	default:
		_, err = binary.Decode(st.Data, binary.LittleEndian, t.Uint16Data())
	}
	if err != nil {
		panic(err) // lengths were checked against the shape
	}
	return t
}

// narrow converts int64 values to a narrower integer type (they came from
// a tensor of that type, so they fit).
func narrow[T int32 | uint8](v []int64) []T {
	out := make([]T, len(v))
	for i, x := range v {
		out[i] = T(x)
	}
	return out
}

// widen converts integers to int64.
func widen[T int32 | uint8](v []T) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// stateEntries returns what a state dict holds: m's parameters, then its
// buffers (BatchNorm2d's running statistics), as torch's state_dict does.
func stateEntries(m Module) []NamedParameter {
	return append(m.NamedParameters(), NamedBuffers(m)...)
}

// StateDict returns m's parameters and buffers by name in the neutral
// safetensors representation (copies of the bytes), like torch's
// module.state_dict().
func StateDict(m Module) map[string]safetensors.Tensor {
	sd := make(map[string]safetensors.Tensor)
	for _, np := range stateEntries(m) {
		sd[np.Name] = toStored(np.Tensor)
	}
	return sd
}

// LoadStateDict copies sd into m's parameters, like torch's
// load_state_dict(strict=True). It first checks the whole state dict — every
// parameter present with m's dtype and shape, and no extra entry — and
// returns a *StateDictError listing all differences without changing m.
func LoadStateDict(m Module, sd map[string]safetensors.Tensor) error {
	return load("", m, sd)
}

func load(path string, m Module, sd map[string]safetensors.Tensor) error {
	nps := stateEntries(m)
	want := make([]entrySpec, len(nps))
	for i, np := range nps {
		want[i] = entrySpec{Name: np.Name, DType: stDType[np.Tensor.DType()], Shape: np.Tensor.Shape()}
	}
	if err := checkStateDict(path, want, sd); err != nil {
		return err
	}
	for _, np := range nps {
		src := fromStored(sd[np.Name], np.Tensor.DType())
		np.Tensor.CopyInPlace(src)
		src.Release()
	}
	return nil
}

// Save writes m's state dict to path as a safetensors file, atomically
// (temporary file, fsync, rename). Python reads it with
// safetensors.torch.load_file(path), and torch's load_state_dict accepts it
// for the matching torch module.
func Save(path string, m Module) error {
	sd := StateDict(m)
	if len(sd) != len(stateEntries(m)) {
		return fmt.Errorf("nn: save %s: two parameters share a name; names: %v", path, names(m))
	}
	return safetensors.WriteFile(path, &safetensors.File{Tensors: sd, Metadata: map[string]string{"format": "pt"}})
}

// Load reads a safetensors file written by Save (or by Python's
// safetensors.torch.save_file) into m. Nothing is changed unless the whole
// file is valid and matches m exactly; see LoadStateDict.
func Load(path string, m Module) error {
	f, err := safetensors.ReadFile(path)
	if err != nil {
		return err
	}
	return load(path, m, f.Tensors)
}

func names(m Module) []string {
	var ns []string
	for _, np := range stateEntries(m) {
		ns = append(ns, np.Name)
	}
	slices.Sort(ns)
	return ns
}
