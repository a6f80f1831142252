package dl_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dltest"
)

// fusedRun computes one forward and backward of FusedLinear (or its
// unfused path) and returns the output and the gradients of x, w, b.
func fusedRun(unfused bool, dt dl.DType, act dl.FusedActivation, seed uint64) [][]float64 {
	o := dl.Options{DType: dt, Generator: dl.NewGenerator(seed)}
	x := o.Randn(5, 7).SetRequiresGrad(true)
	w := o.Randn(3, 7).SetRequiresGrad(true)
	b := o.Randn(3).SetRequiresGrad(true)
	r := o.Randn(5, 3)
	var y *dl.Tensor
	run := func() {
		y = dl.FusedLinear(x, w, b, act).Retain()
		y.Mul(r).Sum().Backward()
	}
	if unfused {
		dl.WithoutFusion(run)
	} else {
		run()
	}
	return [][]float64{y.Float64s(), x.Grad().Float64s(), w.Grad().Float64s(), b.Grad().Float64s()}
}

func TestFusedLinearMatchesUnfused(t *testing.T) {
	for _, dt := range []dl.DType{dl.Float64, dl.Float32} {
		for _, act := range []dl.FusedActivation{dl.FuseReLU, dl.FuseTanh, dl.FuseSigmoid} {
			t.Run(fmt.Sprintf("dtype=%v/act=%v", dt, act), func(t *testing.T) {
				fused, plain := fusedRun(false, dt, act, 3), fusedRun(true, dt, act, 3)
				for i, name := range []string{"y", "dx", "dw", "db"} {
					if !slices.Equal(fused[i], plain[i]) { // the same kernels on the same values
						t.Errorf("%s: fused %v; unfused %v (want bitwise equal)", name, fused[i], plain[i])
					}
				}
			})
		}
	}
}

func TestFusedLinearGrad(t *testing.T) {
	o := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(4)}
	dltest.GradCheck(t, func(xs ...*dl.Tensor) *dl.Tensor { return dl.FusedLinear(xs[0], xs[1], xs[2], dl.FuseTanh) },
		o.Randn(4, 3), o.Randn(2, 3), o.Randn(2))
}

// TestFusedLinearMemory checks that the fused layer keeps one [rows, out]
// buffer fewer until backward.
func TestFusedLinearMemory(t *testing.T) {
	dltest.HoldGC(t) // figures below are exact only without GC cleanups of other tests' tensors
	held := func(unfused bool) int64 {
		o := dl.Options{Device: dl.Sim(3), Generator: dl.NewGenerator(1)}
		x := o.Randn(64, 32)
		w := o.Randn(16, 32).SetRequiresGrad(true)
		b := o.Randn(16).SetRequiresGrad(true)
		before := dl.MemoryStats(dl.Sim(3)).Allocated
		var y *dl.Tensor
		run := func() { y = dl.FusedLinear(x, w, b, dl.FuseReLU) }
		if unfused {
			dl.WithoutFusion(run)
		} else {
			run()
		}
		n := dl.MemoryStats(dl.Sim(3)).Allocated - before
		y.Sum().Backward()
		for _, p := range []*dl.Tensor{x, w, b, y, w.Grad(), b.Grad()} {
			p.Release()
		}
		return n
	}
	fused, unfused := held(false), held(true)
	if want := int64(64 * 16 * 4); unfused-fused != want || fused != want {
		t.Errorf("bytes held after forward: fused %d, unfused %d; want fused = %d (one buffer) and one buffer fewer than unfused", fused, unfused, want)
	}
}

func TestFusedLinearUnknownActivation(t *testing.T) {
	defer func() {
		err, _ := recover().(error)
		if !errors.Is(err, dl.ErrValue) || !strings.Contains(err.Error(), "unknown activation FusedActivation(9); use dl.FuseReLU") {
			t.Errorf("FusedLinear with an unknown activation panicked with %v; want a *dl.ValueError naming the choices", err)
		}
	}()
	dl.FusedLinear(dl.Ones(2, 2), dl.Ones(2, 2), nil, dl.FusedActivation(9))
}

// ceRun returns the loss and the gradient of CrossEntropy, fused or not.
func ceRun(unfused bool, dt dl.DType) (float64, []float64) {
	o := dl.Options{DType: dt, Generator: dl.NewGenerator(6)}
	logits := o.Randn(9, 13).MulScalar(4).Detach().SetRequiresGrad(true)
	targets := dl.FromSlice([]float64{0, 12, -100, 5, 5, 7, 1, -100, 3}).AsType(dt)
	var loss float64
	run := func() {
		l := dl.CrossEntropy(logits, targets)
		loss = l.Item()
		l.Backward()
	}
	if unfused {
		dl.WithoutFusion(run)
	} else {
		run()
	}
	return loss, logits.Grad().Float64s()
}

func TestFusedCrossEntropyMatchesUnfused(t *testing.T) {
	for _, c := range []struct {
		dt  dl.DType
		tol float64
	}{{dl.Float64, 1e-12}, {dl.Float32, 1e-6}} {
		t.Run("dtype="+c.dt.String(), func(t *testing.T) {
			lf, gf := ceRun(false, c.dt)
			lu, gu := ceRun(true, c.dt)
			if math.Abs(lf-lu) > c.tol*math.Abs(lu) {
				t.Errorf("loss: fused %v, unfused %v; want within %v relative", lf, lu, c.tol)
			}
			for i := range gu {
				if math.Abs(gf[i]-gu[i]) > c.tol*math.Max(math.Abs(gu[i]), 1e-3) {
					t.Fatalf("grad[%d]: fused %v, unfused %v", i, gf[i], gu[i])
				}
			}
		})
	}
}

// TestFusedCrossEntropyMemory checks what each path keeps for backward:
// the unfused path the [N, C] log-softmax, the fused one N float64
// log-sum-exps.
func TestFusedCrossEntropyMemory(t *testing.T) {
	dltest.HoldGC(t) // figures below are exact only without GC cleanups of other tests' tensors
	const n, c = 32, 1000
	held := func(unfused bool) int64 {
		dev := dl.Sim(3)
		logits := dl.Options{Device: dev, Generator: dl.NewGenerator(2)}.Randn(n, c).SetRequiresGrad(true)
		targets := dl.Options{Device: dev}.Zeros(n)
		before := dl.MemoryStats(dev).Allocated
		var loss *dl.Tensor
		run := func() { loss = dl.CrossEntropy(logits, targets) }
		if unfused {
			dl.WithoutFusion(run)
		} else {
			run()
		}
		held := dl.MemoryStats(dev).Allocated - before
		loss.Backward()
		for _, x := range []*dl.Tensor{loss, logits, targets, logits.Grad()} {
			x.Release()
		}
		return held
	}
	if got, want := held(false), int64(8*n+4); got != want {
		t.Errorf("fused CrossEntropy holds %d bytes after forward; want %d (log-sum-exps and the loss)", got, want)
	}
	if got, want := held(true), int64(4*n*c+4); got != want {
		t.Errorf("unfused CrossEntropy holds %d bytes after forward; want %d (log-softmax and the loss)", got, want)
	}
}

func TestFusedCrossEntropyGrad(t *testing.T) {
	targets := dl.FromSlice([]float64{2, -100, 0, 1})
	dltest.GradCheck(t, func(xs ...*dl.Tensor) *dl.Tensor { return dl.CrossEntropy(xs[0], targets) },
		dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(3)}.Randn(4, 3))
}
