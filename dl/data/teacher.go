package data

import (
	"fmt"
	"math"
	"slices"

	"github.com/dlbd/dlbd/dl"
)

// TeacherConfig configures a teacher network; the zero value is the
// defaults below, chosen so that small students (a few hundred to a few
// thousand parameters, trained in seconds) show clean power laws.
type TeacherConfig struct {
	InputDim int      // input dimension d; default 4 (the exponent shrinks as d grows, about 4/d)
	Hidden   []int    // hidden widths; default {64, 64}
	Outputs  int      // outputs; default 1
	Gain     *float64 // weights ~ N(0, Gain²/fan_in); nil: 2 (a wiggly, hard-to-fit function); new(0.0): biases only
	Noise    float64  // standard deviation of Gaussian noise added to targets (the loss floor is Noise²); default 0
	Seed     uint64   // seed of the teacher's weights; default 0
}

// Teacher is a fixed random MLP (tanh hidden layers, linear output) that
// labels inputs x ~ N(0, I). A student trained on its samples has a test
// loss that falls as a power law in the student's size N and in the number
// of samples D, L ≈ a·N^(−α) + c, the shape of the scaling laws of large
// language models — on a task small enough to measure live on a laptop.
// Biases are N(0, 0.5²).
//
// Course: "Leyes de escala (Scaling Laws)".
// Paper: Sharma & Kaplan 2020, A Neural Scaling Law from the Dimension of
// the Data Manifold (arXiv:2004.10802): teacher–student random networks
// give α ≈ 4/d for the mean squared error.
type Teacher struct {
	cfg  TeacherConfig
	dims []int       // InputDim, Hidden..., Outputs
	w, b [][]float64 // w[l] is dims[l+1]×dims[l], row-major
}

// NewTeacher draws a teacher's weights from cfg.Seed. It panics on a
// negative size.
func NewTeacher(cfg TeacherConfig) *Teacher {
	cfg.InputDim, cfg.Outputs = or(cfg.InputDim, 4), or(cfg.Outputs, 1)
	gain := valueOr(cfg.Gain, 2)
	cfg.Gain = &gain
	if cfg.Hidden == nil {
		cfg.Hidden = []int{64, 64}
	}
	dims := append(append([]int{cfg.InputDim}, cfg.Hidden...), cfg.Outputs)
	for _, d := range dims {
		if d <= 0 {
			panic(&dl.ValueError{Op: "data.NewTeacher", Reason: fmt.Sprintf("layer sizes %v", dims), Fix: "use positive InputDim, Hidden and Outputs"})
		}
	}
	t := &Teacher{cfg: cfg, dims: dims}
	r := newRNG(cfg.Seed, streamTeacher)
	for l := 0; l+1 < len(dims); l++ {
		in, out := dims[l], dims[l+1]
		w, b := make([]float64, in*out), make([]float64, out)
		for i := range w {
			w[i] = r.normal() * gain / math.Sqrt(float64(in))
		}
		for i := range b {
			b[i] = 0.5 * r.normal()
		}
		t.w, t.b = append(t.w, w), append(t.b, b)
	}
	return t
}

// Config returns the teacher's configuration with defaults filled in.
func (t *Teacher) Config() TeacherConfig {
	c := t.cfg
	c.Hidden = slices.Clone(c.Hidden)
	return c
}

// NumParams returns the teacher's number of weights and biases.
func (t *Teacher) NumParams() int {
	n := 0
	for l := range t.w {
		n += len(t.w[l]) + len(t.b[l])
	}
	return n
}

// Eval returns the teacher's noiseless outputs for one input of length
// InputDim. It panics on another length.
func (t *Teacher) Eval(x []float64) []float64 {
	if len(x) != t.dims[0] {
		panic(&dl.ShapeError{Op: "data.Teacher.Eval", Reason: fmt.Sprintf("input has %d values; want InputDim = %d", len(x), t.dims[0]), Fix: "pass InputDim values"})
	}
	h := x
	for l := range t.w {
		in, out := t.dims[l], t.dims[l+1]
		next := make([]float64, out)
		for j := range out {
			s := t.b[l][j]
			for k, v := range t.w[l][j*in : (j+1)*in] {
				s += v * h[k]
			}
			if l < len(t.w)-1 {
				s = math.Tanh(s)
			}
			next[j] = s
		}
		h = next
	}
	return h
}

// sample draws n inputs x ~ N(0, I) from seed and returns them (n×InputDim)
// with their targets (n×Outputs) plus noise. Different seeds give
// independent train and test sets of the same teacher.
func (t *Teacher) sample(n int, seed uint64) (x, y []float32) {
	r := newRNG(seed, streamData)
	noise := newRNG(seed, streamNoise)
	in := make([]float64, t.dims[0])
	for range n {
		for j := range in {
			in[j] = r.normal()
			x = append(x, float32(in[j]))
		}
		for _, v := range t.Eval(in) {
			y = append(y, float32(v+t.cfg.Noise*noise.normal()))
		}
	}
	return x, y
}
