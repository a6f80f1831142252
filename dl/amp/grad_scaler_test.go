package amp_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/amp"
	"github.com/dlbd/dlbd/dl/optim"
)

// fakeStep sets p's gradient to g·scale (as Backward of a scaled loss
// would), then runs one scaler iteration; it reports whether the
// optimizer stepped.
func fakeStep(s *amp.GradScaler, opt optim.Optimizer, p *dl.Tensor, g float64) bool {
	p.ZeroGrad()
	p.SetGrad(dl.Full(g*s.ScaleFactor(), p.Shape()...))
	stepped := s.Step(opt)
	s.Update()
	return stepped
}

// TestGradScalerGolden follows torch.amp.GradScaler's defaults through
// two overflowing steps and 2000 clean ones.
func TestGradScalerGolden(t *testing.T) {
	p := dl.Ones(3).SetRequiresGrad(true)
	opt := optim.NewSGD([]*dl.Tensor{p}, optim.SGDConfig{LR: 1})
	s := amp.NewGradScaler([]*dl.Tensor{p}, amp.GradScalerConfig{})
	if got := s.ScaleFactor(); got != 65536 {
		t.Fatalf("initial scale %v; want 65536", got)
	}
	for i := range 2 {
		if fakeStep(s, opt, p, math.Inf(1)) {
			t.Fatalf("overflowing step %d was not skipped", i)
		}
	}
	if got := s.ScaleFactor(); got != 16384 || s.SkippedSteps() != 2 || p.Float32s()[0] != 1 {
		t.Fatalf("after two overflows: scale %v, skipped %d, p %v; want 16384, 2, unchanged", got, s.SkippedSteps(), p.Float32s())
	}
	for i := range 1999 {
		if !fakeStep(s, opt, p, 1e-6) {
			t.Fatalf("clean step %d was skipped", i)
		}
	}
	if got := s.ScaleFactor(); got != 16384 || s.GrowthTracker() != 1999 {
		t.Fatalf("after 1999 clean steps: scale %v, tracker %d; want 16384, 1999", got, s.GrowthTracker())
	}
	fakeStep(s, opt, p, 1e-6)
	if got := s.ScaleFactor(); got != 32768 || s.GrowthTracker() != 0 {
		t.Fatalf("after 2000 clean steps: scale %v, tracker %d; want 32768, 0", got, s.GrowthTracker())
	}
	// 2000 steps of SGD with lr 1 on the unscaled gradient 1e-6.
	if got, want := float64(p.Float32s()[0]), 1-2000*1e-6; math.Abs(got-want) > 1e-4 { // float32 rounding of 2000 updates
		t.Errorf("parameter after 2000 unscaled steps %v; want %v", got, want)
	}
}

func TestGradScalerNaNSkips(t *testing.T) {
	p := dl.Ones(2).SetRequiresGrad(true)
	opt := optim.NewSGD([]*dl.Tensor{p}, optim.SGDConfig{LR: 1})
	s := amp.NewGradScaler([]*dl.Tensor{p}, amp.GradScalerConfig{InitScale: 8})
	if fakeStep(s, opt, p, math.NaN()) || s.ScaleFactor() != 4 {
		t.Errorf("NaN gradient: stepped or scale %v; want skipped and 4", s.ScaleFactor())
	}
}

// TestGradScalerUnscaleBeforeClip checks that Unscale gives the true
// gradients (scaling by a power of two is exact) and that Step then does
// not divide again.
func TestGradScalerUnscaleBeforeClip(t *testing.T) {
	p := dl.FromSlice([]float32{1, -2, 3}).SetRequiresGrad(true)
	opt := optim.NewSGD([]*dl.Tensor{p}, optim.SGDConfig{LR: 0.5})
	s := amp.NewGradScaler([]*dl.Tensor{p}, amp.GradScalerConfig{})
	s.Scale(p.Mul(p).Sum()).Backward() // true gradient 2p
	s.Unscale()
	if got := p.Grad().Float32s(); got[0] != 2 || got[1] != -4 || got[2] != 6 {
		t.Fatalf("unscaled gradient %v; want [2 -4 6]", got)
	}
	norm := optim.ClipGradNorm([]*dl.Tensor{p}, 1)
	if math.Abs(norm-math.Sqrt(56)) > 1e-5 {
		t.Errorf("ClipGradNorm saw norm %v; want √56 (the true, unscaled norm)", norm)
	}
	s.Step(opt)
	s.Update()
	g := 2 / math.Sqrt(56) // the clipped gradient of p[0]
	if got := float64(p.Float32s()[0]); math.Abs(got-(1-0.5*g)) > 1e-5 {
		t.Errorf("p[0] after the step %v; want %v", got, 1-0.5*g)
	}
}

// mustPanic returns the *amp.StateError fn panics with.
func mustPanic(t *testing.T, fn func()) (err *amp.StateError) {
	t.Helper()
	defer func() {
		r := recover()
		e, ok := r.(error)
		if !ok || !errors.As(e, &err) || !errors.Is(e, amp.ErrState) {
			t.Fatalf("panicked with %v; want an *amp.StateError", r)
		}
	}()
	fn()
	return nil
}

func TestGradScalerOrderErrors(t *testing.T) {
	p := dl.Ones(2).SetRequiresGrad(true)
	opt := optim.NewSGD([]*dl.Tensor{p}, optim.SGDConfig{})
	s := amp.NewGradScaler([]*dl.Tensor{p}, amp.GradScalerConfig{})
	s.Scale(p.Sum()).Backward()
	s.Unscale()
	err := mustPanic(t, s.Unscale)
	for _, want := range []string{"amp: Unscale: Unscale has already been called since the last Update", "at most once per step"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("second Unscale: %q does not contain %q", err, want)
		}
	}
	s.Step(opt)
	if err := mustPanic(t, func() { s.Step(opt) }); !strings.Contains(err.Error(), "call Update after each Step") {
		t.Errorf("second Step: %q", err)
	}
	s.Update()
	if err := mustPanic(t, s.Update); !strings.Contains(err.Error(), "call Step (or Unscale) before Update") {
		t.Errorf("Update without Step: %q", err)
	}
}

func TestGradScalerDisabled(t *testing.T) {
	p := dl.Ones(2).SetRequiresGrad(true)
	opt := optim.NewSGD([]*dl.Tensor{p}, optim.SGDConfig{LR: 1})
	s := amp.NewGradScaler([]*dl.Tensor{p}, amp.GradScalerConfig{Disabled: true})
	loss := p.Sum()
	if s.Scale(loss) != loss || s.ScaleFactor() != 1 {
		t.Fatal("a disabled scaler changed the loss")
	}
	loss.Backward()
	s.Unscale()
	s.Unscale() // no state to misuse when disabled, as in torch
	if !s.Step(opt) || p.Float32s()[0] != 0 {
		t.Errorf("disabled scaler did not step plainly: p = %v", p.Float32s())
	}
	s.Update()
}

func TestGradScalerConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cfg   amp.GradScalerConfig
		field string
	}{
		{name: "scale=-1", cfg: amp.GradScalerConfig{InitScale: -1}, field: "InitScale"},
		{name: "growth=1", cfg: amp.GradScalerConfig{GrowthFactor: 1}, field: "GrowthFactor"},
		{name: "backoff=1", cfg: amp.GradScalerConfig{BackoffFactor: 1}, field: "BackoffFactor"},
		{name: "backoff=-0.5", cfg: amp.GradScalerConfig{BackoffFactor: -0.5}, field: "BackoffFactor"},
		{name: "interval=-1", cfg: amp.GradScalerConfig{GrowthInterval: -1}, field: "GrowthInterval"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				var ce *amp.ConfigError
				e, _ := recover().(error)
				if !errors.As(e, &ce) || !errors.Is(e, amp.ErrConfig) || ce.Field != tc.field {
					t.Errorf("NewGradScaler(%+v) panicked with %v; want an *amp.ConfigError for %s", tc.cfg, e, tc.field)
				}
			}()
			amp.NewGradScaler(nil, tc.cfg)
		})
	}
}

// TestGradScalerFloat32Parity checks the figures against
// torch.amp.GradScaler, whose scale is a float32 tensor updated by
// _amp_update_scale_: growth stops only when the float32 product is
// infinite (it reaches math.MaxFloat32), and a backoff of 0.3 from 243
// gives float32(72.9) = 72.900001525878906, not 72.899999999999991.
func TestGradScalerFloat32Parity(t *testing.T) {
	p := dl.Ones(1).SetRequiresGrad(true)
	opt := optim.NewSGD([]*dl.Tensor{p}, optim.SGDConfig{LR: 1e-30})
	half := float64(math.MaxFloat32 / 2) // 1.7014117e38, a float32
	s := amp.NewGradScaler([]*dl.Tensor{p}, amp.GradScalerConfig{InitScale: half, GrowthFactor: 2, GrowthInterval: 1})
	fakeStep(s, opt, p, 0)
	if got := s.ScaleFactor(); got != math.MaxFloat32 {
		t.Errorf("scale after growing from %v = %v; want %v (torch: 3.4028235e38)", half, got, float64(math.MaxFloat32))
	}
	fakeStep(s, opt, p, 0)
	if got := s.ScaleFactor(); got != math.MaxFloat32 {
		t.Errorf("scale after growing past float32's range = %v; want it kept at %v", got, float64(math.MaxFloat32))
	}

	s = amp.NewGradScaler([]*dl.Tensor{p}, amp.GradScalerConfig{InitScale: 243, GrowthFactor: 3, BackoffFactor: 0.3, GrowthInterval: 1})
	fakeStep(s, opt, p, math.Inf(1))
	if got, want := s.ScaleFactor(), 72.900001525878906; got != want {
		t.Errorf("scale after a backoff of 0.3 from 243 = %.17g; want %.17g (torch)", got, want)
	}
	backedOff := s.ScaleFactor()
	fakeStep(s, opt, p, 0)
	if got, want := s.ScaleFactor(), float64(float32(backedOff*3)); got != want || got != 218.70001220703125 {
		t.Errorf("scale after growing by 3 = %.17g; want %.17g (float32 of the product)", got, want)
	}
	s = amp.NewGradScaler([]*dl.Tensor{p}, amp.GradScalerConfig{InitScale: 0.1})
	if got := s.ScaleFactor(); got != float64(float32(0.1)) {
		t.Errorf("InitScale 0.1 gives %.17g; want float32(0.1) = %.17g", got, float64(float32(0.1)))
	}
}
