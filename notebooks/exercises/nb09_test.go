package exercises

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/parallel"
)

func TestBubbleMicroBatches(t *testing.T) {
	expect(t, "BubbleMicroBatches(64)", BubbleMicroBatches(64), true, false, "m = 64")
	expect(t, "BubbleMicroBatches(63)", BubbleMicroBatches(63), false, false, "justo el 10 %")
	expect(t, "BubbleMicroBatches(8)", BubbleMicroBatches(8), false, false, "más micro-lotes")
	expect(t, "BubbleMicroBatches(100)", BubbleMicroBatches(100), false, false, "el mínimo")
	expect(t, "BubbleMicroBatches(0)", BubbleMicroBatches(0), false, true, "microLotes")
}

func TestTPAllReducesPerStep(t *testing.T) {
	expect(t, "TPAllReducesPerStep(1280)", TPAllReducesPerStep(1280), true, false, "4 por bloque")
	expect(t, "TPAllReducesPerStep(5120)", TPAllReducesPerStep(5120), false, false, "su etapa")
	expect(t, "TPAllReducesPerStep(80)", TPAllReducesPerStep(80), false, false, "un micro-lote")
	expect(t, "TPAllReducesPerStep(640)", TPAllReducesPerStep(640), false, false, "backward")
	expect(t, "TPAllReducesPerStep(4)", TPAllReducesPerStep(4), false, false, "multiplica")
	expect(t, "TPAllReducesPerStep(0)", TPAllReducesPerStep(0), false, true, "allReduces")
}

// refMLPTP is the reference solution of notebook 09's exercise 3.
func refMLPTP(r *dist.Rank, a, b *nn.Linear, x *dl.Tensor) *dl.Tensor {
	k, i := a.Out/r.Size(), r.Rank()
	h := dl.Linear(parallel.CopyToTP(r, x), a.Weight.Narrow(0, i*k, k), a.Bias.Narrow(0, i*k, k)).GELU() // f, A by columns
	z := parallel.ReduceFromTP(r, dl.Linear(h, b.Weight.Narrow(1, i*k, k), nil))                         // B by rows, g
	return z.Add(b.Bias)
}

// mlpTPVariant is refMLPTP without f (noF), without g (noG), or with b's
// bias added before g (biasInside).
func mlpTPVariant(noF, noG, biasInside bool) func(*dist.Rank, *nn.Linear, *nn.Linear, *dl.Tensor) *dl.Tensor {
	return func(r *dist.Rank, a, b *nn.Linear, x *dl.Tensor) *dl.Tensor {
		k, i := a.Out/r.Size(), r.Rank()
		if !noF {
			x = parallel.CopyToTP(r, x)
		}
		h := dl.Linear(x, a.Weight.Narrow(0, i*k, k), a.Bias.Narrow(0, i*k, k)).GELU()
		var bias *dl.Tensor
		if biasInside {
			bias = b.Bias
		}
		z := dl.Linear(h, b.Weight.Narrow(1, i*k, k), bias)
		if !noG {
			z = parallel.ReduceFromTP(r, z)
		}
		if biasInside {
			return z
		}
		return z.Add(b.Bias)
	}
}

func TestTensorParallelMLP(t *testing.T) {
	for _, c := range []struct {
		name    string
		f       func(*dist.Rank, *nn.Linear, *nn.Linear, *dl.Tensor) *dl.Tensor
		ok      bool
		isBlank bool
		hint    string
	}{
		{"reference", refMLPTP, true, false, "gradiente completo"},
		{"parallel layers", func(r *dist.Rank, a, b *nn.Linear, x *dl.Tensor) *dl.Tensor {
			return parallel.NewRowParallelLinear(b, r).Forward(parallel.NewColumnParallelLinear(a, r, false).Forward(x).GELU())
		}, true, false, "gradiente completo"},
		{"no f", mlpTPVariant(true, false, false), false, false, "parallel.CopyToTP"},
		{"no g", mlpTPVariant(false, true, false), false, false, "suma parcial"},
		{"bias before g", mlpTPVariant(false, false, true), false, false, "sumado 2 veces"},
		{"detached x", func(r *dist.Rank, a, b *nn.Linear, x *dl.Tensor) *dl.Tensor {
			return refMLPTP(r, a, b, x.Detach())
		}, false, false, "sin Detach"},
		{"wrong split", func(r *dist.Rank, a, b *nn.Linear, x *dl.Tensor) *dl.Tensor {
			k, i := a.Out/r.Size(), r.Rank()
			h := dl.Linear(parallel.CopyToTP(r, x), a.Weight.Narrow(0, i*k, k), a.Bias.Narrow(0, i*k, k)).GELU()
			return parallel.ReduceFromTP(r, dl.Linear(h, b.Weight.Narrow(1, (1-i)*k, k), nil)).Add(b.Bias)
		}, false, false, "no es la del MLP denso"},
		{"partial shape", func(r *dist.Rank, a, b *nn.Linear, x *dl.Tensor) *dl.Tensor {
			k, i := a.Out/r.Size(), r.Rank()
			return dl.Linear(x, a.Weight.Narrow(0, i*k, k), a.Bias.Narrow(0, i*k, k))
		}, false, false, "forma [4 16]"},
		{"panics", func(r *dist.Rank, a, b *nn.Linear, x *dl.Tensor) *dl.Tensor {
			return b.Forward(x) // b expects 32 features
		}, false, false, "pánico"},
		{"blank", func(*dist.Rank, *nn.Linear, *nn.Linear, *dl.Tensor) *dl.Tensor { return nil }, false, true, "mlpTP"},
		{"nil", nil, false, true, "mlpTP"},
	} {
		t.Run(c.name, func(t *testing.T) {
			expect(t, "TensorParallelMLP", TensorParallelMLP(c.f), c.ok, c.isBlank, c.hint)
		})
	}
}

func ExampleBubbleMicroBatches() {
	fmt.Println(BubbleMicroBatches(63))
	fmt.Println(BubbleMicroBatches(64))
	// Output:
	// Ejercicio 1: todavía no. Pista: con m = 63 la burbuja es justo el 10 %; tiene que ser menor.
	// Ejercicio 1: correcto, m = 64: burbuja del 9,86 %.
}
