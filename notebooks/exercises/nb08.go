package exercises

import (
	"errors"
	"fmt"
	"math"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/data"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
)

// The checkers of 08-data-parallelism.ipynb.

// RingAllReduceSteps checks exercise 1 of notebook 08: the communication
// steps of a ring all-reduce among 8 GPUs. The expected count is that of a
// ring all-reduce that dist runs on 8 ranks.
func RingAllReduceSteps(steps int) Result {
	const label, n = "Ejercicio 1", 8
	want, err := nb08RingSteps(n)
	if err != nil {
		return wrong(label, "no se pudo ejecutar el anillo de referencia: %v", err)
	}
	switch steps {
	case 0:
		return blank(label, "Escribe en respuesta1 los pasos del anillo con %d GPUs.", n)
	case want:
		return correct(label, "%d pasos: %d de reduce-scatter y %d de all-gather.", want, want/2, want/2)
	case n - 1:
		return wrong(label, "%d es solo una de las dos fases: tras el reduce-scatter viene el all-gather.", steps)
	case 2 * n:
		return wrong(label, "cada fase tiene n−1 pasos, no n: tras n−1 envíos cada trozo ya ha recorrido los n ranks.")
	}
	return wrong(label, "el anillo tiene dos fases, reduce-scatter y all-gather; cuenta los pasos de cada una en la tabla del all-reduce paso a paso.")
}

// nb08RingSteps runs a ring all-reduce on n ranks and returns its recorded
// steps.
func nb08RingSteps(n int) (int, error) {
	g, err := dist.New(dist.Config{WorldSize: n, AllReduce: dist.Ring})
	if err != nil {
		return 0, err
	}
	err = g.Run(func(r *dist.Rank) error {
		return dist.AllReduce(r, make([]float32, 2*n), dist.Sum)
	})
	if err != nil {
		return 0, err
	}
	recs := g.Records()
	return recs[len(recs)-1].Steps, nil
}

// SamplerIndicesPerRank checks exercise 2 of notebook 08: the indices
// each of 6 ranks gets from a DistributedSampler of 1,000 examples
// without DropLast.
func SamplerIndicesPerRank(indices int) Result {
	const label, n, ranks = "Ejercicio 2", 1000, 6
	want := data.DistributedSampler{N: n, NumReplicas: ranks}.Len()
	dropLast := data.DistributedSampler{N: n, NumReplicas: ranks, DropLast: true}.Len()
	switch indices {
	case 0:
		return blank(label, "Escribe en respuesta2 cuántos índices recibe cada rank.")
	case want:
		return correct(label, "%d índices por rank: %s en total, %d repetidos del principio.", want, thousands(want*ranks), want*ranks-n)
	case dropLast:
		return wrong(label, "eso es con DropLast, que corta la cola; sin él se rellena hasta que todos tengan el mismo número.")
	case n:
		return wrong(label, "la pregunta es por rank: los %s ejemplos se reparten entre %d ranks.", thousands(n), ranks)
	}
	return wrong(label, "los %s ejemplos se reparten entre %d ranks y, sin DropLast, todos reciben el mismo número de índices: ¿redondeas hacia arriba?", thousands(n), ranks)
}

// DDPStepsPerEpoch checks exercise 3 of notebook 08: stepsPerEpoch(examples,
// perRank, ranks) must return the optimizer steps of one DDP epoch, as a
// DataLoader over a DistributedSampler (neither dropping the last batch)
// makes them.
func DDPStepsPerEpoch(stepsPerEpoch func(examples, perRank, ranks int) int) Result {
	const label = "Ejercicio 3"
	if stepsPerEpoch == nil {
		return blank(label, "Completa la función pasosPorEpoca.")
	}
	cases := [][3]int{{60000, 64, 8}, {50000, 32, 4}, {1000, 100, 10}, {10, 1, 3}, {12000, 32, 4}}
	var got, first int
	for i, c := range cases {
		examples, perRank, ranks := c[0], c[1], c[2]
		if err := catch(func() { got = stepsPerEpoch(examples, perRank, ranks) }); err != nil {
			return wrong(label, "tu función entró en pánico con (%d, %d, %d): %v", examples, perRank, ranks, err)
		}
		if i == 0 && got == 0 {
			return blank(label, "pasosPorEpoca devuelve 0: escribe en ella cuántos pasos da DDP en una época.")
		}
		sampler := data.DistributedSampler{N: examples, NumReplicas: ranks}
		want := data.NewDataLoader(data.NewTensorDataset(dl.Zeros(examples)), data.DataLoaderConfig{BatchSize: perRank, Sampler: sampler}).Len()
		if i == 0 {
			first = want
		}
		if got == want {
			continue
		}
		global := perRank * ranks
		switch got {
		case examples / global:
			return wrong(label, "con (%d, %d, %d) das %d: el último lote, aunque vaya incompleto, también es un paso; redondea hacia arriba.", examples, perRank, ranks, got)
		case (examples + perRank - 1) / perRank:
			return wrong(label, "con (%d, %d, %d) das %d, los pasos de un solo dispositivo con lotes de %d: en cada paso DDP procesa porRank × ranks ejemplos.", examples, perRank, ranks, got, perRank)
		}
		return wrong(label, "con (%d, %d, %d) das %d pasos: en cada paso DDP procesa un lote global de porRank × ranks ejemplos.", examples, perRank, ranks, got)
	}
	return correct(label, "por ejemplo, %d pasos para 60.000 ejemplos en 8 ranks de 64 ejemplos por paso.", first)
}

// The DDP run DDPStep checks: nb08Ranks ranks of nb08PerRank examples, for
// nb08Steps steps of SGD (plain SGD, so that summing the gradients instead
// of averaging them equals a learning rate nb08Ranks times larger).
const (
	nb08Ranks, nb08PerRank, nb08Steps = 4, 8, 3
	nb08LR                            = 0.5
)

// DDPStep checks exercise 4 of notebook 08: step(r, m, opt, x, y) must do
// one DDP step on rank r — the cross-entropy of m on its part of the
// batch, backward, the all-reduce (mean) of every parameter's gradient,
// and the optimizer's step — so that nb08Ranks ranks end with the weights
// of one device trained on the whole batch.
func DDPStep(step func(r *dist.Rank, m nn.Module, opt optim.Optimizer, x, y *dl.Tensor) error) Result {
	const label = "Ejercicio 4"
	if step == nil {
		return blank(label, "Completa la función pasoDDP.")
	}
	x, y := nb08Data()
	init := nb08Flatten(nn.Parameters(nb08Model(dl.CPU)))
	weights := make([][]float64, nb08Ranks)
	grads := make([][]float64, nb08Ranks)
	err := dist.Run(nb08Ranks, func(r *dist.Rank) error {
		m := nb08Model(r.Device())
		opt := optim.NewSGD(nn.Parameters(m), optim.SGDConfig{LR: nb08LR})
		for s := range nb08Steps {
			lo := (s*nb08Ranks + r.Rank()) * nb08PerRank
			xr, yr := x.Slice(lo, lo+nb08PerRank).To(r.Device()), y.Slice(lo, lo+nb08PerRank).To(r.Device())
			var err error
			if p := catch(func() { err = step(r, m, opt, xr, yr) }); p != nil {
				return fmt.Errorf("tu función entró en pánico en el paso %d: %w", s+1, p)
			}
			if err != nil {
				return fmt.Errorf("tu función devolvió un error en el paso %d: %w", s+1, err)
			}
		}
		weights[r.Rank()] = nb08Flatten(nn.Parameters(m))
		grads[r.Rank()] = nb08Grads(nn.Parameters(m))
		return nil
	})
	if err != nil {
		if errors.Is(err, dist.ErrAborted) {
			return wrong(label, "los ranks no terminaron: %v. Todos los ranks deben hacer las mismas colectivas, en el mismo orden.", err)
		}
		return wrong(label, "%v", err)
	}
	w0 := weights[0]
	if nb08MaxDiff(w0, init) == 0 && nb08SameWeights(weights) {
		if grads[0] == nil {
			return blank(label, "pasoDDP no cambia los pesos: escribe en ella el forward, el backward, el all-reduce de los gradientes y el paso del optimizador.")
		}
		return wrong(label, "hay gradientes pero los pesos no cambian: falta opt.Step() tras el all-reduce.")
	}
	for r := 1; r < nb08Ranks; r++ {
		if d := nb08MaxDiff(weights[r], w0); d > 1e-9 {
			return wrong(label, "el rank %d termina con pesos distintos de los del rank 0 (hasta %s): cada rank ha usado solo su gradiente; falta el all-reduce de los gradientes de todos los parámetros.", r, decimal("%.1e", d))
		}
	}
	ref := nb08Single(x, y, nb08LR, true)
	d := nb08MaxDiff(w0, ref)
	switch {
	case d > 1e-9 && nb08MaxDiff(w0, nb08Single(x, y, nb08LR*nb08Ranks, true)) <= 1e-9:
		return wrong(label, "tus pesos son los de un learning rate %d veces mayor: has sumado los gradientes; promedia con dist.Mean.", nb08Ranks)
	case d > 1e-9 && nb08MaxDiff(w0, nb08Single(x, y, nb08LR, false)) <= 1e-9:
		return wrong(label, "los gradientes se acumulan de un paso a otro: ponlos a cero (opt.ZeroGrad()) antes del backward.")
	case d > 1e-9:
		return wrong(label, "los ranks coinciden entre sí pero no con un dispositivo con el lote completo (diferencia %s): haz el all-reduce después del backward y antes de opt.Step(), con la entropía cruzada como pérdida.", decimal("%.1e", d))
	}
	if grads[0] != nil {
		for r := 1; r < nb08Ranks; r++ {
			if nb08MaxDiff(grads[r], grads[0]) > 1e-9 {
				return wrong(label, "los pesos coinciden, pero los gradientes de los ranks son distintos tras el paso: el all-reduce va sobre los gradientes (p.Grad()), no sobre los pesos.")
			}
		}
	}
	return correct(label, "tus %d ranks terminan %d pasos con los pesos de un dispositivo con el lote de %d (diferencia máxima %s).",
		nb08Ranks, nb08Steps, nb08Ranks*nb08PerRank, decimal("%.1e", d))
}

// nb08Data returns the examples of every step (x [n, 2] float64) and their
// classes (y [n] int64, three classes).
func nb08Data() (x, y *dl.Tensor) {
	o := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(11)}
	x = o.Randn(nb08Steps*nb08Ranks*nb08PerRank, 2)
	return x, x.MatMul(o.Randn(2, 3)).ArgMax(1)
}

// nb08Model returns the MLP of the check on dev, the same on every rank.
func nb08Model(dev dl.Device) *nn.MLP {
	return nn.NewMLP([]int{2, 16, 3}, nn.MLPConfig{InitConfig: nn.InitConfig{DType: dl.Float64, Device: dev, Generator: dl.NewGenerator(7)}})
}

// nb08Single trains the model on one device with the global batch and
// returns its weights; zeroGrad false accumulates the gradients over the
// steps (a forgotten ZeroGrad).
func nb08Single(x, y *dl.Tensor, lr float64, zeroGrad bool) []float64 {
	m := nb08Model(dl.CPU)
	opt := optim.NewSGD(nn.Parameters(m), optim.SGDConfig{LR: lr})
	const global = nb08Ranks * nb08PerRank
	for s := range nb08Steps {
		if zeroGrad {
			opt.ZeroGrad()
		}
		dl.CrossEntropy(m.Forward(x.Slice(s*global, (s+1)*global)), y.Slice(s*global, (s+1)*global)).Backward()
		opt.Step()
	}
	return nb08Flatten(nn.Parameters(m))
}

// nb08Flatten returns the values of ps, one after the other.
func nb08Flatten(ps []*dl.Tensor) []float64 {
	var out []float64
	for _, p := range ps {
		out = append(out, p.To(dl.CPU).Float64s()...)
	}
	return out
}

// nb08Grads returns the gradients of ps, flattened, or nil if one has
// none.
func nb08Grads(ps []*dl.Tensor) []float64 {
	var out []float64
	for _, p := range ps {
		if p.Grad() == nil {
			return nil
		}
		out = append(out, p.Grad().To(dl.CPU).Float64s()...)
	}
	return out
}

// nb08MaxDiff is the largest |a[i] − b[i]| (+Inf if the lengths differ).
func nb08MaxDiff(a, b []float64) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	d := 0.0
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

// nb08SameWeights reports whether every slice of ws equals the first.
func nb08SameWeights(ws [][]float64) bool {
	for _, w := range ws[1:] {
		if nb08MaxDiff(w, ws[0]) != 0 {
			return false
		}
	}
	return true
}
