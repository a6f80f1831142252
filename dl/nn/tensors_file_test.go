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
		"labels":          dl.FromSlice([]int64{3, 1 << 40, -2}),
		"ids32":           dl.FromSlice([]int32{7, -7}, 2, 1),
		"pixels":          dl.FromSlice([]uint8{0, 255}),
		"mask":            dl.FromSlice([]bool{true, false, true}),
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
		if got == nil || got.DType() != want.DType() || !slices.Equal(got.Shape(), want.Shape()) ||
			!slices.Equal(got.Float64s(), want.Float64s()) || !slices.Equal(got.Int64s(), want.Int64s()) {
			t.Errorf("%s: got %v; want %v", name, got, want)
		}
	}
	// int64 labels as torch.save_file writes them (little-endian 8-byte values)
	torchLike := filepath.Join(t.TempDir(), "labels.safetensors")
	data := []byte{2, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	safetensors.WriteFile(torchLike, &safetensors.File{Tensors: map[string]safetensors.Tensor{"y": {DType: safetensors.I64, Shape: []int{2}, Data: data}}})
	got, err := LoadTensors(torchLike)
	if err != nil || got["y"].DType() != dl.Int64 || !slices.Equal(got["y"].Int64s(), []int64{2, -1}) {
		t.Errorf("LoadTensors(I64 labels) = %v, %v; want Int64 [2 -1]", got["y"], err)
	}
	bad := filepath.Join(t.TempDir(), "i8.safetensors")
	safetensors.WriteFile(bad, &safetensors.File{Tensors: map[string]safetensors.Tensor{"q": {DType: safetensors.I8, Shape: []int{1}, Data: make([]byte, 1)}}})
	if _, err := LoadTensors(bad); err == nil || !strings.Contains(err.Error(), `tensor "q" has dtype I8`) {
		t.Errorf("LoadTensors(I8 file) = %v", err)
	}
}
