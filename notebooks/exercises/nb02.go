package exercises

import (
	"math"
	"slices"

	"github.com/dlbd/dlbd/dl/scaling"
	"github.com/dlbd/dlbd/facts"
)

// KaplanDataFactor checks exercise 1 of 02-por-que-dl-necesita-big-data: by
// how much the training tokens must be multiplied to lower the loss 10 %
// under Kaplan et al.'s L(D) = (D_c/D)^α_D, that is k with k^(−α_D) = 0.9
// (α_D from facts.Kaplan). A blank answer is 0; within 5 % is right.
func KaplanDataFactor(k float64) Result {
	const label = "Ejercicio 1"
	if k == 0 {
		return blank(label, "Escribe en factorDatos el factor k por el que hay que multiplicar los tokens: con L(D) = (D_c/D)^α_D, L(kD)/L(D) = k^(−α_D); despeja k para que valga 0,9.")
	}
	law := facts.Kaplan()
	want := math.Pow(0.9, -1/law.AlphaD)
	switch {
	case within(k, want, 0.05):
		return correct(label, "×%s: con α_D = %s, triplicar los datos solo baja la pérdida un 10 %%.", decimal("%.1f", want), decimal("%g", law.AlphaD))
	case within(k, math.Pow(0.9, -1/law.AlphaN), 0.05):
		return wrong(label, "ese es el factor de los parámetros (α_N = %s); para los datos usa α_D = %s.", decimal("%g", law.AlphaN), decimal("%g", law.AlphaD))
	case within(k, 1/want, 0.05) || k < 1:
		return wrong(label, "para bajar la pérdida hacen falta más datos, no menos: el factor es mayor que 1.")
	case within(k, math.Pow(1.1, 1/law.AlphaD), 0.03):
		return wrong(label, "bajar la pérdida un 10 %% es multiplicarla por 0,9, no dividirla entre 1,1.")
	}
	return wrong(label, "no es %s. Despeja k de k^(−α_D) = 0,9 con α_D = %s: k = 0,9^(−1/α_D).", decimal("%g", k), decimal("%g", law.AlphaD))
}

// nb02Base and nb02Sizes are the small data sweep DataSizeSweep runs: one
// student of width 32 for 1,000 steps, from 128 to 4,096 examples, about half
// a second on two cores.
var (
	nb02Base  = scaling.ExperimentConfig{Widths: []int{32}, Steps: 1000, BatchSize: 64, TestSamples: 1024, Seed: 1}
	nb02Sizes = []int{128, 256, 512, 1024, 2048, 4096}
)

// DataSizeSweep checks exercise 2 of 02-por-que-dl-necesita-big-data: sweep,
// the student's function, must train the experiment base (one width) with
// each number of training examples of sizes and return the test loss of each,
// in order — the data axis of a scaling law, L(D). The checker calls it on a
// small experiment (nb02Base), compares every loss with scaling.Run's for the
// same configuration, and when they match fits L(D) = a·D^(−α) + c with
// scaling.FitPowerLaw. A blank answer returns nil.
func DataSizeSweep(sweep func(base scaling.ExperimentConfig, sizes []int) []float64) Result {
	const label = "Ejercicio 2"
	if sweep == nil {
		return blank(label, "Define la función barridoDatos.")
	}
	var got []float64
	base := nb02Base
	base.Widths = slices.Clone(base.Widths) // copies: the student's function may change them
	if err := catch(func() { got = sweep(base, slices.Clone(nb02Sizes)) }); err != nil {
		return wrong(label, "tu función entró en pánico: %v", err)
	}
	if got == nil {
		return blank(label, "Completa barridoDatos: para cada tamaño de tamanos, copia base, cambia su Samples, ejecútalo con scaling.Run y añade la pérdida de test de su alumno (Points[0].TestLoss) a la lista que devuelves.")
	}
	if len(got) != len(nb02Sizes) {
		return wrong(label, "devuelve %d pérdidas para %d tamaños: una por tamaño, en el orden de tamanos.", len(got), len(nb02Sizes))
	}
	test, train := make([]float64, len(nb02Sizes)), make([]float64, len(nb02Sizes))
	for i, d := range nb02Sizes {
		cfg := nb02Base
		cfg.Samples = d
		res, err := scaling.Run(cfg)
		if err != nil {
			return wrong(label, "no he podido entrenar la referencia con %d ejemplos: %v", d, err)
		}
		test[i], train[i] = res.Points[0].TestLoss, res.Points[0].TrainLoss
	}
	same := func(a, b []float64) bool {
		for i := range a {
			if !within(a[i], b[i], 1e-9) {
				return false
			}
		}
		return true
	}
	reversed := slices.Clone(got)
	slices.Reverse(reversed)
	switch {
	case same(got, test):
		law, err := scaling.FitPowerLaw(nb02Float(nb02Sizes), got)
		if err != nil {
			return correct(label, "tus pérdidas coinciden con las de scaling.Run (el ajuste no converge: %v).", err)
		}
		return correct(label, "tus %d pérdidas coinciden con las de scaling.Run. Ajuste: L(D) = %s·D^(−%s) + %s: α = %s en esta tarea, frente al α_D = %s de Kaplan para texto.",
			len(got), decimal("%.3g", law.A), decimal("%.2f", law.Alpha), decimal("%.3g", law.C), decimal("%.2f", law.Alpha), decimal("%g", facts.Kaplan().AlphaD))
	case same(got, train):
		return wrong(label, "son las pérdidas de entrenamiento (TrainLoss); la ley de escala mide la de test, en ejemplos que el alumno no ha visto (TestLoss).")
	case nb02Constant(got):
		return wrong(label, "todas las pérdidas son iguales: ¿cambias Samples en la copia de base antes de cada scaling.Run?")
	case same(reversed, test):
		return wrong(label, "las pérdidas están al revés: devuélvelas en el orden de tamanos.")
	}
	return wrong(label, "con %d ejemplos das %s y scaling.Run da %s: entrena base sin cambiar nada más que Samples y toma Points[0].TestLoss.",
		nb02Sizes[0], decimal("%.4g", got[0]), decimal("%.4g", test[0]))
}

// nb02Float converts sizes to float64, for FitPowerLaw.
func nb02Float(xs []int) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// nb02Constant reports whether every value equals the first.
func nb02Constant(xs []float64) bool {
	for _, x := range xs {
		if x != xs[0] {
			return false
		}
	}
	return true
}
