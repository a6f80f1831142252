package ddptrain

import (
	"errors"
	"time"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
	"github.com/dlbd/dlbd/dl/parallel"
)

// Result is what a rank reports: its loss at each step and the final
// parameters, flattened.
type Result struct {
	Losses []float64
	Params []float64
}

const (
	batch = 16 // in all, split across the ranks
	steps = 3
)

var sizes = []int{4, 8, 2}

func data() (x, y *dl.Tensor) {
	o := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(7)}
	return o.Randn(batch, 4), o.Randn(batch, 2)
}

func mlp(dev dl.Device) *nn.MLP {
	return nn.NewMLP(sizes, nn.MLPConfig{InitConfig: nn.InitConfig{DType: dl.Float64, Device: dev, Generator: dl.NewGenerator(1)}})
}

func flat(ps []*dl.Tensor) []float64 {
	var out []float64
	for _, p := range ps {
		out = append(out, p.To(dl.CPU).Float64s()...)
	}
	return out
}

// Single trains on the whole batch on one device: the reference.
func Single() Result {
	x, y := data()
	m := mlp(dl.CPU)
	opt := optim.NewSGD(nn.Parameters(m), optim.SGDConfig{LR: 0.1})
	res, _ := loop(m, x, y, func() error { opt.Step(); opt.ZeroGrad(); return nil })
	res.Params = flat(nn.Parameters(m))
	return res
}

// loop runs the training steps: forward, loss, backward, step.
func loop(m nn.Module, x, y *dl.Tensor, step func() error) (Result, error) {
	var res Result
	for range steps {
		loss := dl.MSE(m.Forward(x), y)
		res.Losses = append(res.Losses, loss.Float64s()[0])
		loss.Backward()
		if err := step(); err != nil {
			return res, err
		}
	}
	return res, nil
}

// shard returns rank r's rows of the batch.
func shard(r *dist.Rank) (x, y *dl.Tensor) {
	x, y = data()
	b := batch / r.Size()
	return x.Slice(r.Rank()*b, (r.Rank()+1)*b).To(r.Device()), y.Slice(r.Rank()*b, (r.Rank()+1)*b).To(r.Device())
}

// DDP trains with parallel.DDP; Losses are the rank's own shard's.
func DDP(r *dist.Rank) (Result, error) {
	ddp, err := parallel.NewDDP(mlp(r.Device()), r, parallel.DDPConfig{})
	if err != nil {
		return Result{}, err
	}
	opt := optim.NewSGD(nn.Parameters(ddp), optim.SGDConfig{LR: 0.1})
	x, y := shard(r)
	res, _ := loop(ddp, x, y, func() error { opt.Step(); opt.ZeroGrad(); return nil })
	res.Params = flat(nn.Parameters(ddp))
	return res, nil
}

// ZeRO3 trains with ZeRO stage 3 (FSDP FULL_SHARD) and SGD.
func ZeRO3(r *dist.Rank) (Result, error) {
	z, err := parallel.NewZeRO(mlp(r.Device()), r, parallel.ZeROConfig{Stage: 3,
		Optimizer: func(ps []*dl.Tensor) optim.Optimizer { return optim.NewSGD(ps, optim.SGDConfig{LR: 0.1}) }})
	if err != nil {
		return Result{}, err
	}
	x, y := shard(r)
	res, err := loop(z, x, y, func() error { defer z.ZeroGrad(); return z.Step() })
	if err != nil {
		return res, err
	}
	ps, err := z.GatherParameters()
	res.Params = flat(ps)
	return res, err
}

// StepTiming is what StepTime reports: the slowest rank's mean step.
type StepTiming struct{ MsPerStep float64 }

// StepTime times DDP steps of a float32 MLP (784-512-512-10) on a fixed
// global batch of 256 rows split across the ranks (strong scaling): the
// figure `make bench` compares for 1 and 2 processes.
func StepTime(r *dist.Rank) (StepTiming, error) {
	o := dl.Options{Generator: dl.NewGenerator(3)}
	b := 256 / r.Size()
	x, y := o.Randn(b, 784).To(r.Device()), o.Randn(b, 10).To(r.Device())
	m := nn.NewMLP([]int{784, 512, 512, 10}, nn.MLPConfig{InitConfig: nn.InitConfig{Device: r.Device(), Generator: dl.NewGenerator(1)}})
	ddp, err := parallel.NewDDP(m, r, parallel.DDPConfig{})
	if err != nil {
		return StepTiming{}, err
	}
	opt := optim.NewSGD(nn.Parameters(ddp), optim.SGDConfig{LR: 0.01})
	step := func() {
		dl.MSE(ddp.Forward(x), y).Backward()
		opt.Step()
		opt.ZeroGrad()
	}
	for range 2 {
		step()
	}
	if err := r.Barrier(); err != nil {
		return StepTiming{}, err
	}
	const n = 10
	start := time.Now()
	for range n {
		step()
	}
	ms := []float64{float64(time.Since(start).Microseconds()) / 1e3 / n}
	err = dist.AllReduce(r, ms, dist.Max)
	return StepTiming{MsPerStep: ms[0]}, err
}

// Grid3D runs one training step of a 4-block Transformer on 8 ranks as
// DP 2 × TP 2 × PP 2 with the 1F1B schedule (tensor-parallel all-reduces
// and all-gathers, pipeline sends and receives, the data-parallel
// all-reduce, and the grid's splits) and reports the rank's loss and the
// gradients of its blocks' shards.
func Grid3D(r *dist.Rank) (Result, error) {
	const d, heads, seq, rows, nblocks = 8, 2, 3, 8, 4
	cfg := nn.BlockConfig{Dim: d, Heads: heads, InitConfig: nn.InitConfig{DType: dl.Float64, Generator: dl.NewGenerator(31)}}
	blocks := make([]*nn.Block, nblocks)
	for i := range blocks {
		blocks[i] = nn.NewBlock(cfg)
	}
	o := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(32)}
	x, y := o.Randn(rows, seq, d), o.Randn(rows, seq, d)
	g, err := parallel.NewGrid3D(blocks, r, parallel.Grid3DConfig{TP: 2, PP: 2,
		Pipeline: parallel.PipelineConfig{Schedule: parallel.OneFOneB, MicroBatches: 2}})
	if err != nil {
		return Result{}, err
	}
	loss, err := g.Step(x, y)
	if err != nil {
		return Result{}, err
	}
	res := Result{Losses: []float64{loss}}
	for _, b := range g.Blocks {
		for _, w := range []*dl.Tensor{b.Attn.QKV.Weight, b.Attn.Proj.Weight, b.MLP.FC2.Weight, b.LN1.Weight} {
			res.Params = append(res.Params, w.Grad().To(dl.CPU).Float64s()...)
		}
	}
	return res, nil
}

// FailOnRank2 is a job whose rank 2 returns an error at its third step
// while the others wait for it in a barrier: how a failed rank ends a
// launched job.
func FailOnRank2(r *dist.Rank) (Result, error) {
	for step := range 3 {
		if r.Rank() == 2 && step == 2 {
			return Result{}, errors.New("rank 2 ran out of data at step 3")
		}
		if err := r.Barrier(); err != nil {
			return Result{}, err
		}
	}
	return Result{}, nil
}
