package dl

import (
	"sync"
	"testing"
)

// TestNCCLCommAllReduce sums one tensor per GPU from one goroutine per
// rank (dist's model). One GPU still runs NCCL for real, as one rank.
func TestNCCLCommAllReduce(t *testing.T) {
	needCUDA(t)
	devs := make([]Device, min(DeviceCount(CUDAKind), 8))
	for i := range devs {
		devs[i] = CUDA(i)
	}
	c, err := NewNCCLComm(devs)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ts := make([]*Tensor, len(devs))
	for r, d := range devs {
		ts[r] = FromSlice([]float32{float32(r), 1, -2}, 3).To(d)
	}
	var wg sync.WaitGroup
	errs := make([]error, len(devs))
	for r := range devs {
		wg.Go(func() { errs[r] = c.AllReduce(r, ts[r], NCCLSum) })
	}
	wg.Wait()
	p := float32(len(devs))
	want := []float32{p * (p - 1) / 2, p, -2 * p}
	for r := range devs {
		if errs[r] != nil {
			t.Fatal(errs[r])
		}
		got := ts[r].To(CPU).Float32s()
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("rank %d: all-reduce = %v; want %v", r, got, want)
			}
		}
	}
}
