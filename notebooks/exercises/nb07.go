package exercises

import (
	"math"
	"strings"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/amp"
	"github.com/dlbd/dlbd/dl/optim"
	"github.com/dlbd/dlbd/dl/plan"
	"github.com/dlbd/dlbd/facts"
)

// Checkers of 07-practicas-de-eficiencia.ipynb (the mixed-precision
// training step of exercise 3 is in nb07_amp.go).

// nb07Peak is the activation peak of CheckpointSequential on n layers
// with s segments, in activations: the s−1 segment inputs kept plus the
// n/s activations of the segment being recomputed.
func nb07Peak(n, s int) float64 { return float64(s-1) + float64(n)/float64(s) }

// CheckpointSegments checks exercise 1 of notebook 07: the number of
// segments that minimises the activation peak s − 1 + 100/s of a 100-layer
// model under CheckpointSequential.  0 is the blank answer.
func CheckpointSegments(segments int) Result {
	const label, layers = "Ejercicio 1", 100
	best := 1
	for s := 2; s <= layers; s++ {
		if nb07Peak(layers, s) < nb07Peak(layers, best) {
			best = s
		}
	}
	switch {
	case segments == 0:
		return blank(label, "Escribe en segmentos100 el número de segmentos s que hace mínimo el pico s − 1 + 100/s.")
	case segments == best:
		return correct(label, "%d segmentos: un pico de %s activaciones en lugar de %d.", best, decimal("%g", nb07Peak(layers, best)), layers)
	case segments < 0 || segments > layers:
		return wrong(label, "s va de 1 (un solo segmento, sin recalcular nada) a %d (uno por capa); tu respuesta es %d.", layers, segments)
	case segments == 1 || segments == layers:
		return wrong(label, "con s = %d el pico es %s activaciones, lo mismo que sin checkpointing. El mínimo está en medio: s − 1 crece con s y 100/s decrece.", segments, decimal("%g", nb07Peak(layers, segments)))
	}
	return wrong(label, "con s = %d el pico es %s activaciones. El mínimo está donde se equilibran los dos sumandos, s y 100/s: prueba valores a los dos lados.", segments, decimal("%.1f", nb07Peak(layers, segments)))
}

// nb07Scaler is exercise 2's sequence of steps: overflows, then clean
// steps.
const nb07Overflows, nb07Clean = 4, 5000

// nb07FinalScale runs a GradScaler with torch's defaults through
// overflows steps whose gradients are Inf and then clean steps of finite
// gradients, and returns its final scale.
func nb07FinalScale(overflows, clean int) float64 {
	p := dl.Ones(1).SetRequiresGrad(true)
	s := amp.NewGradScaler([]*dl.Tensor{p}, amp.GradScalerConfig{})
	opt := optim.NewSGD([]*dl.Tensor{p}, optim.SGDConfig{})
	for i := range overflows + clean {
		g := 1e-6
		if i < overflows {
			g = math.Inf(1)
		}
		p.SetGrad(dl.Full(g, 1))
		s.Step(opt)
		s.Update()
	}
	return s.ScaleFactor()
}

// GradScalerFinalScale checks exercise 2 of notebook 07: the scale of a
// GradScaler with the default settings (65536, ×0,5 per overflow, ×2
// after 2000 clean steps) after 4 overflowing steps and 5000 clean ones,
// as amp.GradScaler computes it.  0 is the blank answer.
func GradScalerFinalScale(scale float64) Result {
	const label = "Ejercicio 2"
	want := nb07FinalScale(nb07Overflows, nb07Clean)
	down := 65536 / math.Pow(2, nb07Overflows)
	switch scale {
	case 0:
		return blank(label, "Escribe en escalaFinal la escala del GradScaler tras %d pasos con desbordamiento seguidos y %d pasos limpios.", nb07Overflows, nb07Clean)
	case want:
		return correct(label, "%.0f: %d desbordamientos la bajan a %.0f y cada bloque completo de 2000 pasos limpios la duplica.", want, nb07Overflows, down)
	case nb07FinalScale(2, 2000):
		return wrong(label, "%.0f es la escala del ejemplo de la sección 2 (2 desbordamientos y 2000 pasos limpios); aquí son %d y %d.", scale, nb07Overflows, nb07Clean)
	case down:
		return wrong(label, "tras 2000 pasos limpios seguidos la escala se multiplica por 2, y aquí hay %d pasos limpios.", nb07Clean)
	case 65536 * math.Pow(2, nb07Clean/2000):
		return wrong(label, "cada paso con desbordamiento divide la escala entre 2 (y salta el paso) antes de los pasos limpios.")
	}
	if within(scale, down*math.Pow(2, float64(nb07Clean)/2000), 1e-3) {
		return wrong(label, "la escala crece a saltos, solo cuando se completan 2000 pasos limpios seguidos: %d pasos son %d saltos, no %s.", nb07Clean, nb07Clean/2000, decimal("%g", float64(nb07Clean)/2000))
	}
	return wrong(label, "cuenta por separado: cada desbordamiento divide entre 2, y cada bloque completo de 2000 pasos limpios multiplica por 2. Tu respuesta es %s.", decimal("%g", scale))
}

// nb07Fact returns the value of the row of clusters.csv whose entity
// starts with entity and whose attribute is attribute.
func nb07Fact(entity, attribute string) float64 {
	for _, c := range facts.Clusters() {
		if strings.HasPrefix(c.Entity, entity) && c.Attribute == attribute {
			return c.ValueNum
		}
	}
	panic("exercises: no row " + entity + " / " + attribute + " in clusters.csv")
}

// InterruptionHours checks exercise 4 of notebook 07: the mean hours
// between the unexpected interruptions of Llama 3.1 405B's 54-day
// snapshot (419 of them, clusters.csv), within 5 %.  0 is the blank
// answer.
func InterruptionHours(hours float64) Result {
	const label, run = "Ejercicio 4", "Llama 3.1 405B training run"
	days := nb07Fact(run, "snapshot of pre-training (interruptions)")
	n := nb07Fact(run, "unexpected interruptions in the snapshot")
	want := days * 24 / n
	switch {
	case hours == 0:
		return blank(label, "Escribe en horasEntreFallos las horas que pasan, de media, entre dos interrupciones del entrenamiento.")
	case within(hours, want, 0.05):
		return correct(label, "%s horas: a esta escala los fallos son rutina.", decimal("%.1f", want))
	case within(hours, days/n, 0.05):
		return wrong(label, "eso son días entre interrupciones; la respuesta va en horas.")
	case within(hours, n/(days*24), 0.05):
		return wrong(label, "eso son interrupciones por hora; el ejercicio pide lo inverso, horas por interrupción.")
	}
	return wrong(label, "divide las horas del periodo entre el número de interrupciones. Tu respuesta es %s.", decimal("%g", hours))
}

// GPUHoursMillions checks exercise 5 of notebook 07: the millions of H100
// GPU-hours of a 3,8·10²⁵-FLOP training at 40 % MFU, plan.GPUHoursFor
// (within 5 %).  0 is the blank answer.
func GPUHoursMillions(millions float64) Result {
	const label, flops, mfu = "Ejercicio 5", 3.8e25, 0.40
	h100, err := facts.AcceleratorByName("H100")
	if err != nil {
		panic(err)
	}
	want := plan.GPUHoursFor(flops, h100, mfu) / 1e6
	switch {
	case millions == 0:
		return blank(label, "Escribe en millonesGPUHoras los millones de GPU-horas de H100 para 3,8·10²⁵ FLOPs a un MFU del 40 %%.")
	case within(millions, want, 0.05):
		return correct(label, "%s M GPU-horas.", decimal("%.1f", want))
	case within(millions, want*1e6, 0.05):
		return wrong(label, "eso son GPU-horas; la respuesta va en millones (divide entre 10⁶).")
	case within(millions, want*mfu, 0.05):
		return wrong(label, "eso sería al 100 %% del pico: con un MFU del 40 %% solo se aprovecha esa fracción, así que hacen falta más horas (divide entre el MFU).")
	case within(millions, want*mfu*mfu, 0.05):
		return wrong(label, "has multiplicado por el MFU; hay que dividir: con un 40 %% del pico hacen falta más horas, no menos.")
	case within(millions, want*3600, 0.05):
		return wrong(label, "eso son GPU-segundos: divide entre 3600 para tener horas.")
	}
	return wrong(label, "FLOPs entre (pico BF16 de la H100 × MFU) da segundos de una GPU; plan.GPUHoursFor(flops, h100(), mfu) hace la cuenta. Tu respuesta es %s.", decimal("%g", millions))
}
