package bench_test

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/bench"
)

// The course's comparison in one call: the naive triple loop against the
// blocked Go kernel, measured here.  The figures vary by machine; the
// example prints what does not.
func ExampleMatMul() {
	rs, err := bench.MatMul(bench.MatMulConfig{
		Sizes:   []int{32, 64},
		Kernels: []dl.MatMulKernel{dl.MatMulNaive, dl.MatMulBlocked},
		Reps:    1,
	})
	if err != nil {
		panic(err)
	}
	for _, r := range rs {
		fmt.Printf("%-7s n=%d %.0f FLOP measured: %v, correct: %v\n",
			r.Kernel, r.Size, bench.FLOPs(r.Size), r.GFLOPS > 0, r.RelErr < 1e-5)
	}
	// Output:
	// naive   n=32 65536 FLOP measured: true, correct: true
	// blocked n=32 65536 FLOP measured: true, correct: true
	// naive   n=64 524288 FLOP measured: true, correct: true
	// blocked n=64 524288 FLOP measured: true, correct: true
}

// Copies to a simulated device are host memcpys between two accounting
// domains, measured next to Go's copy() of the same size.
func ExampleCopy() {
	rs, err := bench.Copy(bench.CopyConfig{Device: dl.Sim(0), Sizes: []int64{1 << 20}, Reps: 1})
	if err != nil {
		panic(err)
	}
	for _, r := range rs {
		fmt.Printf("%-6s %s → %s, %d MiB, measured: %v\n", r.Op, r.From, r.To, r.Bytes>>20, r.GBs > 0)
	}
	// Output:
	// To     cpu → sim:0, 1 MiB, measured: true
	// To     sim:0 → cpu, 1 MiB, measured: true
	// memcpy cpu → cpu, 1 MiB, measured: true
}
