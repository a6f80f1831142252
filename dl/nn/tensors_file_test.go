package nn

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/safetensors"
)

func TestSaveLoadTensors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "opt.safetensors")
	in := map[string]*dl.Tensor{
		"state.0.exp_avg": dl.FromSlice([]float32{1.5, -2}, 2),
		"state.0.step":    dl.FromSlice([]float64{7}, 1),
		"half":            dl.FromSlice([]float32{0.1, 3}, 2).AsType(dl.BFloat16),
	}
	if err := SaveTensors(path, in); err != nil {
		t.Fatal(err)
	}
	out, err := LoadTensors(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range in {
		got := out[name]
		if got == nil || got.DType() != want.DType() || !slices.Equal(got.Float64s(), want.Float64s()) {
			t.Errorf("%s: got %v; want %v", name, got, want)
		}
	}
	bad := filepath.Join(t.TempDir(), "ints.safetensors")
	safetensors.WriteFile(bad, &safetensors.File{Tensors: map[string]safetensors.Tensor{"ids": {DType: safetensors.I64, Shape: []int{1}, Data: make([]byte, 8)}}})
	if _, err := LoadTensors(bad); err == nil || !strings.Contains(err.Error(), `tensor "ids" has dtype I64`) {
		t.Errorf("LoadTensors(I64 file) = %v", err)
	}
}
