package parallel

import (
	"fmt"
	"runtime"
	"time"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/nn"
)

// Schedule is the order in which a pipeline stage runs the forward and
// backward passes of the micro-batches.
type Schedule int

const (
	// OneFOneB is 1F1B (PipeDream-Flush): a few forwards to fill the
	// pipeline, then one forward and one backward alternately, so stage s
	// holds at most p − s micro-batches of activations (pp_1f1b.go).
	OneFOneB Schedule = iota
	// GPipe is All-Forward-All-Backward (AFAB): every forward, then every
	// backward; each stage holds all m micro-batches' activations
	// (pp_gpipe.go).
	GPipe
)

// String returns "1F1B" or "GPipe".
func (s Schedule) String() string {
	if s == GPipe {
		return "GPipe"
	}
	return "1F1B"
}

// PipelineConfig configures NewPipeline. The zero value is 1F1B with as
// many micro-batches as stages and the MSE loss.
type PipelineConfig struct {
	Schedule     Schedule // default OneFOneB
	MicroBatches int      // m; the batch must split into m equal parts; default: the number of stages
	// Loss is the loss of one micro-batch on the last stage (a mean over
	// its examples); default dl.MSE. The pipeline scales it by 1/m, so the
	// accumulated gradient is the gradient of the mean loss of the batch.
	Loss func(out, target *dl.Tensor) *dl.Tensor
	// SerialCompute makes the stages of this pipeline compute one at a
	// time, so that each op's measured time is its own, free of the other
	// stages' competition for cores and caches (this machine has fewer
	// cores than a cluster has GPUs); the device clock (PipelineEvent)
	// still places the ops as if every stage had its own processor.
	// Default false. Do not use it with tensor parallelism inside the
	// stages: TP partners must compute at the same time.
	SerialCompute bool
}

// Pipeline is one stage of pipeline parallelism: rank s of the pipeline
// group pp runs Stage (its consecutive layers of the model) on its device,
// receives activations from stage s−1, sends its outputs to stage s+1, and
// in backward receives the gradient of its output from s+1 and sends the
// gradient of its input to s−1. A batch is cut into m micro-batches so
// that the stages work at the same time on different micro-batches; the
// parameters' gradients accumulate over the micro-batches, and the
// optimizer steps once per batch (the "flush").
//
// Course: "Pipeline Parallelism (PP)".
// Paper: Huang et al. 2019, GPipe (arXiv:1811.06965); Narayanan et al. 2021, Megatron-LM v2 (arXiv:2104.04473), Section 2.2.
type Pipeline struct {
	Stage  nn.Module
	rank   *dist.Rank
	cfg    PipelineConfig
	events []PipelineEvent
	peak   int   // most micro-batches held at once in the last step
	actMB  int64 // bytes one micro-batch's forward left allocated (measured)
	actMax int64 // the device's peak allocation during the step, above its start
}

// microBatch is what a stage keeps of one micro-batch between its forward
// and its backward: the graph hangs off out (or loss on the last stage).
type microBatch struct {
	in, out, target, loss *dl.Tensor
}

// ppOp is one entry of a schedule: the forward or backward pass of a
// micro-batch.
type ppOp struct {
	forward bool
	mb      int
}

// NewPipeline returns stage pp.Rank() of a pipeline of pp.Size() stages.
// Stage's parameters must be on pp's device.
func NewPipeline(stage nn.Module, pp *dist.Rank, cfg PipelineConfig) *Pipeline {
	checkOnDevice("NewPipeline", stage.NamedParameters(), pp.Device())
	if cfg.MicroBatches <= 0 {
		cfg.MicroBatches = pp.Size()
	}
	if cfg.Loss == nil {
		cfg.Loss = dl.MSE
	}
	return &Pipeline{Stage: stage, rank: pp, cfg: cfg}
}

// Step runs the forward and backward passes of one batch through the
// pipeline, in the order of the configured schedule: the first stage
// splits x into micro-batches along axis 0, the last stage splits target
// and returns the batch's mean loss (other stages return 0, and ignore the
// arguments they do not use). The stage's parameters end with the batch's
// gradient added to their Grad; step the optimizer after it. Every stage
// must call it.
func (p *Pipeline) Step(x, target *dl.Tensor) (float64, error) {
	s, n, m := p.rank.Rank(), p.rank.Size(), p.cfg.MicroBatches
	var ops []ppOp
	if p.cfg.Schedule == GPipe {
		ops = gpipeOps(m)
	} else {
		ops = oneFOneBOps(n, s, m)
	}
	var xs, ts []*dl.Tensor
	if s == 0 {
		xs = splitMicro(x, m)
	}
	if s == n-1 {
		ts = splitMicro(target, m)
	}
	// One thread per stage goroutine, so that its CPU time is its ops'.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := p.rank.Barrier(); err != nil {
		return 0, fmt.Errorf("parallel: pipeline stage %d: %w", s, err)
	}
	clock := &stageClock{origin: time.Now()}
	if p.cfg.SerialCompute {
		clock.turn = groupMutex(p.rank.Group())
	}
	p.events, p.peak = p.events[:0], 0
	dev := p.rank.Device()
	dl.ResetPeakMemory(dev)
	base := dl.MemoryStats(dev).Allocated
	defer func() { p.actMax = dl.MemoryStats(dev).Peak - base }()
	mbs := make([]microBatch, m)
	defer func() { releaseAll(append(xs, ts...)...) }()
	held, total := 0, 0.0
	for _, op := range ops {
		var err error
		if op.forward {
			err = p.forward(clock, mbs, op.mb, xs, ts)
			held++
			p.peak = max(p.peak, held)
		} else {
			var l float64
			l, err = p.backward(clock, mbs, op.mb)
			total += l
			held--
		}
		if err != nil {
			return 0, fmt.Errorf("parallel: pipeline stage %d, micro-batch %d: %w", s, op.mb, err)
		}
	}
	return total, nil
}

// Events returns the timeline of this stage's last Step.
func (p *Pipeline) Events() []PipelineEvent { return append([]PipelineEvent(nil), p.events...) }

// PeakMicroBatches returns the most micro-batches whose activations this
// stage held at once during the last Step (forward done, backward not
// yet): m with GPipe, at most p − s with 1F1B.
func (p *Pipeline) PeakMicroBatches() int { return p.peak }

// ActivationBytes returns two measurements of the last Step on the stage's
// device (its memory accounting): the bytes the forward of one
// micro-batch left allocated (its input and the activations saved for
// backward), and the peak allocation during the step above what was
// allocated when it began. Their ratio is how many micro-batches' worth of
// activations the stage held at its peak (plus the transient buffers of
// one backward). Step resets the device's peak statistic. Tensors dropped
// without Release before the step (other models on the same device) that
// the garbage collector frees during it lower both figures: call
// dl.CollectGarbage before a Step that is measured.
func (p *Pipeline) ActivationBytes() (perMicroBatch, peak int64) { return p.actMB, p.actMax }

// forward runs micro-batch i through the stage and sends the output on.
func (p *Pipeline) forward(c *stageClock, mbs []microBatch, i int, xs, ts []*dl.Tensor) error {
	s, n, dev := p.rank.Rank(), p.rank.Size(), p.rank.Device()
	mb := &mbs[i]
	before := dl.MemoryStats(dev).Allocated
	var ready time.Duration
	if s == 0 {
		mb.in = xs[i].To(dev)
	} else {
		var err error
		if mb.in, ready, err = recvTensor(p.rank, s-1); err != nil {
			return err
		}
		mb.in.SetRequiresGrad(true)
	}
	last := s == n-1
	if last {
		mb.target = ts[i].To(dev)
	}
	start, end, ws, we := c.run(ready, func() {
		mb.out = p.Stage.Forward(mb.in)
		if last {
			mb.loss = p.cfg.Loss(mb.out, mb.target).DivScalar(float64(p.cfg.MicroBatches))
		}
	})
	p.events = append(p.events, PipelineEvent{Stage: s, MicroBatch: i, Op: "F", Start: start, End: end, WallStart: ws, WallEnd: we})
	if i == 0 {
		p.actMB = dl.MemoryStats(dev).Allocated - before
	}
	if last {
		return nil
	}
	return sendTensor(p.rank, mb.out, s+1, end)
}

// backward backpropagates micro-batch i through the stage, sends the
// input's gradient back, frees what the micro-batch held and returns its
// (scaled) loss on the last stage.
func (p *Pipeline) backward(c *stageClock, mbs []microBatch, i int) (float64, error) {
	s, n := p.rank.Rank(), p.rank.Size()
	mb := &mbs[i]
	var g *dl.Tensor
	var ready time.Duration
	if s < n-1 {
		var err error
		if g, ready, err = recvTensor(p.rank, s+1); err != nil {
			return 0, err
		}
	}
	start, end, ws, we := c.run(ready, func() {
		if g == nil {
			mb.loss.Backward()
		} else {
			mb.out.BackwardWith(dl.BackwardOptions{Grad: g})
		}
	})
	p.events = append(p.events, PipelineEvent{Stage: s, MicroBatch: i, Op: "B", Start: start, End: end, WallStart: ws, WallEnd: we})
	var err error
	if s > 0 {
		err = sendTensor(p.rank, mb.in.Grad(), s-1, end)
		mb.in.ZeroGrad()
	}
	l := 0.0
	if mb.loss != nil {
		l = mb.loss.Item()
	} else {
		mb.out.Release() // the root of BackwardWith is not released by it
	}
	releaseAll(g, mb.loss, mb.target, mb.in)
	*mb = microBatch{}
	return l, err
}

// splitMicro cuts t into m equal micro-batches along axis 0 (views). It
// panics with a *dl.ShapeError if they would not be equal.
func splitMicro(t *dl.Tensor, m int) []*dl.Tensor {
	if t == nil || t.Dims() == 0 || t.Size(0)%m != 0 {
		var sh [][]int
		if t != nil {
			sh = [][]int{t.Shape()}
		}
		panic(&dl.ShapeError{Op: "parallel.Pipeline.Step", Shapes: sh,
			Reason: fmt.Sprintf("the batch must split into %d equal micro-batches along axis 0", m),
			Fix:    "choose a batch size that is a multiple of PipelineConfig.MicroBatches"})
	}
	k := t.Size(0) / m
	out := make([]*dl.Tensor, m)
	for i := range out {
		out[i] = t.Slice(i*k, (i+1)*k)
	}
	return out
}
