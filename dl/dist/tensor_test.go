package dist

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

func TestTensorCollectives(t *testing.T) {
	const n = 4
	got := make([][]float64, n)
	gathered := make([][]float32, n)
	_, err := runWith(t, Config{WorldSize: n}, func(r *Rank) error {
		if r.Device() != dl.Sim(r.Rank()) {
			t.Errorf("rank %d bound to %v; want sim:%d", r.Rank(), r.Device(), r.Rank())
		}
		opts64 := dl.Options{Device: r.Device(), DType: dl.Float64}
		x := opts64.FromFloat64s([]float64{float64(r.Rank()), 1, 2}, 3)
		if err := r.AllReduce(x, Mean); err != nil {
			return err
		}
		if err := r.AllReduceAsync(x, Sum).Wait(); err != nil {
			return err
		}
		got[r.Rank()] = x.Float64s()
		opts32 := dl.Options{Device: r.Device()}
		in := opts32.Full(float64(r.Rank()), 2)
		out := opts32.Zeros(2 * n)
		if err := r.AllGather(out, in); err != nil {
			return err
		}
		gathered[r.Rank()] = out.Float32s()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for r := range got {
		// mean of 0..3 = 1.5, then summed over 4 ranks = 6
		if !slices.Equal(got[r], []float64{6, 4, 8}) || !slices.Equal(gathered[r], []float32{0, 0, 1, 1, 2, 2, 3, 3}) {
			t.Fatalf("rank %d: all-reduce %v, all-gather %v", r, got[r], gathered[r])
		}
	}
}

func TestTensorWrongDevice(t *testing.T) {
	_, err := runWith(t, Config{WorldSize: 2}, func(r *Rank) error {
		return r.AllReduce(dl.Zeros(3), Sum) // on the CPU, not on sim:r
	})
	var de *dl.DeviceError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "move it with t.To(r.Device())") {
		t.Fatalf("Run = %v; want a *dl.DeviceError with the fix", err)
	}
}

func TestConfigDevices(t *testing.T) {
	if _, err := New(Config{WorldSize: 2, Devices: []dl.Device{dl.CPU}}); err == nil {
		t.Error("New with 1 device for 2 ranks: want an error")
	}
	_, err := runWith(t, Config{WorldSize: 2, Devices: []dl.Device{dl.CPU, dl.CPU}}, func(r *Rank) error {
		return r.AllReduce(dl.Ones(3), Sum)
	})
	if err != nil {
		t.Fatal(err)
	}
}
