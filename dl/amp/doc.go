// Package amp is automatic mixed precision for dl: an Autocast scope that
// runs matrix products in float16 or bfloat16 with float32 accumulation
// while keeping float32 master weights, and a GradScaler that keeps
// float16's small gradients from flushing to zero.
//
// # Overview
//
// The training loop of the course, in Go:
//
//	amp.Autocast(dl.Float16, func() { loss = dl.CrossEntropy(model.Forward(x), y) })
//	scaler.Scale(loss).Backward()
//	scaler.Step(opt); scaler.Update()
//
// Autocast is a goroutine-local scope that dl's ops consult; the op lists
// it applies are dl.AutocastOps(): products in the half dtype; softmax,
// log-softmax, layer norm, sums and means, exp, log, pow and the losses in
// float32; mixed-dtype Add/Sub/Mul/Div promoted.  GradScaler has
// torch.amp.GradScaler's semantics and defaults (initial scale 2¹⁶,
// growth ×2 after 2000 clean steps, backoff ×0.5 and a skipped step on
// Inf/NaN).  FlushedToZero counts the values a dtype rounds to zero.
//
// # Errors
//
// Autocast panics with a *dl.DTypeError for a dtype that is not half.
// GradScaler methods called out of order (Unscale twice before Update,
// Step twice, Update before Step) panic with a *StateError (errors.Is
// ErrState) naming the right order, and NewGradScaler with a factor out
// of range panics with a *ConfigError (errors.Is ErrConfig): the calling
// code is wrong.
//
// # Concepts
//
// Course: "Prácticas de eficiencia computacional" (A nivel de usuario:
// autocast and GradScaler, "~2× más rápido, ~50% menos memoria").
// Paper: Micikevicius et al. 2018, Mixed Precision Training
// (arXiv:1710.03740).
//
// Why three ingredients.  float16 has 10 mantissa bits and 5 exponent
// bits: its largest value is 65504 and its smallest subnormal 2⁻²⁴ ≈
// 6·10⁻⁸.  (1) Products of float16 inputs are accumulated in float32
// (tensor cores, and dl's kernels, do this), since a long float16 sum
// loses the small addends.  (2) Weights are kept in float32 and cast for
// each forward pass: an update lr·g is often below half a float16 ulp of
// the weight and would vanish.  (3) Activation gradients are often below
// 2⁻²⁴; scaling the loss by S multiplies every gradient by S (the chain
// rule is linear), and the float32 gradients are divided by S before the
// step.  bfloat16 has float32's 8-bit exponent (range to 3·10³⁸, smallest
// subnormal ≈ 9·10⁻⁴¹) with 7 mantissa bits, so it needs (1) and (2) but
// not (3).
//
// Memory.  Under autocast every activation is 2 bytes instead of 4, so the
// activations saved for backward take half the memory (measured by
// TestAutocastHalvesActivations with the device accounting); autocast
// adds a 2-byte copy of each weight (kept by the graph, as in torch).
// Speed on this course's CPUs comes from moving half the bytes; the ~2×
// of the course is a GPU figure (tensor cores).
package amp
