package nn

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/safetensors"
)

// SaveTensors writes named tensors (an optimizer's state dict, for
// instance) to a safetensors file, atomically and bit for bit.
func SaveTensors(path string, tensors map[string]*dl.Tensor) error {
	f := &safetensors.File{Tensors: make(map[string]safetensors.Tensor, len(tensors))}
	for name, t := range tensors {
		f.Tensors[name] = toStored(t)
	}
	return safetensors.WriteFile(path, f)
}

// LoadTensors reads every tensor of a safetensors file onto the CPU, like
// safetensors.torch.load_file: F64, F32, F16, BF16, I64 (PyTorch's int64
// labels and token ids), I32, U8 and BOOL. It returns an error for a
// malformed file or a dtype dl does not have (I8, I16, U16, U32, U64, the
// 8-bit floats).
func LoadTensors(path string) (map[string]*dl.Tensor, error) {
	f, err := safetensors.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*dl.Tensor, len(f.Tensors))
	for _, name := range f.Names() {
		st := f.Tensors[name]
		dt, ok := dlDType(st.DType)
		if !ok {
			return nil, fmt.Errorf("nn: load tensors from %s: tensor %q has dtype %s; dl loads F64, F32, F16, BF16, I64, I32, U8 and BOOL", path, name, st.DType)
		}
		out[name] = fromStored(st, dt)
	}
	return out, nil
}

func dlDType(d safetensors.DType) (dl.DType, bool) {
	for k, v := range stDType {
		if v == d {
			return k, true
		}
	}
	return 0, false
}
