package cuda

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

// ncclRanks returns a context per GPU (at most 8) with NCCL loaded, or
// skips; one GPU still gives a real (single-rank) communicator.
func ncclRanks(t *testing.T) []*Context {
	t.Helper()
	needGPU(t)
	needLib(t, LoadNCCL)
	n, err := DeviceCount()
	if err != nil {
		t.Fatal(err)
	}
	ctxs := make([]*Context, min(n, 8))
	for i := range ctxs {
		if ctxs[i], err = Primary(i); err != nil {
			t.Fatal(err)
		}
	}
	return ctxs
}

// initComms creates one communicator per context, destroyed at cleanup.
func initComms(t *testing.T, ctxs []*Context) []*Comm {
	t.Helper()
	comms, err := CommInitAll(ctxs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, c := range comms {
			c.Destroy()
		}
	})
	return comms
}

// TestNCCLAllReduce sums one buffer per GPU, first from one goroutine
// inside a Group, then from one goroutine per rank (dl/dist's model).
func TestNCCLAllReduce(t *testing.T) {
	ctxs := ncclRanks(t)
	comms := initComms(t, ctxs)
	const count = 1<<16 + 1
	r := rand.New(rand.NewPCG(rand.Uint64(), 4))
	for _, mode := range []string{"group", "goroutine-per-rank"} {
		t.Run(fmt.Sprintf("ranks=%d/mode=%s", len(ctxs), mode), func(t *testing.T) {
			inputs := make([][]float32, len(ctxs))
			want := make([]float32, count)
			bufs := make([]DevPtr, len(ctxs))
			for i, c := range ctxs {
				// Small integers: the sum is exact in any order.
				inputs[i] = make([]float32, count)
				for j := range inputs[i] {
					inputs[i][j] = float32(r.IntN(64) - 32)
					want[j] += inputs[i][j]
				}
				bufs[i] = mustAlloc(t, c, 4*count)
				if err := Upload(c, bufs[i], inputs[i]); err != nil {
					t.Fatal(err)
				}
			}
			if mode == "group" {
				err := Group(func() error {
					for i, cm := range comms {
						if err := cm.AllReduce(bufs[i], bufs[i], count, NCCLFloat32, Sum, 0); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			} else {
				var wg sync.WaitGroup
				errs := make([]error, len(comms))
				for i, cm := range comms {
					wg.Go(func() { errs[i] = cm.AllReduce(bufs[i], bufs[i], count, NCCLFloat32, Sum, 0) })
				}
				wg.Wait()
				for _, err := range errs {
					if err != nil {
						t.Fatal(err)
					}
				}
			}
			for i, c := range ctxs {
				got := make([]float32, count)
				if err := Download(c, got, bufs[i]); err != nil { // waits for the collective
					t.Fatal(err)
				}
				requireEqual(t, fmt.Sprintf("all-reduce on rank %d", i), got, want)
			}
		})
	}
}

// TestNCCLAllGatherReduceScatterBroadcast checks the other collectives.
func TestNCCLAllGatherReduceScatterBroadcast(t *testing.T) {
	ctxs := ncclRanks(t)
	comms := initComms(t, ctxs)
	const count = 1000
	p := len(ctxs)
	send, recv := make([]DevPtr, p), make([]DevPtr, p)
	for i, c := range ctxs {
		x := make([]float32, p*count)
		for j := range x {
			x[j] = float32(i*1000000 + j)
		}
		send[i], recv[i] = mustAlloc(t, c, int64(4*p*count)), mustAlloc(t, c, int64(4*p*count))
		if err := Upload(c, send[i], x); err != nil {
			t.Fatal(err)
		}
	}
	run := func(op func(i int, cm *Comm) error) {
		t.Helper()
		if err := Group(func() error {
			for i, cm := range comms {
				if err := op(i, cm); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	check := func(name string, rank int, want func(j int) float32, n int) {
		t.Helper()
		got := make([]float32, n)
		if err := Download(ctxs[rank], got, recv[rank]); err != nil {
			t.Fatal(err)
		}
		for j := range got {
			if got[j] != want(j) {
				t.Fatalf("%s rank %d element %d = %v; want %v", name, rank, j, got[j], want(j))
			}
		}
	}
	// AllGather: rank i's first count elements land at recv[i*count:].
	run(func(i int, cm *Comm) error { return cm.AllGather(send[i], recv[i], count, NCCLFloat32, 0) })
	for r := range ctxs {
		check("all-gather", r, func(j int) float32 { return float32((j/count)*1000000 + j%count) }, p*count)
	}
	// ReduceScatter: rank r gets slice r of the sum over ranks.
	run(func(i int, cm *Comm) error { return cm.ReduceScatter(send[i], recv[i], count, NCCLFloat32, Sum, 0) })
	for r := range ctxs {
		check("reduce-scatter", r, func(j int) float32 {
			var s float32
			for i := 0; i < p; i++ {
				s += float32(i*1000000 + r*count + j)
			}
			return s
		}, count)
	}
	// Broadcast from the last rank.
	root := p - 1
	run(func(i int, cm *Comm) error { return cm.Broadcast(send[i], recv[i], count, root, NCCLFloat32, 0) })
	for r := range ctxs {
		check("broadcast", r, func(j int) float32 { return float32(root*1000000 + j) }, count)
	}
}
