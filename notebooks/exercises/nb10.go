package exercises

import (
	"fmt"
	"math"
	"strings"

	"github.com/dlbd/dlbd/dl/dist/cost"
	"github.com/dlbd/dlbd/dl/plan"
	"github.com/dlbd/dlbd/facts"
)

// The checkers of 10-fsdp-zero-y-frameworks.ipynb.

// ZeRO2BytesPerParam checks exercise 1 of notebook 10: the bytes per
// parameter on each of 8 GPUs with ZeRO-2 and mixed-precision Adam
// (plan.ModelStates).
func ZeRO2BytesPerParam(bytes float64) Result {
	const label, n = "Ejercicio 1", 8
	perParam := func(z plan.ZeROStage) float64 { return plan.ModelStates(1, plan.MixedPrecisionAdam, z, n).Total() }
	want := perParam(plan.ZeRO2)
	switch {
	case bytes == 0:
		return blank(label, "Escribe en bytesPorParametro los bytes por parámetro de cada GPU.")
	case within(bytes, want, 1e-9):
		return correct(label, "%s bytes por parámetro (16 sin ZeRO).", decimal("%.2f", want))
	case within(bytes, perParam(plan.ZeRO1), 1e-9):
		return wrong(label, "eso es ZeRO-1: la etapa 2 reparte también los gradientes.")
	case within(bytes, perParam(plan.ZeRO3), 1e-9):
		return wrong(label, "eso es ZeRO-3: en la etapa 2 cada GPU sigue guardando los pesos enteros.")
	case within(bytes, perParam(plan.NoShard), 1e-9):
		return wrong(label, "eso es DDP (etapa 0): la etapa 2 reparte el optimizador y los gradientes entre las %d GPUs.", n)
	}
	return wrong(label, "suma lo que cada GPU guarda entero y lo que se reparte entre las N = %d (la tabla de etapas de ZeRO).", n)
}

// The case of exercise 2 of notebook 10: a 7-billion-parameter model with
// BF16 weights and gradients, ZeRO-3 on 8 GPUs.
const nb10Params, nb10GPUs, nb10BytesPerParam = 7e9, 8, 2

// ZeRO3TrafficGB checks exercise 2 of notebook 10: the gigabytes each GPU
// sends in one ZeRO-3 step of the 7B model on 8 GPUs with ring
// collectives — two all-gathers of the weights (before forward and before
// backward) and one reduce-scatter of the gradients, costed with
// dl/dist/cost.
func ZeRO3TrafficGB(gb float64) Result {
	const label = "Ejercicio 2"
	l := cost.MustLink("NVLink 4.0") // the bytes sent do not depend on the link
	s := nb10Params * nb10BytesPerParam
	ag, rs := cost.RingAllGather(nb10GPUs, s, l).SentPerRank, cost.RingReduceScatter(nb10GPUs, s, l).SentPerRank
	want := (2*ag + rs) / 1e9
	ddp := cost.RingAllReduce(nb10GPUs, s, l).SentPerRank / 1e9
	switch {
	case gb == 0:
		return blank(label, "Escribe en gbPorGPU los GB que envía cada GPU en un paso.")
	case within(gb, want, 0.01):
		return correct(label, "%s GB por GPU y paso, 1,5 veces los %s GB de DDP.", decimal("%.2f", want), decimal("%.2f", ddp))
	case within(gb, want*1e9, 0.01):
		return wrong(label, "esa cifra está en bytes: la pregunta pide GB (10⁹ bytes).")
	case within(gb, ddp, 0.01):
		return wrong(label, "eso envía DDP (un all-reduce): ZeRO-3 hace dos all-gather de los pesos y un reduce-scatter de los gradientes.")
	case within(gb, 3*s/1e9, 0.01):
		return wrong(label, "en el anillo cada GPU no envía el buffer entero: en un all-gather o un reduce-scatter envía (N−1)/N de él.")
	case within(gb, want*2, 0.01):
		return wrong(label, "pesos y gradientes van en BF16: 2 bytes por parámetro, no 4.")
	}
	return wrong(label, "cuenta las colectivas de un paso de ZeRO-3 (cuáles y de cuántos bytes) y lo que envía cada GPU en cada una con el anillo (cuaderno 08).")
}

// Paper1F1B checks exercise 3 of notebook 10: the arXiv id of the paper in
// facts.Papers that introduced the 1F1B pipeline schedule.
func Paper1F1B(id string) Result {
	const label = "Ejercicio 3"
	var want facts.Paper
	for _, p := range facts.Papers() {
		if strings.HasPrefix(p.Introduced, "The 1F1B schedule") {
			want = p
		}
	}
	id = strings.TrimSpace(id)
	p, err := facts.PaperByArXiv(id)
	switch {
	case id == "":
		return blank(label, "Escribe en arxiv1F1B el id de arXiv del artículo; búscalo por «1F1B» en la columna «qué introdujo» de la tabla.")
	case err == nil && p.ArXiv == want.ArXiv:
		return correct(label, "%s (%s), %s.", p.Title, p.Venue, p.Source)
	case err == nil && strings.Contains(p.Introduced, "1F1B"):
		return wrong(label, "«%s» (%d) introdujo el 1F1B intercalado: el original es anterior.", p.Title, p.Year)
	case err == nil:
		return wrong(label, "«%s» introdujo otra cosa: busca «1F1B» en la columna «qué introdujo».", p.Title)
	case strings.HasPrefix(strings.ToLower(id), "arxiv"):
		return wrong(label, "escribe solo el número, como \"1910.02054\", sin «arXiv:».")
	}
	return wrong(label, "%q no es el id de ningún artículo de la lista: escríbelo como \"1910.02054\".", id)
}

// ZeROMemory checks exercise 4 of notebook 10: memory(psi, n, stage) must
// return the bytes of model states (weights, gradients and optimizer
// states, mixed-precision Adam) on each of n GPUs with ZeRO stage 0–3, as
// plan.ModelStates computes them (the ZeRO paper's 16Ψ, 4Ψ + 12Ψ/N,
// 2Ψ + 14Ψ/N and 16Ψ/N), on several models and GPU counts.
func ZeROMemory(memory func(psi float64, n, stage int) float64) Result {
	const label = "Ejercicio 4"
	if memory == nil {
		return blank(label, "Completa la función memoriaZeRO.")
	}
	// Ψ: the notebook's MLP 256→512→256, Llama 3 8B and 70B.
	psis := []float64{256*512 + 512 + 512*256 + 256, float64(plan.Llama3_8B.Params().Total), float64(plan.Llama3_70B.Params().Total)}
	type call struct {
		psi       float64
		n, stage  int
		got, want float64
	}
	var calls []call
	for _, psi := range psis {
		for _, n := range []int{1, 4, 8, 64} {
			for stage := range 4 {
				want := plan.ModelStates(psi, plan.MixedPrecisionAdam, plan.ZeROStage(stage), n).Total()
				c := call{psi: psi, n: n, stage: stage, want: want}
				if err := catch(func() { c.got = memory(psi, n, stage) }); err != nil {
					return wrong(label, "tu función entró en pánico con (%.0f, %d, %d): %v", psi, n, stage, err)
				}
				calls = append(calls, c)
			}
		}
	}
	zero, gb := true, true
	for _, c := range calls {
		zero = zero && c.got == 0
		gb = gb && within(c.got, c.want/1e9, 1e-9)
	}
	switch {
	case zero:
		return blank(label, "memoriaZeRO devuelve 0: escribe en ella los bytes por GPU de cada etapa.")
	case gb:
		return wrong(label, "tus cifras están en GB: la función devuelve bytes.")
	}
	for _, c := range calls {
		if within(c.got, c.want, 1e-9) {
			continue
		}
		hint := map[int]string{
			0: "en la etapa 0 (DDP) cada GPU guarda los 16 bytes por parámetro, sin repartir nada",
			1: "la etapa 1 reparte entre las N GPUs solo los estados del optimizador (12 bytes por parámetro)",
			2: "la etapa 2 reparte el optimizador y los gradientes (12 + 2 bytes), no los pesos",
			3: "la etapa 3 lo reparte todo: pesos, gradientes y optimizador",
		}[c.stage]
		return wrong(label, "memoriaZeRO(%.0f, %d, %d) = %s bytes y son %s: %s.", c.psi, c.n, c.stage, nb10Bytes(c.got), nb10Bytes(c.want), hint)
	}
	c := calls[len(calls)-1]
	return correct(label, "coincide con plan.ModelStates en %d casos; por ejemplo, Llama 3 70B con ZeRO-3 en %d GPUs: %s por GPU.",
		len(calls), c.n, decimal("%.1f GB", c.want/1e9))
}

// nb10Bytes writes a byte count rounded to a whole number, with dots
// between thousands (any value: a student's function may return NaN).
func nb10Bytes(b float64) string {
	if math.IsNaN(b) || math.Abs(b) > 1e18 {
		return fmt.Sprint(b)
	}
	return thousands(int(math.Round(b)))
}
