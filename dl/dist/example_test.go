package dist_test

import (
	"errors"
	"fmt"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
)

// Four ranks, like torchrun --nproc_per_node=4: each is a goroutine with
// its own rank number.
func ExampleRun() {
	sums := make([]float64, 4)
	err := dist.Run(4, func(r *dist.Rank) error {
		x := []float64{float64(r.Rank() + 1)} // 1, 2, 3, 4
		if err := dist.AllReduce(r, x, dist.Sum); err != nil {
			return err
		}
		sums[r.Rank()] = x[0]
		return nil
	})
	fmt.Println(sums, err)
	// Output: [10 10 10 10] <nil>
}

// DDP's gradient synchronisation: every rank ends with the mean gradient.
func ExampleAllReduce() {
	grads := [][]float32{{1, 2}, {3, 4}, {5, 6}, {7, 8}}
	dist.Run(4, func(r *dist.Rank) error {
		return dist.AllReduce(r, grads[r.Rank()], dist.Mean)
	})
	fmt.Println(grads)
	// Output: [[4 5] [4 5] [4 5] [4 5]]
}

// The ring's steps, as recorded: at every step each rank sends one chunk
// to its right neighbour; 2(n-1) = 6 steps for 4 ranks.
func ExampleAllReduce_ringSteps() {
	g, _ := dist.New(dist.Config{WorldSize: 4, AllReduce: dist.Ring})
	g.Run(func(r *dist.Rank) error {
		return dist.AllReduce(r, make([]float32, 4), dist.Sum) // one float per chunk
	})
	rec := g.Records()[0]
	fmt.Println(rec.Collective, rec.Algorithm, rec.Steps, "steps")
	for _, t := range rec.Transfers {
		if t.From == 0 {
			fmt.Printf("step %d (%s): rank 0 sends chunk %d to rank %d, %d bytes\n", t.Step, t.Phase, t.Chunk, t.To, t.Bytes)
		}
	}
	// Output:
	// all-reduce ring 6 steps
	// step 0 (reduce-scatter): rank 0 sends chunk 0 to rank 1, 4 bytes
	// step 1 (reduce-scatter): rank 0 sends chunk 3 to rank 1, 4 bytes
	// step 2 (reduce-scatter): rank 0 sends chunk 2 to rank 1, 4 bytes
	// step 3 (all-gather): rank 0 sends chunk 1 to rank 1, 4 bytes
	// step 4 (all-gather): rank 0 sends chunk 0 to rank 1, 4 bytes
	// step 5 (all-gather): rank 0 sends chunk 3 to rank 1, 4 bytes
}

// ZeRO/FSDP's pair: reduce-scatter the gradients (rank r keeps chunk r),
// all-gather the parameters back.
func ExampleReduceScatter() {
	out := make([][]float32, 2)
	dist.Run(2, func(r *dist.Rank) error {
		in := []float32{1, 2, 3, 4} // the same on both ranks
		out[r.Rank()] = make([]float32, 2)
		return dist.ReduceScatter(r, out[r.Rank()], in, dist.Sum)
	})
	fmt.Println(out)
	// Output: [[2 4] [6 8]]
}

// A DP × TP × PP grid of 8 ranks (2 × 2 × 2), laid out as in Megatron-LM.
func ExampleRank_NewGrid() {
	coords := make([]string, 8)
	dist.Run(8, func(r *dist.Rank) error {
		g, err := r.NewGrid(dist.GridConfig{TP: 2, PP: 2})
		if err != nil {
			return err
		}
		tp, dp, pp := g.Coords()
		coords[r.Rank()] = fmt.Sprintf("%d:(tp%d dp%d pp%d)", r.Rank(), tp, dp, pp)
		return nil
	})
	fmt.Println(coords[:4])
	fmt.Println(coords[4:])
	// Output:
	// [0:(tp0 dp0 pp0) 1:(tp1 dp0 pp0) 2:(tp0 dp1 pp0) 3:(tp1 dp1 pp0)]
	// [4:(tp0 dp0 pp1) 5:(tp1 dp0 pp1) 6:(tp0 dp1 pp1) 7:(tp1 dp1 pp1)]
}

// A rank that fails aborts the others instead of leaving them waiting.
func ExampleRun_failure() {
	err := dist.Run(3, func(r *dist.Rank) error {
		if r.Rank() == 1 {
			return errors.New("out of memory")
		}
		return dist.AllReduce(r, make([]float32, 10), dist.Sum) // would wait forever
	})
	var re *dist.RankError
	fmt.Println(err, errors.As(err, &re), re.Rank)
	// Output: dist: rank 1: out of memory true 1
}

// Overlap: start the all-reduce of one bucket, keep computing, wait later.
func ExampleAllReduceAsync() {
	res := make([]float32, 2)
	dist.Run(2, func(r *dist.Rank) error {
		bucket := []float32{float32(r.Rank())}
		w := dist.AllReduceAsync(r, bucket, dist.Sum)
		// ... backward of the next layers would run here ...
		if err := w.Wait(); err != nil {
			return err
		}
		res[r.Rank()] = bucket[0]
		return nil
	})
	fmt.Println(res)
	// Output: [1 1]
}

// The tensor form: each rank holds its gradient on its own simulated
// device (sim:0 … sim:3) and all-reduces it in place.
func ExampleRank_AllReduce() {
	out := make([]string, 4)
	dist.Run(4, func(r *dist.Rank) error {
		grad := dl.Options{Device: r.Device()}.Full(float64(r.Rank()), 2) // [r r]
		if err := r.AllReduce(grad, dist.Mean); err != nil {
			return err
		}
		out[r.Rank()] = fmt.Sprint(r.Device(), grad.Float32s())
		return nil
	})
	fmt.Println(out)
	// Output: [sim:0 [1.5 1.5] sim:1 [1.5 1.5] sim:2 [1.5 1.5] sim:3 [1.5 1.5]]
}

// Init joins the job the process was started in. Without a launcher
// (no DLBD_DIST_BACKEND, no mpirun) it makes an in-process world; started
// by `dlbd run --backend mpi` or mpirun, the same code runs this
// process's rank of an MPI job (with --backend tcp, of a job of CPU
// processes on any number of nodes, 2 ranks in all for this WorldSize).
func ExampleInit() {
	g, err := dist.Init(dist.Config{WorldSize: 2})
	if err != nil {
		panic(err)
	}
	defer g.Close()
	err = g.Run(func(r *dist.Rank) error {
		buf := []float64{float64(r.Rank() + 1)}
		if err := dist.AllReduce(r, buf, dist.Sum); err != nil {
			return err
		}
		if r.Rank() == 0 {
			fmt.Println(g.Backend(), r.Size(), buf[0])
		}
		return nil
	})
	fmt.Println(err)
	// Output:
	// inprocess 2 3
	// <nil>
}
