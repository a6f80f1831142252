package dist

import (
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// The CUDA paths: they skip without a GPU, and fail instead with
// DL_REQUIRE_CUDA=1 (scripts/gpu-check runs them so on a GPU machine).

func gpus(t *testing.T, want int) int {
	t.Helper()
	n := dl.DeviceCount(dl.CUDAKind)
	if n >= want {
		return n
	}
	if n == 0 && os.Getenv("DL_REQUIRE_CUDA") == "1" {
		t.Fatal("no CUDA device (DL_REQUIRE_CUDA=1)")
	}
	t.Skipf("needs %d CUDA devices, found %d", want, n)
	return 0
}

// TestGPUInProcessRanks: goroutine ranks on CUDA devices run their tensor
// collectives through dl.NCCLComm (issue 15, item 4).
func TestGPUInProcessRanks(t *testing.T) {
	n := min(gpus(t, 1), 4)
	devs := make([]dl.Device, n)
	for i := range devs {
		devs[i] = dl.CUDA(i)
	}
	g, err := New(Config{WorldSize: n, Devices: devs})
	if err != nil {
		t.Fatal(err)
	}
	err = g.Run(func(r *Rank) error { return gpuCollectives(r) })
	if err != nil {
		t.Fatal(err)
	}
}

// gpuCollectives checks all-reduce, broadcast, all-gather and
// reduce-scatter of CUDA tensors against the arithmetic.
func gpuCollectives(r *Rank) error {
	n, me, dev := r.Size(), r.Rank(), r.Device()
	p := float32(n)
	t := dl.FromSlice([]float32{float32(me), 1, -2}, 3).To(dev)
	if err := r.AllReduce(t, Sum); err != nil {
		return err
	}
	if got, want := t.To(dl.CPU).Float32s(), []float32{p * (p - 1) / 2, p, -2 * p}; !slices.Equal(got, want) {
		return fmt.Errorf("rank %d: all-reduce = %v; want %v", me, got, want)
	}
	b := dl.FromSlice([]float32{float32(me + 10)}, 1).To(dev)
	if err := r.Broadcast(b, n-1); err != nil {
		return err
	}
	if got := b.To(dl.CPU).Float32s()[0]; got != float32(n-1+10) {
		return fmt.Errorf("rank %d: broadcast = %v", me, got)
	}
	in := dl.FromSlice([]float32{float32(me)}, 1).To(dev)
	out := dl.Options{Device: dev}.Zeros(n)
	if err := r.AllGather(out, in); err != nil {
		return err
	}
	for i, v := range out.To(dl.CPU).Float32s() {
		if v != float32(i) {
			return fmt.Errorf("rank %d: all-gather = %v", me, out.To(dl.CPU).Float32s())
		}
	}
	host := []float64{float64(me)} // a slice collective: host memory
	if err := AllReduce(r, host, Sum); err != nil {
		return err
	}
	if host[0] != float64(n*(n-1)/2) {
		return fmt.Errorf("rank %d: host all-reduce = %v", me, host[0])
	}
	return nil
}

// ncclHelper is a rank of the nccl backend, started by the launcher
// (nccl_launch_test.go).
func ncclHelper() int {
	g, err := Init(Config{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if err := g.Run(gpuCollectives); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := g.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("nccl ok")
	return 0
}
