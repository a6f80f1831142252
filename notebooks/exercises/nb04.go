package exercises

import (
	"math"

	"github.com/dlbd/dlbd/dl/plan"
	"github.com/dlbd/dlbd/facts"
)

// Checkers of 04-centros-de-datos.ipynb.

// nb04Gradients is the gradient of the notebook's all-reduce: 70·10⁹
// parameters in BF16 (2 bytes each).
const nb04Gradients = 140e9

// nb04RingSeconds is the lower bound of a ring all-reduce of s bytes
// among n GPUs over links of bytesPerSec per direction: 2(n−1)/n · S/B.
func nb04RingSeconds(n int, s, bytesPerSec float64) float64 {
	return 2 * float64(n-1) / float64(n) * s / bytesPerSec
}

// nb04Bandwidth returns the bytes per second per direction of the
// interconnect row name selects.
func nb04Bandwidth(name string) float64 {
	ic, err := facts.InterconnectByName(name)
	if err != nil {
		panic(err)
	}
	return ic.GBsPerDirection * 1e9
}

// AllReduce64Seconds checks exercise 1 of notebook 04: the seconds of the
// ring all-reduce of 140 GB of gradients among 64 GPUs over InfiniBand
// NDR (2(n−1)/n · S/B, within 1 %).  0 is the blank answer.
func AllReduce64Seconds(seconds float64) Result {
	const label = "Ejercicio 1"
	b := nb04Bandwidth("InfiniBand NDR")
	want := nb04RingSeconds(64, nb04Gradients, b)
	switch {
	case seconds == 0:
		return blank(label, "Escribe en segundos64 los segundos del all-reduce de 140 GB entre 64 GPUs por InfiniBand NDR, con la fórmula t = 2(n−1)/n · S/B de la sección de redes.")
	case within(seconds, want, 0.01):
		return correct(label, "%s s: en anillo, el tiempo casi no depende del número de GPUs (con 8 eran %s s).", decimal("%.2f", want), decimal("%.2f", nb04RingSeconds(8, nb04Gradients, b)))
	case within(seconds, nb04RingSeconds(8, nb04Gradients, b), 0.01):
		return wrong(label, "ese es el tiempo con n = 8, el de la celda de la red; el ejercicio pide n = 64 GPUs.")
	case within(seconds, 2*nb04Gradients/b, 0.01):
		return wrong(label, "casi: has usado 2·S/B, el límite cuando n es muy grande. Con n = 64 falta el factor (n−1)/n = 63/64.")
	case within(seconds, want/2, 0.01):
		return wrong(label, "en anillo cada GPU envía y recibe 2(n−1)/n·S bytes: la mitad en el reduce-scatter y la otra mitad en el all-gather. ¿Olvidaste el 2?")
	case within(seconds, want*8, 0.01):
		return wrong(label, "B va en bytes por segundo: los %s GB/s por sentido de interconnects.csv, no los Gb/s de la velocidad de línea (8 bits por byte).", decimal("%g", b/1e9))
	}
	return wrong(label, "con n = 64, S = 140·10⁹ bytes y B = ancho de banda por sentido de InfiniBand NDR en bytes/s (enlace(\"InfiniBand NDR\").GBsPerDirection × 10⁹), t = 2(n−1)/n · S/B; tu respuesta es %s s.", decimal("%g", seconds))
}

// TPU7xChips checks exercise 2 of notebook 04: the fewest TPU7x that hold
// the model states of Llama 3 70B trained with Adam in mixed precision,
// 16 bytes per parameter (rounded up).  0 is the blank answer.
func TPU7xChips(chips int) Result {
	const label = "Ejercicio 2"
	tpu, err := facts.AcceleratorByName("TPU7x")
	if err != nil {
		panic(err)
	}
	params := float64(plan.Llama3_70B.Params().Total)
	perChip := tpu.MemoryGB * 1e9
	need := func(bytesPerParam float64) int { return int(math.Ceil(bytesPerParam * params / perChip)) }
	want := need(16)
	switch {
	case chips == 0:
		return blank(label, "Escribe en chipsTPU7x el número de TPU7x: 16 bytes por parámetro (plan.Llama3_70B.Params().Total) entre la memoria de una TPU7x (acelerador(\"TPU7x\").MemoryGB, en GB).")
	case chips == want:
		h100, err := facts.AcceleratorByName("H100")
		if err != nil {
			panic(err)
		}
		return correct(label, "%d TPU7x, frente a %.0f H100: solo los estados del modelo, sin activaciones.", want, math.Ceil(16*params/(h100.MemoryGB*1e9)))
	case chips == want-1 && float64(chips) == math.Floor(16*params/perChip):
		return wrong(label, "¿redondeaste hacia abajo? Con %d chips faltaría memoria para una parte de los estados: redondea hacia arriba.", chips)
	case chips == need(2):
		return wrong(label, "eso cabe solo con los pesos en BF16 (2 bytes por parámetro, la celda de los chips de SRAM). Con Adam en precisión mixta son 16 bytes por parámetro.")
	}
	return wrong(label, "los estados ocupan 16 bytes por cada parámetro de plan.Llama3_70B; divide entre los %s GB de una TPU7x (en bytes, ×10⁹) y redondea hacia arriba. Tu respuesta es %d.", decimal("%g", tpu.MemoryGB), chips)
}
