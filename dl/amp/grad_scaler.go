package amp

import (
	"math"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/optim"
)

// GradScalerConfig configures NewGradScaler; the zero value is
// torch.amp.GradScaler's defaults.  A field's 0 means its default without
// hiding a choice: torch refuses 0 for every one of them (the factors and
// the interval must be positive).
type GradScalerConfig struct {
	InitScale      float64 // initial scale S (torch init_scale); default 65536 = 2^16
	GrowthFactor   float64 // S ← S·GrowthFactor after GrowthInterval clean steps (torch growth_factor); default 2
	BackoffFactor  float64 // S ← S·BackoffFactor after a step with Inf/NaN gradients (torch backoff_factor); default 0.5
	GrowthInterval int     // clean steps before growing (torch growth_interval); default 2000
	Disabled       bool    // torch enabled=False: Scale returns the loss, Step just steps; default false (enabled)
}

// GradScaler implements dynamic loss scaling for float16 training, like
// torch.amp.GradScaler.  Gradients smaller than float16's smallest
// subnormal (2⁻²⁴ ≈ 6·10⁻⁸) flush to zero in the backward pass; scaling
// the loss by S scales every gradient by S, lifting them into range.
// Before the optimizer step the float32 gradients are divided by S again
// (Unscale).  If any gradient overflowed (Inf or NaN), the step is skipped
// and S is halved; after GrowthInterval clean steps S doubles, so S
// settles just below the overflow threshold.  bfloat16 has float32's
// exponent range and needs no scaler (use Disabled to keep one loop).
//
// The loop, as in torch:
//
//	scaler.Scale(loss).Backward(); scaler.Step(opt); scaler.Update()
//
// Unscale may be called between Backward and Step to clip or inspect the
// true gradients (Step then does not unscale again).
//
// Simplification: torch's scaler finds the parameters through each
// optimizer's param_groups and keeps state per optimizer; dl's optimizers
// do not expose their parameters, so a GradScaler serves one parameter
// set (give it the slice given to the optimizer).
//
// Course: "Prácticas de eficiencia computacional" (GradScaler).
// Paper: Micikevicius et al. 2018, Mixed Precision Training
// (arXiv:1710.03740), section 3.2 (loss scaling).
type GradScaler struct {
	params  []*dl.Tensor
	cfg     GradScalerConfig
	scale   float64
	tracker int // consecutive clean steps (torch _growth_tracker)

	// Per-step state, reset by Update (torch _per_optimizer_states).
	unscaled, stepped, foundInf bool
	skipped                     int // steps skipped so far
}

// NewGradScaler returns a scaler for the gradients of params.  It panics
// with a *ConfigError if a factor is out of range (growth ≤ 1, backoff
// outside (0, 1), negative interval or scale), as torch asserts.
func NewGradScaler(params []*dl.Tensor, cfg GradScalerConfig) *GradScaler {
	def := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	def(&cfg.InitScale, 65536)
	def(&cfg.GrowthFactor, 2)
	def(&cfg.BackoffFactor, 0.5)
	if cfg.GrowthInterval == 0 {
		cfg.GrowthInterval = 2000
	}
	for _, c := range []struct {
		field string
		value float64
		bad   bool
		want  string
	}{
		{"InitScale", cfg.InitScale, cfg.InitScale < 0, "> 0"},
		{"GrowthFactor", cfg.GrowthFactor, cfg.GrowthFactor <= 1, "> 1"},
		{"BackoffFactor", cfg.BackoffFactor, cfg.BackoffFactor <= 0 || cfg.BackoffFactor >= 1, "in (0, 1)"},
		{"GrowthInterval", float64(cfg.GrowthInterval), cfg.GrowthInterval < 0, "> 0"},
	} {
		if c.bad {
			panic(&ConfigError{Field: c.field, Value: c.value, Want: c.want})
		}
	}
	return &GradScaler{params: params, cfg: cfg, scale: f32(cfg.InitScale)}
}

// f32 rounds v to float32: torch keeps the scale in a float32 tensor, so
// every value it takes is a float32 (backoff 0.3 from 243 gives
// 72.900001525878906, not float64's 72.899999999999991).
func f32(v float64) float64 { return float64(float32(v)) }

// ScaleFactor returns the current scale S (torch get_scale), a float32
// value as torch's, or 1 when disabled.
func (s *GradScaler) ScaleFactor() float64 {
	if s.cfg.Disabled {
		return 1
	}
	return s.scale
}

// GrowthTracker returns the number of consecutive clean steps since the
// scale last changed (torch _get_growth_tracker).
func (s *GradScaler) GrowthTracker() int { return s.tracker }

// SkippedSteps returns how many Step calls skipped the optimizer because
// a gradient was Inf or NaN.
func (s *GradScaler) SkippedSteps() int { return s.skipped }

// Scale returns loss·S (a recorded op, so Backward scales every
// gradient by S), like torch scaler.scale(loss).
func (s *GradScaler) Scale(loss *dl.Tensor) *dl.Tensor {
	if s.cfg.Disabled {
		return loss
	}
	return loss.MulScalar(s.scale)
}

// Unscale divides the parameters' gradients by S in place and records
// whether any is Inf or NaN, like torch scaler.unscale_(optimizer).  Call
// it before clipping gradients (their norm is meaningless while scaled).
// It panics with a *StateError if called twice before Update (the second
// call would divide by S again) or after Step.
func (s *GradScaler) Unscale() {
	if s.cfg.Disabled {
		return
	}
	if s.unscaled {
		panic(&StateError{Op: "Unscale", Reason: "Unscale has already been called since the last Update (the gradients are already divided by the scale)",
			Fix: "call Unscale at most once per step, between Backward and Step; Step does not unscale again"})
	}
	if s.stepped {
		panic(&StateError{Op: "Unscale", Reason: "Unscale after Step in the same iteration",
			Fix: "call Unscale before Step, then Update"})
	}
	inv := float64(float32(1 / s.scale)) // torch: scale.double().reciprocal().float()
	for _, p := range s.params {
		g := p.Grad()
		if g == nil {
			continue
		}
		if !unscale(g, inv) {
			s.foundInf = true
		}
	}
	s.unscaled = true
}

// Step unscales the gradients (unless Unscale was called) and runs
// opt.Step unless a gradient is Inf or NaN, like torch scaler.step(opt).
// It reports whether the optimizer stepped.  It panics with a
// *StateError if called twice before Update.
func (s *GradScaler) Step(opt optim.Optimizer) bool {
	if s.cfg.Disabled {
		opt.Step()
		return true
	}
	if s.stepped {
		panic(&StateError{Op: "Step", Reason: "Step has already been called since the last Update",
			Fix: "call Update after each Step"})
	}
	if !s.unscaled {
		s.Unscale()
	}
	s.stepped = true
	if s.foundInf {
		s.skipped++
		return false
	}
	opt.Step()
	return true
}

// Update adjusts the scale for the next iteration, like torch
// scaler.update() (its _amp_update_scale_ kernel): ×BackoffFactor (and the
// growth tracker back to 0) if this step's gradients overflowed, else
// ×GrowthFactor once GrowthInterval clean steps in a row have passed,
// if the product rounded to float32 is finite (so the scale can reach
// math.MaxFloat32).  Products are computed in float64 and rounded to
// float32, as the kernel computes float·double and stores a float.  It panics with a *StateError if neither Unscale nor Step ran
// since the last Update (there is nothing to decide from).
func (s *GradScaler) Update() {
	if s.cfg.Disabled {
		return
	}
	if !s.unscaled {
		panic(&StateError{Op: "Update", Reason: "no inf checks were recorded prior to Update",
			Fix: "call Step (or Unscale) before Update"})
	}
	if s.foundInf {
		s.scale = f32(s.scale * s.cfg.BackoffFactor)
		s.tracker = 0
	} else if s.tracker++; s.tracker == s.cfg.GrowthInterval {
		if grown := f32(s.scale * s.cfg.GrowthFactor); !math.IsInf(grown, 0) {
			s.scale = grown
		}
		s.tracker = 0
	}
	s.unscaled, s.stepped, s.foundInf = false, false, false
}
