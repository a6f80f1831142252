package parallel_test

import (
	"fmt"
	"math"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
	"github.com/dlbd/dlbd/dl/parallel"
)

// Four ranks train one model with DDP: each sees a quarter of the batch,
// and the all-reduce during Backward keeps the replicas identical.
func ExampleNewDDP() {
	x, y := dl.Randn(16, 4), dl.Randn(16, 2)
	first := make([]float32, 4)
	err := dist.Run(4, func(r *dist.Rank) error {
		m := nn.NewMLP([]int{4, 8, 2}, nn.MLPConfig{InitConfig: nn.InitConfig{Device: r.Device(), Generator: dl.NewGenerator(uint64(r.Rank()))}})
		ddp, err := parallel.NewDDP(m, r, parallel.DDPConfig{}) // broadcasts rank 0's weights
		if err != nil {
			return err
		}
		opt := optim.NewSGD(nn.Parameters(ddp), optim.SGDConfig{LR: 0.1})
		xr, yr := x.Slice(4*r.Rank(), 4*r.Rank()+4).To(r.Device()), y.Slice(4*r.Rank(), 4*r.Rank()+4).To(r.Device())
		for range 3 {
			dl.MSE(ddp.Forward(xr), yr).Backward() // gradients are averaged here
			opt.Step()
			opt.ZeroGrad()
		}
		first[r.Rank()] = nn.Parameters(m)[0].Float32s()[0]
		if r.Rank() == 0 {
			fmt.Println("buckets:", len(ddp.Buckets()))
		}
		return nil
	})
	fmt.Println(err, first[0] == first[1] && first[1] == first[2] && first[2] == first[3])
	// Output:
	// buckets: 1
	// <nil> true
}

// ZeRO stage 3 (FSDP FULL_SHARD) with bf16 mixed-precision Adam: each of 4
// ranks holds 16Ψ/4 bytes of model states, measured by its device.
func ExampleNewZeRO() {
	states := make([]int64, 4)
	var psi int
	err := dist.Run(4, func(r *dist.Rank) error {
		dev := r.Device()
		m := nn.NewMLP([]int{8, 16, 8}, nn.MLPConfig{})
		if err := parallel.ModuleTo(m, dev); err != nil { // like model.to(device)
			return err
		}
		before := dl.MemoryStats(dev).Allocated
		z, err := parallel.NewZeRO(m, r, parallel.ZeROConfig{Stage: 3, BF16: true})
		if err != nil {
			return err
		}
		x := dl.Options{Device: dev, DType: dl.BFloat16}.Ones(2, 8)
		loss := z.Forward(x).Sum()
		loss.Backward()
		loss.Release()
		x.Release()
		err = z.Step()
		// The model's float32 parameters (4Ψ bytes) were released by NewZeRO.
		states[r.Rank()] = dl.MemoryStats(dev).Allocated - before + int64(4*z.NumParams())
		if r.Rank() == 0 {
			psi = z.NumParams()
		}
		return err
	})
	fmt.Println(err, "Ψ =", psi)
	fmt.Println("bytes per rank:", states, "= 16Ψ/4 =", 16*psi/4)
	// Output:
	// <nil> Ψ = 280
	// bytes per rank: [1120 1120 1120 1120] = 16Ψ/4 = 1120
}

// A column-parallel layer on 2 ranks computes what the dense layer
// computes; each rank holds half of the weight's rows.
func ExampleNewColumnParallelLinear() {
	dense := nn.NewLinear(4, 6, nn.LinearConfig{InitConfig: nn.InitConfig{DType: dl.Float64}})
	x := dl.Options{DType: dl.Float64}.Randn(3, 4)
	want := dense.Forward(x).Float64s()
	err := dist.Run(2, func(r *dist.Rank) error {
		col := parallel.NewColumnParallelLinear(dense, r, true) // gather the output
		got := col.Forward(x.To(r.Device())).Float64s()
		d := 0.0
		for i := range got {
			d = math.Max(d, math.Abs(got[i]-want[i]))
		}
		if r.Rank() == 0 {
			fmt.Println("weight shard:", col.Weight.Shape(), "max |TP − dense| < 1e-12:", d < 1e-12)
		}
		return nil
	})
	fmt.Println(err)
	// Output:
	// weight shard: [3 4] max |TP − dense| < 1e-12: true
	// <nil>
}

// A 4-stage pipeline with 8 micro-batches: GPipe keeps all 8 micro-batches
// of activations on every stage, 1F1B at most p − s on stage s. Both idle
// (p−1)/(m+p−1) of the time.
func ExampleNewPipeline() {
	for _, sched := range []parallel.Schedule{parallel.GPipe, parallel.OneFOneB} {
		peaks := make([]int, 4)
		err := dist.Run(4, func(r *dist.Rank) error {
			stage := nn.NewSequential(nn.NewLinear(4, 4, nn.LinearConfig{InitConfig: nn.InitConfig{Device: r.Device()}}), nn.Tanh())
			p := parallel.NewPipeline(stage, r, parallel.PipelineConfig{Schedule: sched, MicroBatches: 8})
			_, err := p.Step(dl.Ones(16, 4), dl.Zeros(16, 4))
			peaks[r.Rank()] = p.PeakMicroBatches()
			return err
		})
		fmt.Println(sched, "micro-batches held per stage:", peaks, err)
	}
	fmt.Printf("bubble (p−1)/(m+p−1) = %.3f\n", parallel.BubbleFraction(4, 8))
	// Output:
	// GPipe micro-batches held per stage: [8 8 8 8] <nil>
	// 1F1B micro-batches held per stage: [4 3 2 1] <nil>
	// bubble (p−1)/(m+p−1) = 0.273
}
