package optim

import (
	"fmt"
	"math"

	"github.com/dlbd/dlbd/dl"
)

// Schedule gives the learning rate to use at a step (0, 1, 2, ...).
// Implementations are pure functions of the step, so a schedule resumes
// exactly from a checkpoint that records the step.
type Schedule interface {
	LR(step int) float64
}

// WarmupCosine is linear warmup followed by cosine decay, the schedule of
// most transformer training runs:
//
//	step < Warmup:          lr = Peak · step / Warmup
//	Warmup ≤ step ≤ Total:  lr = Min + (Peak − Min) · ½(1 + cos(π · (step − Warmup) / (Total − Warmup)))
//	step > Total:           lr = Min
//
// With Min = 0 it is exactly Hugging Face transformers'
// get_cosine_schedule_with_warmup (so the first step has lr 0).
//
// Past Total it holds Min: a run that goes on by mistake does not see its
// learning rate climb back to Peak.  PyTorch's CosineAnnealingLR does
// climb back (its cosine continues); dl offers it under that name,
// CosineAnnealingLR, for runs that must match PyTorch step for step.
// Course: "Leyes de escala (Scaling Laws)" (the scaling-law runs use it).
type WarmupCosine struct {
	Peak   float64 // learning rate at the end of warmup
	Min    float64 // final learning rate; default 0
	Warmup int     // warmup steps; default 0 (no warmup)
	Total  int     // step at which the decay reaches Min; must be > Warmup
}

// LR implements Schedule. It panics with a *dl.ValueError if Total ≤
// Warmup or Warmup < 0.
func (s WarmupCosine) LR(step int) float64 {
	if s.Warmup < 0 || s.Total <= s.Warmup {
		panic(&dl.ValueError{Op: "optim.WarmupCosine.LR", Reason: fmt.Sprintf("Warmup %d and Total %d", s.Warmup, s.Total),
			Fix: "use 0 <= Warmup < Total"})
	}
	switch {
	case step < s.Warmup:
		return s.Peak * float64(step) / float64(s.Warmup)
	case step > s.Total:
		return s.Min
	}
	progress := float64(step-s.Warmup) / float64(s.Total-s.Warmup)
	return s.Min + (s.Peak-s.Min)*0.5*(1+math.Cos(math.Pi*progress))
}

// CosineAnnealingLR is torch.optim.lr_scheduler.CosineAnnealingLR: the
// cosine from BaseLR down to EtaMin over TMax steps, which, unlike
// WarmupCosine, continues past TMax, so the rate rises again to BaseLR at
// 2·TMax (period 2·TMax, as SGDR without restarts):
//
//	lr = EtaMin + (BaseLR − EtaMin) · ½(1 + cos(π · step / TMax))
//
// This is torch's closed form (_get_closed_form_lr); torch applies a
// recursive update step by step, which its documentation gives as
// equivalent (not compared here with a torch run: results may differ in
// the last bits).  Use WarmupCosine
// (dl's choice, which holds its minimum) unless matching PyTorch past
// T_max matters.
type CosineAnnealingLR struct {
	BaseLR float64 // the learning rate at step 0 (the optimizer's lr in torch)
	EtaMin float64 // the minimum, reached at TMax (torch eta_min); default 0
	TMax   int     // half period in steps (torch T_max); must be > 0
}

// LR implements Schedule. It panics with a *dl.ValueError if TMax ≤ 0.
func (s CosineAnnealingLR) LR(step int) float64 {
	if s.TMax <= 0 {
		panic(&dl.ValueError{Op: "optim.CosineAnnealingLR.LR", Reason: fmt.Sprintf("TMax %d", s.TMax), Fix: "use TMax > 0"})
	}
	return s.EtaMin + (s.BaseLR-s.EtaMin)*0.5*(1+math.Cos(math.Pi*float64(step)/float64(s.TMax)))
}

// ConstantLR is a schedule that always returns its value.
type ConstantLR float64

// LR implements Schedule.
func (c ConstantLR) LR(int) float64 { return float64(c) }

// Scheduler drives an optimizer's learning rate from a Schedule, like
// torch.optim.lr_scheduler.LRScheduler: call Step after each
// optimizer.Step. NewScheduler sets the step-0 rate at once.
type Scheduler struct {
	opt   Optimizer
	sched Schedule
	step  int
}

// NewScheduler returns a Scheduler at step 0 and sets opt's learning rate to
// sched.LR(0).
func NewScheduler(opt Optimizer, sched Schedule) *Scheduler {
	s := &Scheduler{opt: opt, sched: sched}
	opt.SetLR(sched.LR(0))
	return s
}

// Step advances to the next step and sets the optimizer's learning rate.
func (s *Scheduler) Step() {
	s.step++
	s.opt.SetLR(s.sched.LR(s.step))
}

// LastLR returns the learning rate set by the last call (get_last_lr).
func (s *Scheduler) LastLR() float64 { return s.sched.LR(s.step) }

// StepCount returns the number of Step calls so far (last_epoch in torch).
func (s *Scheduler) StepCount() int { return s.step }

// SetStepCount jumps to step n and sets the matching learning rate; use it
// to resume from a checkpoint.
func (s *Scheduler) SetStepCount(n int) {
	s.step = n
	s.opt.SetLR(s.sched.LR(n))
}
