package nn

import (
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl/safetensors"
)

func TestCheckStateDict(t *testing.T) {
	want := []entrySpec{
		{"0.weight", safetensors.F32, []int{3, 2}},
		{"0.bias", safetensors.F32, []int{3}},
		{"2.weight", safetensors.F32, []int{1, 3}},
	}
	ok := map[string]safetensors.Tensor{
		"0.weight": safetensors.FromFloat32s([]int{3, 2}, make([]float32, 6)),
		"0.bias":   safetensors.FromFloat32s([]int{3}, make([]float32, 3)),
		"2.weight": safetensors.FromFloat32s([]int{1, 3}, make([]float32, 3)),
	}
	if err := checkStateDict("", want, ok); err != nil {
		t.Fatalf("matching state dict: %v", err)
	}
	bad := map[string]safetensors.Tensor{
		"0.weight": safetensors.FromFloat32s([]int{2, 3}, make([]float32, 6)),
		"0.bias":   safetensors.FromFloat64s([]int{3}, make([]float64, 3)),
		"extra":    safetensors.FromFloat32s([]int{1}, make([]float32, 1)),
	}
	err := checkStateDict("m.safetensors", want, bad)
	for _, s := range []string{
		"nn: load state dict from m.safetensors", "nothing was loaded",
		`missing key(s): "2.weight"`, `unexpected key(s): "extra"`,
		`size mismatch for "0.weight": the checkpoint has shape [2 3], the module [3 2]`,
		`dtype mismatch for "0.bias": the checkpoint has F64, the module F32`,
	} {
		if err == nil || !strings.Contains(err.Error(), s) {
			t.Errorf("checkStateDict error = %v; want it to contain %q", err, s)
		}
	}
}
