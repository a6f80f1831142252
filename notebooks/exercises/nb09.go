package exercises

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/parallel"
	"github.com/dlbd/dlbd/dl/plan"
)

// The checkers of 09-model-parallelism.ipynb.

// BubbleMicroBatches checks exercise 1 of notebook 09: the fewest
// micro-batches that keep the bubble of an 8-stage pipeline under 10 %
// (parallel.BubbleFraction).
func BubbleMicroBatches(m int) Result {
	const label, p, limit = "Ejercicio 1", 8, 0.10
	want := 1
	for parallel.BubbleFraction(p, want) >= limit {
		want++
	}
	switch {
	case m == 0:
		return blank(label, "Escribe en microLotes el número mínimo de micro-lotes.")
	case m == want:
		return correct(label, "m = %d: burbuja del %s %%.", m, decimal("%.2f", 100*parallel.BubbleFraction(p, m)))
	case m < 0:
		return wrong(label, "el número de micro-lotes es positivo.")
	case parallel.BubbleFraction(p, m) == limit:
		return wrong(label, "con m = %d la burbuja es justo el 10 %%; tiene que ser menor.", m)
	case parallel.BubbleFraction(p, m) > limit:
		return wrong(label, "con m = %d la burbuja es del %s %%: hacen falta más micro-lotes.", m, decimal("%.1f", 100*parallel.BubbleFraction(p, m)))
	}
	return wrong(label, "con m = %d la burbuja es del %s %%, pero se puede con menos micro-lotes: busca el mínimo.", m, decimal("%.1f", 100*parallel.BubbleFraction(p, m)))
}

// The case of exercise 2 of notebook 09: Llama 3 70B on TP 8 × PP 4 with
// 16 micro-batches a step.
const nb09PP, nb09MicroBatches = 4, 16

// TPAllReducesPerStep checks exercise 2 of notebook 09: the tensor-parallel
// all-reduces one GPU makes in a training step of Llama 3 70B with PP 4 and
// 16 micro-batches. The all-reduces of one block (forward and backward) are
// counted on a parallel.TPBlock that the checker runs.
func TPAllReducesPerStep(n int) Result {
	const label = "Ejercicio 2"
	fwd, bwd, err := nb09TPBlockAllReduces()
	if err != nil {
		return wrong(label, "no se pudo ejecutar el bloque TP de referencia: %v", err)
	}
	layers := plan.Llama3_70B.Layers
	perStage := layers / nb09PP
	want := (fwd + bwd) * perStage * nb09MicroBatches
	switch n {
	case 0:
		return blank(label, "Escribe en allReduces los all-reduce de TP que hace cada GPU en un paso.")
	case want:
		return correct(label, "%s = %d por bloque (%d en forward y %d en backward) × %d bloques por etapa × %d micro-lotes.",
			thousands(want), fwd+bwd, fwd, bwd, perStage, nb09MicroBatches)
	case (fwd + bwd) * layers * nb09MicroBatches, (fwd + bwd) * layers:
		return wrong(label, "cada GPU solo tiene los bloques de su etapa del pipeline: %d bloques entre %d etapas.", layers, nb09PP)
	case (fwd + bwd) * perStage:
		return wrong(label, "eso es un micro-lote: cada uno de los %d micro-lotes pasa por la etapa, con sus all-reduce.", nb09MicroBatches)
	case fwd * perStage * nb09MicroBatches:
		return wrong(label, "cuenta también los all-reduce de backward (f, antes de la atención y del MLP).")
	}
	return wrong(label, "cuenta los all-reduce de un bloque por micro-lote (forward y backward: g y f), y multiplica por los bloques de una etapa y por los micro-lotes.")
}

// nb09TPBlockAllReduces runs a small transformer block with tensor
// parallelism on 2 ranks and returns the all-reduces of its forward and
// of its backward.
func nb09TPBlockAllReduces() (fwd, bwd int, err error) {
	b := nn.NewBlock(nn.BlockConfig{Dim: 8, Heads: 2, InitConfig: nn.InitConfig{DType: dl.Float64, Generator: dl.NewGenerator(1)}})
	x := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(2)}.Randn(1, 3, 8)
	count := func(g *dist.Group) int {
		return len(slices.DeleteFunc(g.Records(), func(r dist.Record) bool { return r.Collective != "all-reduce" }))
	}
	err = dist.Run(2, func(r *dist.Rank) error {
		tb := parallel.NewTPBlock(b, r)
		xr := x.To(r.Device()).SetRequiresGrad(true)
		if err := r.Barrier(); err != nil {
			return err
		}
		n0 := count(r.Group())
		y := tb.Forward(xr)
		if err := r.Barrier(); err != nil {
			return err
		}
		n1 := count(r.Group())
		y.Sum().Backward()
		if err := r.Barrier(); err != nil {
			return err
		}
		if r.Rank() == 0 {
			fwd, bwd = n1-n0, count(r.Group())-n1
		}
		return nil
	})
	return fwd, bwd, err
}

// The MLP of TensorParallelMLP: nb09Batch rows of nb09Dim features, a
// hidden layer of 4·nb09Dim, split on nb09TP ranks.
const nb09Batch, nb09Dim, nb09TP = 4, 8, 2

// TensorParallelMLP checks exercise 3 of notebook 09: mlp(r, a, b, x) must
// compute, on rank r of 2, Megatron-LM's MLP Z = GeLU(X·A)·B with a split
// by columns (its output features) and b by rows (its input features), and
// return the whole Z on every rank, equal to the unsharded
// b.Forward(a.Forward(x).GELU()); in backward every rank's x must get the
// whole gradient (f, parallel.CopyToTP). Each rank gets its own copy of
// the dense layers and of x, on its device.
func TensorParallelMLP(mlp func(r *dist.Rank, a, b *nn.Linear, x *dl.Tensor) *dl.Tensor) Result {
	const label = "Ejercicio 3"
	if mlp == nil {
		return blank(label, "Completa la función mlpTP.")
	}
	a, b := nb09Layers(dl.CPU)
	x := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(3)}.Randn(nb09Batch, nb09Dim)
	w := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(4)}.Randn(nb09Batch, nb09Dim)
	xd := x.Clone().SetRequiresGrad(true)
	zd := b.Forward(a.Forward(xd).GELU()).Retain()
	zd.Mul(w).Sum().Backward()
	want, wantGrad, bias := zd.Float64s(), xd.Grad().Float64s(), b.Bias.Float64s()

	outs, grads := make([][]float64, nb09TP), make([][]float64, nb09TP)
	shapes := make([][]int, nb09TP)
	// run calls mlp on every rank (fresh layers and x) and, with backward,
	// backpropagates a weighted sum of its output: a first run checks the
	// output alone, so that a wrong one gets its hint before backward runs.
	run := func(backward bool) error {
		return dist.Run(nb09TP, func(r *dist.Rank) error {
			ar, br := nb09Layers(r.Device())
			xr := x.To(r.Device()).SetRequiresGrad(true)
			var z *dl.Tensor
			if err := catch(func() { z = mlp(r, ar, br, xr) }); err != nil {
				return fmt.Errorf("tu función entró en pánico: %w", err)
			}
			if z == nil {
				return nil
			}
			shapes[r.Rank()], outs[r.Rank()] = z.Shape(), z.To(dl.CPU).Float64s()
			if !backward {
				return nil
			}
			if err := catch(func() { z.Mul(w.To(r.Device())).Sum().Backward() }); err != nil {
				return fmt.Errorf("el backward de tu salida entró en pánico: %w", err)
			}
			if g := xr.Grad(); g != nil {
				grads[r.Rank()] = g.To(dl.CPU).Float64s()
			}
			return nil
		})
	}
	if res, done := nb09RunResult(label, run(false)); done {
		return res
	}
	if outs[0] == nil && outs[1] == nil {
		return blank(label, "mlpTP devuelve nil: escribe en ella las dos capas partidas y devuelve la salida Z completa.")
	}
	for rk, out := range outs {
		if out == nil {
			return wrong(label, "el rank %d devuelve nil: todos los ranks devuelven la salida completa.", rk)
		}
		if !slices.Equal(shapes[rk], zd.Shape()) {
			return wrong(label, "el rank %d devuelve una salida de forma %v y la del MLP es %v: tras la capa por filas, g (parallel.ReduceFromTP) suma las salidas parciales de los ranks.", rk, shapes[rk], zd.Shape())
		}
	}
	if d := nb09Diff(outs, want, bias, 0); d > 1e-12 {
		switch {
		case nb09SumDiff(outs, want, bias) <= 1e-12:
			return wrong(label, "cada rank devuelve solo su suma parcial de Z: falta g (parallel.ReduceFromTP) tras la capa por filas.")
		case nb09Diff(outs, want, bias, nb09TP-1) <= 1e-12:
			return wrong(label, "el sesgo de b se suma en cada rank antes del all-reduce y acaba sumado %d veces: súmalo una vez, después de g.", nb09TP)
		}
		return wrong(label, "la salida no es la del MLP denso (diferencia %s): a se parte por sus filas (features de salida, con su trozo de a.Bias), GeLU, y b por sus columnas (features de entrada).", decimal("%.1e", d))
	}
	if res, done := nb09RunResult(label, run(true)); done {
		return res
	}
	for rk, g := range grads {
		if g == nil {
			return wrong(label, "la salida es correcta, pero x no recibe gradiente en el rank %d: calcula Z a partir de x, sin Detach.", rk)
		}
	}
	if d := nb09Diff(grads, wantGrad, nil, 0); d > 1e-12 {
		if nb09SumDiff(grads, wantGrad, nil) <= 1e-12 {
			return wrong(label, "la salida es correcta, pero en backward cada rank tiene solo su parte del gradiente de x: la entrada entra por f (parallel.CopyToTP), que los suma.")
		}
		return wrong(label, "la salida es correcta, pero el gradiente de x no es el del MLP denso (diferencia %s).", decimal("%.1e", d))
	}
	return correct(label, "los %d ranks devuelven la salida del MLP denso, y x recibe su gradiente completo en backward.", nb09TP)
}

// nb09Layers returns the dense MLP's layers (a: d → 4d, b: 4d → d) on dev,
// the same on every call.
func nb09Layers(dev dl.Device) (a, b *nn.Linear) {
	cfg := func(seed uint64) nn.LinearConfig {
		return nn.LinearConfig{InitConfig: nn.InitConfig{DType: dl.Float64, Device: dev, Generator: dl.NewGenerator(seed)}}
	}
	return nn.NewLinear(nb09Dim, 4*nb09Dim, cfg(1)), nn.NewLinear(4*nb09Dim, nb09Dim, cfg(2))
}

// nb09RunResult turns the error of a checking run into the Result to
// return (done true), or reports done false when there is none.
func nb09RunResult(label string, err error) (Result, bool) {
	switch {
	case err == nil:
		return Result{}, false
	case errors.Is(err, dist.ErrAborted):
		return wrong(label, "los ranks no terminaron: %v. Los dos ranks deben hacer las mismas colectivas, en el mismo orden.", err), true
	}
	return wrong(label, "%v", err), true
}

// nb09Diff is the largest difference between every rank's values and want
// plus extra times bias (repeated along the rows; nil for none).
func nb09Diff(ranks [][]float64, want, bias []float64, extra int) float64 {
	d := 0.0
	for _, got := range ranks {
		if len(got) != len(want) {
			return math.Inf(1)
		}
		for i := range want {
			v := want[i]
			if bias != nil {
				v += float64(extra) * bias[i%len(bias)]
			}
			d = math.Max(d, math.Abs(got[i]-v))
		}
	}
	return d
}

// nb09SumDiff is the largest difference between the sum of the ranks'
// values and want, the bias (if any) counted once per rank.
func nb09SumDiff(ranks [][]float64, want, bias []float64) float64 {
	sum := make([]float64, len(want))
	for _, got := range ranks {
		if len(got) != len(want) {
			return math.Inf(1)
		}
		for i := range got {
			sum[i] += got[i]
		}
	}
	return nb09Diff([][]float64{sum}, want, bias, len(ranks)-1)
}
