package exercises

import (
	"strings"

	"github.com/dlbd/dlbd/dl/plan"
	"github.com/dlbd/dlbd/facts"
)

// GPUsFor30Days checks the exercise of 03-datasets-y-compute: how many H100s
// would train Llama 3 70B in 30 days, given its GPU-hours in Meta's model card
// (facts.Clusters). An answer is right when plan.DaysOn gives 30 days within
// 5 %. A blank answer is 0.
func GPUsFor30Days(gpus int) Result {
	const label = "Ejercicio"
	if gpus == 0 {
		return blank(label, "Escribe en gpusNecesarias cuántas H100 harían falta para los 6,4 millones de GPU-horas de Llama 3 70B en 30 días.")
	}
	gpuHours := nb03Llama3GPUHours()
	if gpus < 0 {
		return wrong(label, "el número de GPUs no puede ser negativo.")
	}
	days := plan.DaysOn(gpuHours, gpus)
	switch {
	case within(days, 30, 0.05):
		return correct(label, "con %s GPUs, %s GPU-horas son %s días.", thousands(gpus), thousands(int(gpuHours)), decimal("%.1f", days))
	case within(float64(gpus), gpuHours/30, 0.05):
		return wrong(label, "has dividido entre 30 días, pero las GPU-horas cuentan horas: cada día tiene 24.")
	case gpus == 2048:
		return wrong(label, "2.048 es la cifra del curso, y con ellas harían falta %s días, no 30.", decimal("%.0f", days))
	case within(float64(gpus), gpuHours/(24*365.25), 0.05):
		return wrong(label, "eso son los años que tardaría una sola GPU; la pregunta pide GPUs en paralelo durante 30 días.")
	}
	return wrong(label, "con %s GPUs harían falta %s días, no 30: GPU-horas ÷ (días × 24 horas).", thousands(gpus), decimal("%.1f", days))
}

// nb03Llama3GPUHours returns the GPU-hours of Llama 3 70B in Meta's model card
// (0 if facts lacks them: the test checks that it has them).
func nb03Llama3GPUHours() float64 {
	for _, c := range facts.Clusters() {
		if strings.HasPrefix(c.Entity, "Llama 3 (Apr 2024) model card") && c.Attribute == "GPU-hours, Llama 3 70B" {
			return c.ValueNum
		}
	}
	return 0
}
