package optim

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// fakeOpt records SetLR calls; it stands in for an optimizer in scheduler
// tests only.
type fakeOpt struct{ lr float64 }

func (f *fakeOpt) Step()            {}
func (f *fakeOpt) ZeroGrad()        {}
func (f *fakeOpt) LR() float64      { return f.lr }
func (f *fakeOpt) SetLR(lr float64) { f.lr = lr }

func TestWarmupCosine(t *testing.T) {
	s := WarmupCosine{Peak: 1e-3, Min: 1e-4, Warmup: 10, Total: 110}
	tests := []struct {
		step int
		want float64
	}{
		{0, 0},
		{5, 0.5e-3},
		{10, 1e-3},
		{60, 1e-4 + 0.9e-3*0.5}, // halfway through the decay: cos(π/2) = 0
		{110, 1e-4},
		{500, 1e-4},
	}
	for _, tc := range tests {
		if got := s.LR(tc.step); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("WarmupCosine.LR(%d) = %v; want %v", tc.step, got, tc.want)
		}
	}
	// Hugging Face's get_cosine_schedule_with_warmup, as written there:
	// lr_lambda(step) = step/warmup, then max(0, 0.5*(1+cos(pi*0.5*2*progress))).
	hf := WarmupCosine{Peak: 2, Warmup: 3, Total: 20}
	for step := 0; step <= 20; step++ {
		var lambda float64
		if step < 3 {
			lambda = float64(step) / 3
		} else {
			progress := float64(step-3) / float64(20-3)
			lambda = math.Max(0, 0.5*(1+math.Cos(math.Pi*0.5*2*progress)))
		}
		if got := hf.LR(step); math.Abs(got-2*lambda) > 1e-15 {
			t.Errorf("WarmupCosine{Min: 0}.LR(%d) = %v; want HF's %v", step, got, 2*lambda)
		}
	}
	// Monotone: up during warmup, down after.
	for step := 1; step <= 110; step++ {
		prev, cur := s.LR(step-1), s.LR(step)
		if (step <= 10 && cur <= prev) || (step > 10 && cur >= prev) {
			t.Errorf("WarmupCosine not monotone at step %d: %v -> %v", step, prev, cur)
		}
	}
}

func TestWarmupCosinePanics(t *testing.T) {
	defer func() {
		err, _ := recover().(error)
		if !errors.Is(err, dl.ErrValue) || !strings.Contains(err.Error(), "use 0 <= Warmup < Total") {
			t.Errorf("WarmupCosine{Warmup: 5, Total: 5}.LR panicked with %v; want a *dl.ValueError naming the fix", err)
		}
	}()
	WarmupCosine{Peak: 1, Warmup: 5, Total: 5}.LR(0)
}

func TestScheduler(t *testing.T) {
	opt := &fakeOpt{lr: 123}
	s := NewScheduler(opt, WarmupCosine{Peak: 1, Warmup: 4, Total: 8})
	if opt.lr != 0 {
		t.Errorf("after NewScheduler lr = %v; want the step-0 value 0", opt.lr)
	}
	for range 4 {
		s.Step()
	}
	if opt.lr != 1 || s.LastLR() != 1 || s.StepCount() != 4 {
		t.Errorf("after 4 steps lr = %v, LastLR = %v, StepCount = %d; want 1, 1, 4", opt.lr, s.LastLR(), s.StepCount())
	}
	s.SetStepCount(8)
	if opt.lr != 0 {
		t.Errorf("after SetStepCount(8) lr = %v; want 0", opt.lr)
	}
	c := NewScheduler(opt, ConstantLR(0.5))
	c.Step()
	if opt.lr != 0.5 {
		t.Errorf("ConstantLR: lr = %v; want 0.5", opt.lr)
	}
}

// TestCosineAnnealingLR checks PyTorch's behaviour past T_max (the rate
// rises again) against WarmupCosine's, which holds its minimum.  The
// expected values are torch's closed form (_get_closed_form_lr) worked by
// hand: base 0.1, eta_min 0.01, T_max 10 give 0.055 at step 15 and 0.1 at
// step 20.
func TestCosineAnnealingLR(t *testing.T) {
	torch := CosineAnnealingLR{BaseLR: 0.1, EtaMin: 0.01, TMax: 10}
	ours := WarmupCosine{Peak: 0.1, Min: 0.01, Total: 10}
	for _, tc := range []struct {
		step        int
		torch, ours float64
	}{{0, 0.1, 0.1}, {5, 0.055, 0.055}, {10, 0.01, 0.01}, {15, 0.055, 0.01}, {20, 0.1, 0.01}, {30, 0.01, 0.01}} {
		if got := torch.LR(tc.step); math.Abs(got-tc.torch) > 1e-15 {
			t.Errorf("CosineAnnealingLR.LR(%d) = %v; want %v (PyTorch)", tc.step, got, tc.torch)
		}
		if got := ours.LR(tc.step); math.Abs(got-tc.ours) > 1e-15 {
			t.Errorf("WarmupCosine.LR(%d) = %v; want %v (held at Min past Total)", tc.step, got, tc.ours)
		}
	}
	if err := dl.Catch(func() { CosineAnnealingLR{BaseLR: 1}.LR(0) }); !errors.Is(err, dl.ErrValue) {
		t.Errorf("TMax 0: %v; want a *dl.ValueError", err)
	}
}
