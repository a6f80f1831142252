package safetensors_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/dlbd/dlbd/dl/safetensors"
)

// pythonWithSafetensors returns a Python interpreter that can import
// safetensors and numpy: $SAFETENSORS_PYTHON if set, else python3 on PATH.
func pythonWithSafetensors(t *testing.T) string {
	py := os.Getenv("SAFETENSORS_PYTHON")
	if py == "" {
		py = "python3"
	}
	if err := exec.Command(py, "-c", "import safetensors, numpy").Run(); err != nil {
		t.Skipf("%s cannot import safetensors and numpy (pip install safetensors numpy, then set SAFETENSORS_PYTHON): %v", py, err)
	}
	return py
}

type pyTensor struct {
	DType string `json:"dtype"`
	Shape []int  `json:"shape"`
	Hex   string `json:"hex"`
}

// TestPythonCrossCheck checks interoperability with the reference Python
// package both ways: Python reads our file back tensor for tensor (raw bytes
// and, for numpy dtypes, values), and Python's serialize of the same tensors
// is byte-identical to our Marshal (given at most one metadata entry),
// and Unmarshal reads Python's bytes back.
func TestPythonCrossCheck(t *testing.T) {
	py := pythonWithSafetensors(t)
	numpyOnly := &safetensors.File{Metadata: map[string]string{"format": "pt"}, Tensors: map[string]safetensors.Tensor{
		"0.weight": safetensors.FromFloat32s([]int{2, 3}, []float32{1, -2, 3.5, 0, 0.125, -7}),
		"0.bias":   safetensors.FromFloat64s([]int{2}, []float64{0.25, -1}),
	}}
	for name, file := range map[string]*safetensors.File{"all-dtypes": sample(), "numpy": numpyOnly} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "go.safetensors")
			if err := safetensors.WriteFile(path, file); err != nil {
				t.Fatal(err)
			}
			req := map[string]any{"tensors": toPy(file), "metadata": file.Metadata, "go_file": path}
			in, _ := json.Marshal(req)
			cmd := exec.Command(py, "testdata/crosscheck.py")
			cmd.Stdin = bytes.NewReader(in)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("crosscheck.py: %v\n%s", err, stderr(err))
			}
			var reply struct {
				PythonBytesHex string `json:"python_bytes_hex"`
				GoFile         struct {
					Tensors  map[string]pyTensor `json:"tensors"`
					Metadata map[string]string   `json:"metadata"`
				} `json:"go_file"`
				Numpy map[string][]float64 `json:"numpy"`
			}
			if err := json.Unmarshal(out, &reply); err != nil {
				t.Fatalf("crosscheck.py reply: %v\n%s", err, out)
			}
			if want := toPy(file); !reflect.DeepEqual(reply.GoFile.Tensors, want) {
				t.Errorf("Python read our file as\n%v\nwant\n%v", reply.GoFile.Tensors, want)
			}
			if !reflect.DeepEqual(reply.GoFile.Metadata, file.Metadata) {
				t.Errorf("Python read metadata %v; want %v", reply.GoFile.Metadata, file.Metadata)
			}
			pyBytes, _ := hex.DecodeString(reply.PythonBytesHex)
			ours, _ := safetensors.Marshal(file)
			// Python's metadata map has no fixed key order, so bytes can
			// only match with at most one metadata entry.
			if len(file.Metadata) <= 1 && !bytes.Equal(pyBytes, ours) {
				t.Errorf("Python serialize =\n%q\nours =\n%q", pyBytes, ours)
			}
			back, err := safetensors.Unmarshal(pyBytes)
			if err != nil || !reflect.DeepEqual(toPy(back), toPy(file)) {
				t.Errorf("Unmarshal(Python's bytes) = %v, %v; want the tensors we sent", back, err)
			}
			for n, vals := range reply.Numpy {
				ts := file.Tensors[n]
				var want []float64
				switch ts.DType {
				case safetensors.F32:
					v, _ := ts.Float32s()
					for _, x := range v {
						want = append(want, float64(x))
					}
				case safetensors.F64:
					want, _ = ts.Float64s()
				}
				if !reflect.DeepEqual(vals, want) {
					t.Errorf("numpy load of %q = %v; want %v", n, vals, want)
				}
			}
			if name == "numpy" && len(reply.Numpy) != 2 {
				t.Errorf("numpy loaded %d tensors; want 2", len(reply.Numpy))
			}
		})
	}
}

func toPy(f *safetensors.File) map[string]pyTensor {
	m := make(map[string]pyTensor)
	for name, ts := range f.Tensors {
		m[name] = pyTensor{DType: string(ts.DType), Shape: ts.Shape, Hex: hex.EncodeToString(ts.Data)}
	}
	return m
}

func stderr(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
