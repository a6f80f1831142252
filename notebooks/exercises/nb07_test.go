package exercises

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/amp"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
)

func TestCheckpointSegments(t *testing.T) {
	nb04CheckCases(t, []nb04Case{
		{name: "right", result: CheckpointSegments(10), ok: true, note: "10 segmentos: un pico de 19 activaciones"},
		{name: "wrong/one per layer", result: CheckpointSegments(100), note: "lo mismo que sin checkpointing"},
		{name: "wrong/one", result: CheckpointSegments(1), note: "lo mismo que sin checkpointing"},
		{name: "wrong/near", result: CheckpointSegments(8), note: "con s = 8 el pico es 19,5"},
		{name: "wrong/out of range", result: CheckpointSegments(-3), note: "de 1"},
		{name: "blank", result: CheckpointSegments(0), blank: true, note: "segmentos100"},
	})
}

func TestGradScalerFinalScale(t *testing.T) {
	// The reference solution: 65536 / 2⁴ = 4096, then ×2 at clean steps
	// 2000 and 4000.
	nb04CheckCases(t, []nb04Case{
		{name: "right", result: GradScalerFinalScale(16384), ok: true, note: "16384"},
		{name: "wrong/the example above", result: GradScalerFinalScale(32768), note: "ejemplo de la sección 2"},
		{name: "wrong/no growth", result: GradScalerFinalScale(4096), note: "se multiplica por 2"},
		{name: "wrong/no backoff", result: GradScalerFinalScale(262144), note: "divide la escala entre 2"},
		{name: "wrong/2.5 growths", result: GradScalerFinalScale(4096 * 5.656854249492381), note: "no 2,5"},
		{name: "wrong/other", result: GradScalerFinalScale(1000), note: "Tu respuesta es 1000"},
		{name: "blank", result: GradScalerFinalScale(0), blank: true, note: "escalaFinal"},
	})
}

// pasoAMP is the reference solution of exercise 3 of notebook 07, as a
// student writes it in the notebook.
func pasoAMP(modelo nn.Module, x, y *dl.Tensor, opt optim.Optimizer, scaler *amp.GradScaler) float64 {
	opt.ZeroGrad()
	var loss *dl.Tensor
	amp.Autocast(dl.Float16, func() {
		loss = dl.CrossEntropy(modelo.Forward(x), y)
	})
	scaler.Scale(loss).Backward()
	scaler.Step(opt)
	scaler.Update()
	return loss.Item()
}

// The run AMPTrainingStep compares overflows and grows: the exercise
// checks a skipped step.
func TestNB07AMPRunSkipsAndGrows(t *testing.T) {
	r := nb07AMPRun(pasoAMP)
	if r.skipped == 0 || r.skipped == nb07AMPSteps || r.scale <= nb07AMPInitScale/float64(int(1)<<r.skipped) {
		t.Errorf("reference run: %d of %d steps skipped, final scale %g; want some skipped and the scale grown after them", r.skipped, nb07AMPSteps, r.scale)
	}
	if again := nb07AMPRun(pasoAMP); !nb07Close(r, again) {
		t.Error("two runs of the same step differ")
	}
}

func TestAMPTrainingStep(t *testing.T) {
	variant := nb07AMPVariant
	nb04CheckCases(t, []nb04Case{
		{name: "right", result: AMPTrainingStep(pasoAMP), ok: true, note: "los mismos pesos"},
		{name: "right/ZeroGrad at the end", result: AMPTrainingStep(func(m nn.Module, x, y *dl.Tensor, opt optim.Optimizer, s *amp.GradScaler) float64 {
			var loss *dl.Tensor
			amp.Autocast(dl.Float16, func() { loss = dl.CrossEntropy(m.Forward(x), y) })
			s.Scale(loss).Backward()
			s.Step(opt)
			s.Update()
			nn.ZeroGrad(m)
			return loss.Item()
		}), ok: true},
		{name: "wrong/no ZeroGrad", result: AMPTrainingStep(variant("no ZeroGrad")), note: "opt.ZeroGrad()"},
		{name: "wrong/float32", result: AMPTrainingStep(variant("float32")), note: "en float32"},
		{name: "wrong/bfloat16", result: AMPTrainingStep(variant("bfloat16")), note: "bfloat16"},
		{name: "wrong/unscaled backward", result: AMPTrainingStep(variant("unscaled backward")), note: "scaler.Scale(loss).Backward()"},
		{name: "wrong/opt.Step", result: AMPTrainingStep(func(m nn.Module, x, y *dl.Tensor, opt optim.Optimizer, s *amp.GradScaler) float64 {
			opt.ZeroGrad()
			var loss *dl.Tensor
			amp.Autocast(dl.Float16, func() { loss = dl.CrossEntropy(m.Forward(x), y) })
			s.Scale(loss).Backward()
			opt.Step()
			s.Update()
			return loss.Item()
		}), note: "rechaza el orden"},
		{name: "wrong/no Step or Update", result: AMPTrainingStep(func(m nn.Module, x, y *dl.Tensor, opt optim.Optimizer, s *amp.GradScaler) float64 {
			var loss *dl.Tensor
			amp.Autocast(dl.Float16, func() { loss = dl.CrossEntropy(m.Forward(x), y) })
			return loss.Item()
		}), note: "¿llamas a scaler.Step(opt)"},
		{name: "wrong/scaled loss returned", result: AMPTrainingStep(func(m nn.Module, x, y *dl.Tensor, opt optim.Optimizer, s *amp.GradScaler) float64 {
			opt.ZeroGrad()
			var loss *dl.Tensor
			amp.Autocast(dl.Float16, func() { loss = dl.CrossEntropy(m.Forward(x), y) })
			scaled := s.Scale(loss)
			scaled.Backward()
			s.Step(opt)
			s.Update()
			return scaled.Item()
		}), note: "pérdida escalada"},
		{name: "wrong/no loss returned", result: AMPTrainingStep(func(m nn.Module, x, y *dl.Tensor, opt optim.Optimizer, s *amp.GradScaler) float64 {
			pasoAMP(m, x, y, opt, s)
			return 0
		}), note: "devuelve 0"},
		{name: "wrong/panic", result: AMPTrainingStep(func(m nn.Module, x, y *dl.Tensor, opt optim.Optimizer, s *amp.GradScaler) float64 {
			return m.Forward(y).Item()
		}), note: "entró en pánico"},
		{name: "blank", result: AMPTrainingStep(func(nn.Module, *dl.Tensor, *dl.Tensor, optim.Optimizer, *amp.GradScaler) float64 { return 0 }),
			blank: true, note: "Completa pasoAMP"},
	})
}

func TestInterruptionHours(t *testing.T) {
	right := 54 * 24 / 419.0 // the reference solution
	nb04CheckCases(t, []nb04Case{
		{name: "right", result: InterruptionHours(right), ok: true, note: "3,1 horas"},
		{name: "wrong/days", result: InterruptionHours(54 / 419.0), note: "días"},
		{name: "wrong/inverse", result: InterruptionHours(1 / right), note: "interrupciones por hora"},
		{name: "wrong/other", result: InterruptionHours(10), note: "Tu respuesta es 10"},
		{name: "blank", result: InterruptionHours(0), blank: true, note: "horasEntreFallos"},
	})
}

func TestGPUHoursMillions(t *testing.T) {
	right := 3.8e25 / (989.4e12 * 0.40) / 3600 / 1e6 // the reference solution, H100 BF16 dense peak
	nb04CheckCases(t, []nb04Case{
		{name: "right", result: GPUHoursMillions(right), ok: true, note: "26,7 M GPU-horas"},
		{name: "wrong/hours", result: GPUHoursMillions(right * 1e6), note: "millones"},
		{name: "wrong/peak", result: GPUHoursMillions(right * 0.4), note: "100 % del pico"},
		{name: "wrong/times MFU", result: GPUHoursMillions(right * 0.16), note: "has multiplicado por el MFU"},
		{name: "wrong/seconds", result: GPUHoursMillions(right * 3600), note: "GPU-segundos"},
		{name: "wrong/other", result: GPUHoursMillions(1), note: "Tu respuesta es 1"},
		{name: "blank", result: GPUHoursMillions(0), blank: true, note: "millonesGPUHoras"},
	})
}

func ExampleAMPTrainingStep() {
	fmt.Println(AMPTrainingStep(func(nn.Module, *dl.Tensor, *dl.Tensor, optim.Optimizer, *amp.GradScaler) float64 { return 0 }).Blank)
	fmt.Println(AMPTrainingStep(pasoAMP).OK)
	// Output:
	// true
	// true
}
