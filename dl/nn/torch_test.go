package nn

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// TestTorchLoadsSave checks that a file from Save loads into the matching
// torch module with safetensors.torch.load_file and a strict
// load_state_dict, and that torch's forward pass agrees with ours. It needs
// a Python with torch and safetensors ($TORCH_SAFETENSORS_PYTHON, e.g. a
// venv made with --system-site-packages over Debian's python3-torch plus
// pip install safetensors); it is skipped otherwise and with -short.
func TestTorchLoadsSave(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Python")
	}
	py := os.Getenv("TORCH_SAFETENSORS_PYTHON")
	if py == "" {
		py = "python3"
	}
	if err := exec.Command(py, "-c", "import torch, safetensors.torch").Run(); err != nil {
		t.Skipf("%s cannot import torch and safetensors (set TORCH_SAFETENSORS_PYTHON): %v", py, err)
	}
	dir := t.TempDir()
	model := NewMLP([]int{4, 8, 2}, MLPConfig{InitConfig: InitConfig{Generator: dl.NewGenerator(9)}})
	x := dl.Options{Generator: dl.NewGenerator(10)}.Randn(3, 4)
	mp, xp := filepath.Join(dir, "model.safetensors"), filepath.Join(dir, "x.safetensors")
	if err := Save(mp, model); err != nil {
		t.Fatal(err)
	}
	if err := SaveTensors(xp, map[string]*dl.Tensor{"x": x}); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, "testdata/torch_load.py", mp, xp).Output()
	if err != nil {
		t.Fatalf("torch_load.py: %v %s", err, out)
	}
	var got []float64
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	want := model.Forward(x).Float64s()
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-5 {
			t.Errorf("torch output[%d] = %v; ours %v", i, got[i], want[i])
		}
	}
}
