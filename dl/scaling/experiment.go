package scaling

import (
	"fmt"
	"time"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/data"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
)

// ExperimentConfig configures Run; the zero value is the defaults below,
// which train six students (N from 45 to 17,281 parameters) in about ten
// seconds on two cores and give a clean power law.
type ExperimentConfig struct {
	Teacher     data.TeacherConfig    // the task; default data's defaults (d = 4 inputs, tanh teacher 64–64)
	Widths      []int                 // hidden width of each student (two hidden layers, ReLU); default {4, 8, 16, 32, 64, 128}
	Samples     int                   // training examples D, shared by every student; default 32768
	TestSamples int                   // held-out examples for the test loss; default 4096
	Steps       int                   // Adam steps per student; default 8000
	BatchSize   int                   // examples per step; default 128
	LR          float64               // peak learning rate (linear warmup over 5 % of Steps, then cosine to 0); default 3e-3
	Seed        uint64                // seeds the data sets, the students' initialisation and the shuffling; default 0
	Progress    func(done, total int) // called after every step with the steps done over all students; default none
}

// withDefaults fills in the zero fields of c.
func (c ExperimentConfig) withDefaults() ExperimentConfig {
	if c.Widths == nil {
		// Width 2 is left out: a ReLU student that narrow often loses a
		// unit to a dead ReLU and lands far off the curve.
		c.Widths = []int{4, 8, 16, 32, 64, 128}
	}
	c.Samples, c.TestSamples = or(c.Samples, 32768), or(c.TestSamples, 4096)
	c.Steps, c.BatchSize = or(c.Steps, 8000), or(c.BatchSize, 128)
	if c.LR == 0 {
		c.LR = 3e-3
	}
	return c
}

// Point is one trained student.
type Point struct {
	Width     int     // hidden width
	Params    int     // N: weights and biases of the student
	TrainLoss float64 // mean squared error on the whole training set after training
	TestLoss  float64 // mean squared error on the held-out set: the L of L(N)
}

// Result is what Run measured, one Point per width in the order of
// ExperimentConfig.Widths. Its fields are exported so that it can be kept
// with encoding/gob (kernel.Cache in a notebook).
type Result struct {
	Points  []Point
	Samples int           // training examples D used
	Steps   int           // Adam steps per student
	Elapsed time.Duration // wall time of the whole run (the only field that is not deterministic)
}

// Params returns N of every point, as float64 for FitPowerLaw.
func (r Result) Params() []float64 {
	n := make([]float64, len(r.Points))
	for i, p := range r.Points {
		n[i] = float64(p.Params)
	}
	return n
}

// TestLoss returns the test loss of every point.
func (r Result) TestLoss() []float64 {
	l := make([]float64, len(r.Points))
	for i, p := range r.Points {
		l[i] = p.TestLoss
	}
	return l
}

// TrainLoss returns the training loss of every point: far below TestLoss, a
// student that memorised its data.
func (r Result) TrainLoss() []float64 {
	l := make([]float64, len(r.Points))
	for i, p := range r.Points {
		l[i] = p.TrainLoss
	}
	return l
}

// Run trains one student MLP per width on the same teacher data set and
// measures its test loss: the L(N) experiment of the scaling-law papers, in
// miniature. Every student gets the same data, number of steps and
// learning-rate schedule, so only its size changes. The result depends only
// on cfg (Elapsed aside): the data, the initialisation and the batch order
// all come from cfg.Seed and cfg.Teacher.Seed.
//
// Simplification: Kaplan et al. train each size to convergence and tune
// its learning rate; here every student gets the same fixed budget of
// steps, so the largest ones may stop a little short of their best loss.
//
// It returns an error for an empty Widths, a width below 1, a negative
// Samples, TestSamples, Steps, BatchSize or LR, or a batch larger than the
// training set; data.NewTeacher panics on a bad teacher.
//
// Course: "Leyes de escala (Scaling Laws)".
// Paper: Sharma & Kaplan 2020 (arXiv:2004.10802), teacher–student networks.
func Run(cfg ExperimentConfig) (Result, error) {
	cfg = cfg.withDefaults()
	if err := cfg.check(); err != nil {
		return Result{}, err
	}
	start := time.Now()
	teacher := data.NewTeacher(cfg.Teacher)
	// Train and test sets: independent draws of the same teacher.
	x, y := teacher.Sample(cfg.Samples, 2*cfg.Seed)
	tx, ty := teacher.Sample(cfg.TestSamples, 2*cfg.Seed+1)
	res := Result{Samples: cfg.Samples, Steps: cfg.Steps}
	total := cfg.Steps * len(cfg.Widths)
	for i, w := range cfg.Widths {
		onStep := func(step int) {
			if cfg.Progress != nil {
				cfg.Progress(i*cfg.Steps+step, total)
			}
		}
		model := nn.NewMLP([]int{teacher.Config().InputDim, w, w, teacher.Config().Outputs},
			nn.MLPConfig{InitConfig: nn.InitConfig{Generator: dl.NewGenerator(cfg.Seed<<16 + uint64(w))}})
		train(model, x, y, cfg, onStep)
		p := Point{Width: w, Params: nn.NumParams(model)}
		dl.NoGrad(func() {
			p.TrainLoss = dl.MSE(model.Forward(x), y).Item()
			p.TestLoss = dl.MSE(model.Forward(tx), ty).Item()
		})
		res.Points = append(res.Points, p)
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// train runs cfg.Steps steps of Adam with warmup + cosine on (x, y),
// calling onStep(k) after step k (1-based).
func train(model nn.Module, x, y *dl.Tensor, cfg ExperimentConfig, onStep func(int)) {
	opt := optim.NewAdam(nn.Parameters(model), optim.AdamConfig{})
	sched := optim.NewScheduler(opt, optim.WarmupCosine{Peak: cfg.LR, Warmup: cfg.Steps / 20, Total: cfg.Steps})
	loader := data.NewDataLoader(data.NewTensorDataset(x, y),
		data.DataLoaderConfig{BatchSize: cfg.BatchSize, Shuffle: true, Seed: cfg.Seed, DropLast: true})
	for step, epoch := 0, 0; step < cfg.Steps; epoch++ {
		for batch := range loader.Epoch(epoch) {
			opt.ZeroGrad()
			dl.MSE(model.Forward(batch[0]), batch[1]).Backward()
			opt.Step()
			sched.Step()
			step++
			onStep(step)
			if step == cfg.Steps {
				break
			}
		}
	}
}

// check reports the first invalid field of a defaulted configuration.
func (c ExperimentConfig) check() error {
	for _, w := range c.Widths {
		if w < 1 {
			return fmt.Errorf("scaling: Run: width %d in Widths %v; widths must be at least 1", w, c.Widths)
		}
	}
	if len(c.Widths) == 0 {
		return fmt.Errorf("scaling: Run: Widths is empty; pass at least one width or nil for the default")
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"Samples", c.Samples}, {"TestSamples", c.TestSamples}, {"Steps", c.Steps}, {"BatchSize", c.BatchSize}} {
		if f.v < 0 {
			return fmt.Errorf("scaling: Run: %s = %d; must be positive (0 means the default)", f.name, f.v)
		}
	}
	if c.LR < 0 {
		return fmt.Errorf("scaling: Run: LR = %g; must be positive (0 means the default)", c.LR)
	}
	if c.BatchSize > c.Samples {
		return fmt.Errorf("scaling: Run: BatchSize %d exceeds Samples %d; use a smaller batch or more samples", c.BatchSize, c.Samples)
	}
	return nil
}

// or returns v, or def when v is 0.
func or(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
