// Package dltest holds test helpers shared by dl and the packages built on
// it: finite-difference gradient checks and a loop over the available
// devices.
//
// # Overview
//
// [GradCheck] compares the gradients autograd computes for a function of
// tensors with central finite differences in float64.  [ForEachDevice]
// runs a subtest on CPU, a simulated device and (when present) a GPU.
//
// # Errors
//
// Failures are reported through testing.TB; nothing panics on a mismatch.
//
// # Concepts
//
// A gradient check perturbs each input element by ±h and compares
// (L(x+h) − L(x−h)) / 2h, whose error is O(h²), with the analytic
// derivative.  L is a random projection of the output (L = Σ r·f(x)), so
// every output element's gradient is checked at once.
package dltest

import (
	"fmt"
	"math"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// GradCheckConfig tunes GradCheck.  The zero value is the default.
type GradCheckConfig struct {
	Step float64 // finite-difference step h (0: 1e-6)
	ATol float64 // absolute tolerance (0: 1e-6)
	RTol float64 // relative tolerance (0: 1e-4)
}

// GradCheck checks autograd's gradient of f at inputs (Float64 tensors)
// against central finite differences, reporting every mismatch through
// tb.  Inputs are not modified; f must be deterministic.
func GradCheck(tb testing.TB, f func(xs ...*dl.Tensor) *dl.Tensor, inputs ...*dl.Tensor) {
	tb.Helper()
	GradCheckWith(tb, GradCheckConfig{}, f, inputs...)
}

// GradCheckWith is GradCheck with explicit tolerances.
func GradCheckWith(tb testing.TB, cfg GradCheckConfig, f func(xs ...*dl.Tensor) *dl.Tensor, inputs ...*dl.Tensor) {
	tb.Helper()
	h, atol, rtol := or(cfg.Step, 1e-6), or(cfg.ATol, 1e-6), or(cfg.RTol, 1e-4)
	xs := make([]*dl.Tensor, len(inputs))
	for i, in := range inputs {
		if in.DType() != dl.Float64 {
			tb.Fatalf("GradCheck: input %d has dtype %v; use Float64 inputs", i, in.DType())
		}
		xs[i] = in.Detach().Clone().SetRequiresGrad(true)
	}
	out := f(xs...)
	proj := dl.Options{DType: dl.Float64, Device: out.Device(), Generator: dl.NewGenerator(7)}.Randn(out.Shape()...)
	loss := func(o *dl.Tensor) float64 { return o.Mul(proj).Sum().Item() }
	out.Mul(proj).Sum().Backward()
	for i, x := range xs {
		var analytic []float64
		if g := x.Grad(); g != nil {
			analytic = g.Float64s()
		} else {
			analytic = make([]float64, x.Numel())
		}
		host := x.Detach().To(dl.CPU)
		data := host.Float64Data()
		for j := range data {
			orig := data[j]
			eval := func(v float64) float64 {
				data[j] = v
				var l float64
				dl.NoGrad(func() {
					args := make([]*dl.Tensor, len(xs))
					for k := range xs {
						args[k] = xs[k].Detach()
						if k == i {
							args[k] = host.To(x.Device())
						}
					}
					l = loss(f(args...))
				})
				return l
			}
			num := (eval(orig+h) - eval(orig-h)) / (2 * h)
			data[j] = orig
			if got := analytic[j]; math.Abs(got-num) > atol+rtol*math.Abs(num) || math.IsNaN(got) != math.IsNaN(num) {
				tb.Errorf("gradient of input %d (shape %v) at element %d = %.9g; finite differences give %.9g", i, x.Shape(), j, got, num)
			}
		}
	}
}

func or(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

// Devices returns the devices tests run on: CPU, Sim(0), and CUDA(0) when
// a GPU is available.
func Devices() []dl.Device {
	devs := []dl.Device{dl.CPU, dl.Sim(0)}
	if dl.DeviceCount(dl.CUDAKind) > 0 {
		devs = append(devs, dl.CUDA(0))
	}
	return devs
}

// ForEachDevice runs fn as a subtest "dev=<device>" on CPU and Sim(0),
// and on CUDA(0), skipped when no GPU is present.
func ForEachDevice(t *testing.T, fn func(t *testing.T, dev dl.Device)) {
	t.Helper()
	for _, dev := range []dl.Device{dl.CPU, dl.Sim(0), dl.CUDA(0)} {
		t.Run(fmt.Sprintf("dev=%v", dev), func(t *testing.T) {
			if dev.Kind() == dl.CUDAKind && dl.DeviceCount(dl.CUDAKind) == 0 {
				t.Skip("no CUDA GPU")
			}
			fn(t, dev)
		})
	}
}

// MaxAbsDiff returns max |a[i] − b[i]| over the elements of a (b must be at
// least as long): the figure tests compare with a tolerance.
func MaxAbsDiff(a, b []float64) float64 {
	d := 0.0
	for i, v := range a {
		d = math.Max(d, math.Abs(v-b[i]))
	}
	return d
}
