package cost_test

import (
	"fmt"

	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/dist/cost"
)

// Run a ring all-reduce of one DDP bucket (25 MiB, PyTorch's default) on 4
// simulated ranks, price what was executed on NVLink, then extrapolate the
// same bucket to 1,024 GPUs.
func Example() {
	g, _ := dist.New(dist.Config{WorldSize: 4, AllReduce: dist.Ring})
	grads := make([][]float32, 4)
	g.Run(func(r *dist.Rank) error {
		grads[r.Rank()] = make([]float32, 25<<20/4)
		return dist.AllReduce(r, grads[r.Rank()], dist.Mean)
	})
	rec := g.Records()[0]

	nv, _ := cost.LinkFromFacts("NVLink 4.0")
	ib, _ := cost.LinkFromFacts("NDR")
	replay, _ := cost.Replay(rec, cost.OneLink(4, nv))
	fmt.Printf("executed: %d steps, %.1f MB sent per rank\n", rec.Steps, replay.SentPerRank/1e6)
	fmt.Printf("4 GPUs on %s: %.3f ms, busbw %.0f GB/s\n", nv.Name, replay.Seconds*1e3, replay.BusBW()/1e9)

	big := cost.Topology{Nodes: 128, GPUsPerNode: 8, Intra: nv, Inter: ib}
	S := float64(rec.Bytes)
	flat := big.FlatRingAllReduce(S)
	hier := big.HierarchicalAllReduce(S)
	fmt.Printf("%v: flat ring %.2f ms (%d steps), hierarchical %.2f ms (%d steps)\n",
		big, flat.Seconds*1e3, flat.Steps, hier.Seconds*1e3, hier.Steps)
	fmt.Println("bandwidth:", nv.BandwidthSource.Status, "| latency:", nv.LatencySource.Status)
	// Output:
	// executed: 6 steps, 39.3 MB sent per rank
	// 4 GPUs on NVLink 4.0: 0.108 ms, busbw 365 GB/s
	// 128 nodes × 8 GPUs (NVLink 4.0 / InfiniBand NDR): flat ring 29.69 ms (2046 steps), hierarchical 3.84 ms (268 steps)
	// bandwidth: secondary | latency: verified
}

// Ring or tree? The tree pays fewer latencies, the ring sends less data.
func ExampleCrossover() {
	ib, _ := cost.LinkFromFacts("NDR")
	for _, n := range []int{8, 64, 1024} {
		fmt.Printf("n=%4d: tree all-reduce faster below %.2f MB\n", n, cost.Crossover(n, ib)/1e6)
	}
	// Output:
	// n=   8: tree all-reduce faster below 1.32 MB
	// n=  64: tree all-reduce faster below 7.96 MB
	// n=1024: tree all-reduce faster below 78.78 MB
}
