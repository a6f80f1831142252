package exercises

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
)

func TestRingAllReduceSteps(t *testing.T) {
	expect(t, "RingAllReduceSteps(14)", RingAllReduceSteps(14), true, false, "7 de reduce-scatter")
	expect(t, "RingAllReduceSteps(7)", RingAllReduceSteps(7), false, false, "una de las dos fases")
	expect(t, "RingAllReduceSteps(16)", RingAllReduceSteps(16), false, false, "n−1 pasos, no n")
	expect(t, "RingAllReduceSteps(0)", RingAllReduceSteps(0), false, true, "respuesta1")
}

func TestSamplerIndicesPerRank(t *testing.T) {
	expect(t, "SamplerIndicesPerRank(167)", SamplerIndicesPerRank(167), true, false, "2 repetidos")
	expect(t, "SamplerIndicesPerRank(166)", SamplerIndicesPerRank(166), false, false, "DropLast")
	expect(t, "SamplerIndicesPerRank(4)", SamplerIndicesPerRank(4), false, false, "redondeas hacia arriba")
	expect(t, "SamplerIndicesPerRank(0)", SamplerIndicesPerRank(0), false, true, "respuesta2")
}

func TestDDPStepsPerEpoch(t *testing.T) {
	ceil := func(a, b int) int { return (a + b - 1) / b }
	for _, c := range []struct {
		name    string
		f       func(examples, perRank, ranks int) int
		ok      bool
		isBlank bool
		hint    string
	}{
		{"reference", func(e, p, r int) int { return ceil(e, p*r) }, true, false, "118 pasos"},
		{"floor", func(e, p, r int) int { return e / (p * r) }, false, false, "redondea hacia arriba"},
		{"one device", func(e, p, r int) int { return ceil(e, p) }, false, false, "porRank × ranks"},
		{"panics", func(e, p, r int) int { return e / (p - p) }, false, false, "pánico"},
		{"blank", func(e, p, r int) int { return 0 }, false, true, "pasosPorEpoca"},
		{"nil", nil, false, true, "pasosPorEpoca"},
	} {
		expect(t, "DDPStepsPerEpoch("+c.name+")", DDPStepsPerEpoch(c.f), c.ok, c.isBlank, c.hint)
	}
}

// refDDPStep is the reference solution of notebook 08's exercise 4.
func refDDPStep(r *dist.Rank, m nn.Module, opt optim.Optimizer, x, y *dl.Tensor) error {
	opt.ZeroGrad()
	dl.CrossEntropy(m.Forward(x), y).Backward()
	for _, p := range nn.Parameters(m) {
		if err := r.AllReduce(p.Grad(), dist.Mean); err != nil {
			return err
		}
	}
	opt.Step()
	return nil
}

// ddpStepVariant is refDDPStep with one thing changed: the all-reduce's op
// (or no all-reduce with skip), no ZeroGrad, or the weights all-reduced
// after the step instead of the gradients.
func ddpStepVariant(op dist.Op, skip, noZero, weights bool) func(*dist.Rank, nn.Module, optim.Optimizer, *dl.Tensor, *dl.Tensor) error {
	return func(r *dist.Rank, m nn.Module, opt optim.Optimizer, x, y *dl.Tensor) error {
		if !noZero {
			opt.ZeroGrad()
		}
		dl.CrossEntropy(m.Forward(x), y).Backward()
		for _, p := range nn.Parameters(m) {
			if skip || weights {
				break
			}
			if err := r.AllReduce(p.Grad(), op); err != nil {
				return err
			}
		}
		opt.Step()
		if weights {
			for _, p := range nn.Parameters(m) {
				if err := r.AllReduce(p, dist.Mean); err != nil {
					return err
				}
			}
		}
		return nil
	}
}

func TestDDPStep(t *testing.T) {
	for _, c := range []struct {
		name    string
		f       func(*dist.Rank, nn.Module, optim.Optimizer, *dl.Tensor, *dl.Tensor) error
		ok      bool
		isBlank bool
		hint    string
	}{
		{"reference", refDDPStep, true, false, "pesos de un dispositivo"},
		{"no all-reduce", ddpStepVariant(dist.Mean, true, false, false), false, false, "falta el all-reduce"},
		{"sum", ddpStepVariant(dist.Sum, false, false, false), false, false, "dist.Mean"},
		{"no ZeroGrad", ddpStepVariant(dist.Mean, false, true, false), false, false, "opt.ZeroGrad()"},
		{"weights averaged", ddpStepVariant(dist.Mean, false, false, true), false, false, "no sobre los pesos"},
		{"no step", func(r *dist.Rank, m nn.Module, opt optim.Optimizer, x, y *dl.Tensor) error {
			dl.CrossEntropy(m.Forward(x), y).Backward()
			return nil
		}, false, false, "opt.Step()"},
		{"rank 0 only", func(r *dist.Rank, m nn.Module, opt optim.Optimizer, x, y *dl.Tensor) error {
			if r.Rank() == 0 {
				return refDDPStep(r, m, opt, x, y)
			}
			return nil
		}, false, false, "mismas colectivas"},
		{"error", func(*dist.Rank, nn.Module, optim.Optimizer, *dl.Tensor, *dl.Tensor) error {
			return fmt.Errorf("sin datos")
		}, false, false, "sin datos"},
		{"panics", func(r *dist.Rank, m nn.Module, opt optim.Optimizer, x, y *dl.Tensor) error {
			return r.AllReduce(nn.Parameters(m)[0].Grad(), dist.Mean) // no backward yet: no gradient
		}, false, false, "pánico"},
		{"blank", func(*dist.Rank, nn.Module, optim.Optimizer, *dl.Tensor, *dl.Tensor) error { return nil }, false, true, "pasoDDP"},
		{"nil", nil, false, true, "pasoDDP"},
	} {
		t.Run(c.name, func(t *testing.T) {
			expect(t, "DDPStep", DDPStep(c.f), c.ok, c.isBlank, c.hint)
		})
	}
}

func ExampleSamplerIndicesPerRank() {
	fmt.Println(SamplerIndicesPerRank(0))
	fmt.Println(SamplerIndicesPerRank(166))
	// Output:
	// Ejercicio 2: aún sin respuesta. Escribe en respuesta2 cuántos índices recibe cada rank.
	// Ejercicio 2: todavía no. Pista: eso es con DropLast, que corta la cola; sin él se rellena hasta que todos tengan el mismo número.
}
