package exercises

import (
	"errors"
	"math"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/amp"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
)

// AMPStep is the training step a student writes in exercise 3 of
// notebook 07: one step of float16 mixed-precision training of model on
// the batch (x, y) with the optimizer and the loss scaler, returning the
// loss (unscaled), like the loop of torch.amp's documentation.
type AMPStep func(model nn.Module, x, y *dl.Tensor, opt optim.Optimizer, scaler *amp.GradScaler) float64

// nb07AMPSteps is how many steps AMPTrainingStep runs: with the scaler of
// nb07AMPRun the first two overflow and are skipped, the scale grows
// twice, and the step after the second growth overflows again.
const nb07AMPSteps = 10

// nb07AMPInitScale is the initial scale of nb07AMPRun's GradScaler, too
// large for the first steps.
const nb07AMPInitScale = 1 << 21

// nb07AMPResult is what a training run leaves: the weights, the losses
// the step returned, and the scaler's final state.
type nb07AMPResult struct {
	weights []float64
	losses  []float64
	scale   float64
	skipped int
}

// nb07AMPRun trains a small classifier (an MLP 8→32→4 on two batches of
// 64 samples, SGD with momentum) for nb07AMPSteps steps of step, with a
// GradScaler whose initial scale 2²¹ is too large: the scaled gradient of
// the float16 logits overflows, and the scaler must skip those steps while
// it halves the scale; after 3 clean steps in a row it doubles it.  Every
// run starts from the same weights and data.
func nb07AMPRun(step AMPStep) nb07AMPResult {
	gen := dl.NewGenerator(70)
	model := nn.NewMLP([]int{8, 32, 4}, nn.MLPConfig{InitConfig: nn.InitConfig{Generator: gen}})
	params := nn.Parameters(model)
	data := dl.Options{Generator: gen}
	var xs, ys []*dl.Tensor
	for range 2 {
		xs = append(xs, data.Randn(64, 8))
		labels := make([]int64, 64)
		for i := range labels {
			labels[i] = int64(gen.Uint64() % 4)
		}
		ys = append(ys, dl.FromSlice(labels))
	}
	opt := optim.NewSGD(params, optim.SGDConfig{LR: 0.1, Momentum: 0.9})
	scaler := amp.NewGradScaler(params, amp.GradScalerConfig{InitScale: nb07AMPInitScale, GrowthInterval: 3})
	var r nb07AMPResult
	for i := range nb07AMPSteps {
		r.losses = append(r.losses, step(model, xs[i%2], ys[i%2], opt, scaler))
	}
	for _, p := range params {
		r.weights = append(r.weights, p.Float64s()...)
	}
	r.scale, r.skipped = scaler.ScaleFactor(), scaler.SkippedSteps()
	return r
}

// nb07AMPVariant is the training step of torch.amp's documentation
// (mistake ""), or the step with one of the mistakes AMPTrainingStep
// recognises.
func nb07AMPVariant(mistake string) AMPStep {
	return func(model nn.Module, x, y *dl.Tensor, opt optim.Optimizer, scaler *amp.GradScaler) float64 {
		if mistake != "no ZeroGrad" {
			opt.ZeroGrad()
		}
		var loss *dl.Tensor
		forward := func() { loss = dl.CrossEntropy(model.Forward(x), y) }
		switch mistake {
		case "float32":
			forward()
		case "bfloat16":
			amp.Autocast(dl.BFloat16, forward)
		default:
			amp.Autocast(dl.Float16, forward)
		}
		if mistake == "unscaled backward" {
			loss.Backward()
		} else {
			scaler.Scale(loss).Backward()
		}
		scaler.Step(opt)
		scaler.Update()
		return loss.Item()
	}
}

// nb07AMPMistakes are the mistakes AMPTrainingStep recognises, each with
// its hint.
var nb07AMPMistakes = []struct{ mistake, hint string }{
	{"no ZeroGrad", "tus pesos son los de un bucle que no pone los gradientes a cero: Backward los suma a los del paso anterior. Empieza el paso con opt.ZeroGrad()."},
	{"float32", "tu forward se calcula en float32: en float32 la pérdida escalada no desborda y el GradScaler no salta ningún paso. Haz el forward y la pérdida dentro de amp.Autocast(dl.Float16, func() { … })."},
	{"bfloat16", "tu forward va en bfloat16, que tiene el rango de float32 y no desborda. El ejercicio es de float16: amp.Autocast(dl.Float16, …)."},
	{"unscaled backward", "llamas a Backward sobre la pérdida sin escalar: Step divide después los gradientes entre la escala y quedan diminutos. Usa scaler.Scale(loss).Backward()."},
}

// nb07Close reports whether two runs left the same weights (relative to
// the largest, 10⁻⁶), scale and skipped steps.
func nb07Close(a, b nb07AMPResult) bool {
	if a.scale != b.scale || a.skipped != b.skipped || len(a.weights) != len(b.weights) {
		return false
	}
	d, m := 0.0, 0.0
	for i := range a.weights {
		d, m = math.Max(d, math.Abs(a.weights[i]-b.weights[i])), math.Max(m, math.Abs(b.weights[i]))
	}
	return d <= 1e-6*m
}

// AMPTrainingStep checks exercise 3 of notebook 07: step, run for 10 steps
// on a small classifier with a GradScaler whose initial scale makes the
// first steps overflow, must leave the same weights, scale and skipped
// steps as the loop of torch.amp (opt.ZeroGrad; forward and loss under
// amp.Autocast(dl.Float16); scaler.Scale(loss).Backward();
// scaler.Step(opt); scaler.Update()) on the same data and seed, and
// return each step's unscaled loss.  A step that does nothing (the
// notebook's template, which returns 0) is the blank answer.
func AMPTrainingStep(step AMPStep) Result {
	const label = "Ejercicio 3"
	want := nb07AMPRun(nb07AMPVariant(""))
	var got nb07AMPResult
	if err := catch(func() { got = nb07AMPRun(step) }); err != nil {
		if errors.Is(err, amp.ErrState) {
			return wrong(label, "el GradScaler rechaza el orden de tus llamadas (%v). En cada paso: scaler.Scale(loss).Backward(), después scaler.Step(opt) (no opt.Step(): Step desescala y salta el paso si hay Inf) y al final scaler.Update(), una vez cada uno.", err)
		}
		return wrong(label, "tu función entró en pánico: %v", err)
	}
	untouched := got.skipped == 0 && got.scale == nb07AMPInitScale
	switch {
	case untouched && got.losses[0] == 0 && nb07Close(got, nb07AMPRun(func(nn.Module, *dl.Tensor, *dl.Tensor, optim.Optimizer, *amp.GradScaler) float64 { return 0 })):
		return blank(label, "Completa pasoAMP: ahora no hace nada y devuelve 0. Escribe el paso del bucle de la sección 2 (ZeroGrad, forward y pérdida en amp.Autocast(dl.Float16, …), scaler.Scale(loss).Backward(), scaler.Step(opt), scaler.Update()) y devuelve loss.Item().")
	case untouched:
		return wrong(label, "el GradScaler no ha saltado ningún paso ni cambiado su escala: ¿llamas a scaler.Step(opt) y a scaler.Update() en cada paso?")
	case nb07Close(got, want):
		return nb07AMPLosses(label, got, want)
	}
	for _, m := range nb07AMPMistakes {
		if nb07Close(got, nb07AMPRun(nb07AMPVariant(m.mistake))) {
			return wrong(label, "%s", m.hint)
		}
	}
	if got.skipped != want.skipped || got.scale != want.scale {
		return wrong(label, "tras %d pasos tu GradScaler saltó %d y tiene escala %.0f; el bucle de referencia salta %d y termina en %.0f. Revisa el orden: Scale(loss).Backward(), Step(opt), Update().",
			nb07AMPSteps, got.skipped, got.scale, want.skipped, want.scale)
	}
	return wrong(label, "el GradScaler se comporta como el de referencia, pero tus pesos finales son otros: ¿usas el modelo, los datos y el optimizador que recibe pasoAMP, con la pérdida dl.CrossEntropy(modelo.Forward(x), y)?")
}

// nb07AMPLosses checks the losses a step that trains right returned: the
// unscaled loss of each step.
func nb07AMPLosses(label string, got, want nb07AMPResult) Result {
	for i := range want.losses {
		switch g, w := got.losses[i], want.losses[i]; {
		case within(g, w, 1e-6):
			continue
		case g == 0:
			return wrong(label, "el entrenamiento es correcto, pero pasoAMP devuelve 0: devuelve la pérdida del paso, loss.Item().")
		case g > 1000*w:
			return wrong(label, "el entrenamiento es correcto, pero devuelves la pérdida escalada (multiplicada por la escala del GradScaler); devuelve loss.Item(), la de antes de scaler.Scale.")
		default:
			return wrong(label, "el entrenamiento es correcto, pero la pérdida que devuelves en el paso %d es %s y debería ser %s: devuelve loss.Item().", i+1, decimal("%g", g), decimal("%g", w))
		}
	}
	return correct(label, "los mismos pesos que el bucle de referencia tras %d pasos, de los que el GradScaler saltó %d por desbordamiento en float16 (escala inicial 2²¹, final %.0f).", nb07AMPSteps, want.skipped, want.scale)
}
