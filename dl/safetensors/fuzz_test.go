package safetensors_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/dlbd/dlbd/dl/safetensors"
)

// FuzzRead feeds arbitrary bytes to Unmarshal. It must never panic; every
// error must wrap ErrFormat; and whatever it accepts must survive a
// Marshal/Unmarshal round trip unchanged.
func FuzzRead(f *testing.F) {
	valid, _ := safetensors.Marshal(sample())
	f.Add(valid)
	f.Add(raw(good, make([]byte, 8)))
	f.Add(raw(`{}      `, nil))
	f.Add(raw(`{"__metadata__":{"framework":"pt"}}     `, nil))
	f.Add(raw(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, make([]byte, 8)))
	f.Add(raw(`{"w":{"dtype":"BF16","shape":[],"data_offsets":[0,2]},"e":{"dtype":"U8","shape":[0],"data_offsets":[2,2]}}`, []byte{1, 2}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := safetensors.Unmarshal(b)
		if err != nil {
			if !errors.Is(err, safetensors.ErrFormat) {
				t.Fatalf("Unmarshal error %v does not wrap ErrFormat", err)
			}
			return
		}
		if n := binary.LittleEndian.Uint64(b); !json.Valid(b[8 : 8+n]) { // the scanner accepts only JSON
			t.Fatalf("Unmarshal accepted a header that is not valid JSON: %q", b[8:8+n])
		}
		again, err := safetensors.Marshal(got)
		if err != nil {
			t.Fatalf("Marshal(Unmarshal(b)) failed: %v", err)
		}
		back, err := safetensors.Unmarshal(again)
		if err != nil {
			t.Fatalf("Unmarshal(Marshal(Unmarshal(b))) failed: %v", err)
		}
		for name, ts := range got.Tensors {
			bt := back.Tensors[name]
			if bt.DType != ts.DType || !reflect.DeepEqual(bt.Shape, ts.Shape) || !bytes.Equal(bt.Data, ts.Data) {
				t.Fatalf("tensor %q changed in a round trip: %+v -> %+v", name, ts, bt)
			}
		}
		if len(back.Tensors) != len(got.Tensors) || !reflect.DeepEqual(back.Metadata, got.Metadata) {
			t.Fatalf("round trip changed the file: %+v -> %+v", got, back)
		}
	})
}
