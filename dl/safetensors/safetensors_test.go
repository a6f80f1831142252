package safetensors_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl/safetensors"
)

// raw builds a file from a header string and a data section.
func raw(header string, data []byte) []byte {
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	b = append(b, header...)
	return append(b, data...)
}

func f32bytes(v ...float32) []byte {
	return safetensors.FromFloat32s([]int{len(v)}, v).Data
}

// TestMarshalReferenceBytes checks the exact byte layout against the test
// vectors of the reference implementation (huggingface/safetensors,
// safetensors/src/tensor.rs: test_serialization, test_empty,
// test_serialization_forced_alignement).
func TestMarshalReferenceBytes(t *testing.T) {
	six := []float32{0, 1, 2, 3, 4, 5}
	tests := []struct {
		name string
		file *safetensors.File
		want []byte
	}{
		{"attn.0", &safetensors.File{Tensors: map[string]safetensors.Tensor{
			"attn.0": safetensors.FromFloat32s([]int{1, 2, 3}, six)}},
			raw(`{"attn.0":{"dtype":"F32","shape":[1,2,3],"data_offsets":[0,24]}}`, f32bytes(six...))},
		{"aligned", &safetensors.File{Tensors: map[string]safetensors.Tensor{
			"attn0": safetensors.FromFloat32s([]int{1, 1, 2, 3}, six)}},
			raw(`{"attn0":{"dtype":"F32","shape":[1,1,2,3],"data_offsets":[0,24]}}       `, f32bytes(six...))},
		{"empty", &safetensors.File{}, raw(`{}      `, nil)},
		{"metadata", &safetensors.File{Metadata: map[string]string{"framework": "pt"}},
			raw(`{"__metadata__":{"framework":"pt"}}     `, nil)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := safetensors.Marshal(tc.file)
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			if !bytes.Equal(got, tc.want) {
				t.Errorf("Marshal =\n%q\nwant\n%q", got, tc.want)
			}
			back, err := safetensors.Unmarshal(got)
			if err != nil {
				t.Fatalf("Unmarshal(Marshal(f)): %v", err)
			}
			if len(back.Tensors) != len(tc.file.Tensors) {
				t.Errorf("Unmarshal(Marshal(f)) has %d tensors; want %d", len(back.Tensors), len(tc.file.Tensors))
			}
		})
	}
}

// sample has every size class, a scalar, an empty tensor and metadata.
func sample() *safetensors.File {
	seq := func(n, k int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i*7 + k)
		}
		return b
	}
	return &safetensors.File{
		Metadata: map[string]string{"format": "pt", "note": "<ünïcode & html>"},
		Tensors: map[string]safetensors.Tensor{
			"0.weight":        safetensors.FromFloat32s([]int{2, 3}, []float32{1, -2, 3.5, 0, 1e-30, -7}),
			"0.bias":          safetensors.FromFloat64s([]int{2}, []float64{0.25, -1}),
			"layers.1.half":   {DType: safetensors.F16, Shape: []int{3}, Data: seq(6, 1)},
			"layers.1.bf16":   {DType: safetensors.BF16, Shape: []int{2, 2}, Data: seq(8, 2)},
			"step":            {DType: safetensors.I64, Shape: []int{}, Data: seq(8, 3)},
			"mask":            {DType: safetensors.U8, Shape: []int{5}, Data: seq(5, 4)},
			"empty":           {DType: safetensors.F32, Shape: []int{0, 4}, Data: []byte{}},
			"ids":             {DType: safetensors.I32, Shape: []int{1, 3}, Data: seq(12, 5)},
			"a name/with.dot": safetensors.FromFloat32s([]int{1}, []float32{42}),
		},
	}
}

func TestRoundTrip(t *testing.T) {
	want := sample()
	b, err := safetensors.Marshal(want)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	if n := binary.LittleEndian.Uint64(b); n%8 != 0 {
		t.Errorf("header length %d is not a multiple of 8", n)
	}
	got, err := safetensors.Unmarshal(b)
	if err != nil {
		t.Fatalf("Unmarshal: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Unmarshal(Marshal(f)) = %+v; want %+v", got, want)
	}
	path := filepath.Join(t.TempDir(), "m.safetensors")
	if err := safetensors.WriteFile(path, want); err != nil {
		t.Fatalf("WriteFile: %v", err)
	}
	onDisk, _ := os.ReadFile(path)
	if !bytes.Equal(onDisk, b) {
		t.Errorf("WriteFile bytes differ from Marshal bytes")
	}
	got, err = safetensors.ReadFile(path)
	if err != nil {
		t.Fatalf("ReadFile: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ReadFile(WriteFile(f)) = %+v; want %+v", got, want)
	}
	v, err := got.Tensors["0.weight"].Float32s()
	if err != nil || !reflect.DeepEqual(v, []float32{1, -2, 3.5, 0, 1e-30, -7}) {
		t.Errorf("Float32s = %v, %v", v, err)
	}
}

// TestAlignment checks that every tensor's data starts at a multiple of its
// element size from the start of the file.
func TestAlignment(t *testing.T) {
	b, _ := safetensors.Marshal(sample())
	n := binary.LittleEndian.Uint64(b)
	f, _ := safetensors.Unmarshal(b)
	base := uintptr(unsafePointer(b))
	for name, ts := range f.Tensors {
		if len(ts.Data) == 0 {
			continue
		}
		off := uintptr(unsafePointer(ts.Data)) - base
		if off < 8+uintptr(n) || off%uintptr(ts.DType.Size()) != 0 {
			t.Errorf("tensor %q (%s) starts at file offset %d; want a multiple of %d after the header", name, ts.DType, off, ts.DType.Size())
		}
	}
}

const good = `{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`

func TestUnmarshalErrors(t *testing.T) {
	eight := make([]byte, 8)
	tests := []struct {
		name string
		file []byte
		want string
	}{
		{"short", []byte{1, 2, 3}, "file has 3 bytes"},
		{"huge header", binary.LittleEndian.AppendUint64(nil, 1<<40), "exceeds the limit of 100000000 bytes"},
		{"truncated header", raw(good, eight)[:20], "header length 54 exceeds the 12 bytes"},
		{"not utf8", raw("{\"w\xff\":{}}", nil), "not valid UTF-8"},
		{"not json", raw(`{"w":`, nil), `tensor "w": invalid record`},
		{"bad json key", raw(`{1:2}`, nil), "not a valid JSON object"},
		{"not object", raw(`[1,2]`, nil), "want an object"},
		{"trailing", raw(good+`{}`, eight), "data after its closing brace"},
		{"duplicate name", raw(`{"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"w":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, eight), `duplicate key "w" in header`},
		{"duplicate field", raw(`{"w":{"dtype":"F32","dtype":"F64","shape":[2],"data_offsets":[0,8]}}`, eight), `duplicate key "dtype" in tensor "w"`},
		{"unknown field", raw(`{"w":{"dtype":"F32","shape":[2],"offsets":[0,8]}}`, eight), `tensor "w": unknown field "offsets"`},
		{"missing field", raw(`{"w":{"dtype":"F32","shape":[2]}}`, eight), `tensor "w": missing field "data_offsets"`},
		{"unknown dtype", raw(`{"w":{"dtype":"F31","shape":[2],"data_offsets":[0,8]}}`, eight), `unknown dtype "F31"`},
		{"negative dim", raw(`{"w":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}}`, eight), "-2 is not a non-negative integer"},
		{"float dim", raw(`{"w":{"dtype":"F32","shape":[2.0],"data_offsets":[0,8]}}`, eight), "2.0 is not a non-negative integer"},
		{"string dim", raw(`{"w":{"dtype":"F32","shape":["2"],"data_offsets":[0,8]}}`, eight), "want an integer"},
		{"overflow", raw(`{"w":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,8]}}`, eight), "overflows"},
		{"three offsets", raw(`{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,4,8]}}`, eight), "data_offsets has 3 numbers"},
		{"reversed", raw(`{"w":{"dtype":"F32","shape":[2],"data_offsets":[8,0]}}`, eight), "end before they begin"},
		{"size mismatch", raw(`{"w":{"dtype":"F64","shape":[2],"data_offsets":[0,8]}}`, eight), "hold 8 bytes but dtype F64 × shape [2] needs 16"},
		{"gap", raw(`{"w":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, eight), "start at 4 but the previous tensor ends at 0"},
		{"overlap", raw(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, eight), "start at 4 but the previous tensor ends at 8"},
		{"truncated data", raw(good, eight[:7]), "tensors end at data byte 8 but the data section has 7 bytes"},
		{"trailing data", raw(good, make([]byte, 9)), "the data section has 9 bytes"},
		{"metadata value", raw(`{"__metadata__":{"k":1}}`, nil), "__metadata__.k: want a string"},
		{"metadata duplicate", raw(`{"__metadata__":{"k":"a","k":"b"}}`, nil), `duplicate key "k" in __metadata__`},
	}
	dir := t.TempDir()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := safetensors.Unmarshal(tc.file)
			if err == nil {
				t.Fatalf("Unmarshal(%q) succeeded; want error containing %q", tc.file, tc.want)
			}
			if !errors.Is(err, safetensors.ErrFormat) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Unmarshal error = %q; want ErrFormat containing %q", err, tc.want)
			}
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".safetensors")
			os.WriteFile(path, tc.file, 0o644)
			_, err = safetensors.ReadFile(path)
			if err == nil || !errors.Is(err, safetensors.ErrFormat) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ReadFile error = %v; want ErrFormat naming %s and containing %q", err, path, tc.want)
			}
		})
	}
}

// TestEveryTruncationFails cuts a valid file at every length: each prefix
// must be rejected with an error, never a panic or a partial result.
func TestEveryTruncationFails(t *testing.T) {
	b, _ := safetensors.Marshal(sample())
	for n := range len(b) {
		if f, err := safetensors.Unmarshal(b[:n]); err == nil {
			t.Fatalf("Unmarshal(first %d of %d bytes) = %v; want error", n, len(b), f)
		}
	}
}

func TestMarshalErrors(t *testing.T) {
	tests := []struct {
		name string
		t    safetensors.Tensor
		key  string
		want string
	}{
		{"length", safetensors.Tensor{DType: safetensors.F32, Shape: []int{3}, Data: make([]byte, 8)}, "w", "dtype F32 × shape [3] needs 12 bytes but the data has 8"},
		{"dtype", safetensors.Tensor{DType: "float", Shape: []int{1}, Data: make([]byte, 4)}, "w", `unknown dtype "float"`},
		{"negative", safetensors.Tensor{DType: safetensors.F32, Shape: []int{-1}}, "w", "negative or overflows"},
		{"reserved", safetensors.FromFloat32s([]int{1}, []float32{1}), "__metadata__", "reserved"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &safetensors.File{Tensors: map[string]safetensors.Tensor{tc.key: tc.t}}
			_, err := safetensors.Marshal(f)
			if err == nil || !errors.Is(err, safetensors.ErrFormat) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Marshal error = %v; want ErrFormat containing %q", err, tc.want)
			}
		})
	}
}

// TestWriteFileAtomic checks that a failed write leaves the previous file
// untouched and no temporary file behind, and that a good write replaces it.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.safetensors")
	if err := safetensors.WriteFile(path, sample()); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	bad := &safetensors.File{Tensors: map[string]safetensors.Tensor{"w": {DType: safetensors.F32, Shape: []int{2}, Data: []byte{1}}}}
	if err := safetensors.WriteFile(path, bad); err == nil {
		t.Fatal("WriteFile(invalid tensor) succeeded")
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("a failed WriteFile changed the existing file")
	}
	if err := safetensors.WriteFile(filepath.Join(dir, "missing", "m.safetensors"), sample()); err == nil || !strings.Contains(err.Error(), "safetensors: write") {
		t.Errorf("WriteFile into a missing directory: err = %v; want a safetensors: write error", err)
	}
	small := &safetensors.File{Tensors: map[string]safetensors.Tensor{"x": safetensors.FromFloat32s([]int{1}, []float32{7})}}
	if err := safetensors.WriteFile(path, small); err != nil {
		t.Fatal(err)
	}
	got, err := safetensors.ReadFile(path)
	if err != nil || len(got.Tensors) != 1 {
		t.Errorf("ReadFile after overwrite = %v, %v; want the one-tensor file", got, err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "m.safetensors" && !e.IsDir() {
			t.Errorf("leftover file %q in %s", e.Name(), dir)
		}
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("file mode = %v; want 0644", st.Mode().Perm())
	}
}

func TestReadFileMissing(t *testing.T) {
	_, err := safetensors.ReadFile(filepath.Join(t.TempDir(), "nope.safetensors"))
	if err == nil || !errors.Is(err, os.ErrNotExist) || errors.Is(err, safetensors.ErrFormat) {
		t.Errorf("ReadFile(missing) = %v; want an os.ErrNotExist error that is not ErrFormat", err)
	}
}
