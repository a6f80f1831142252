// Package accum is gradient accumulation for dl: k micro-batches whose
// gradients add up to the gradient of one batch k times larger, using the
// activation memory of one micro-batch.
//
// # Overview
//
// Backward(tokens, weighting, loss) runs the forward and backward pass of
// each micro-batch with its loss weighted, so that the parameters' Grad
// ends as the gradient of the whole step; the caller then steps the
// optimizer.  Weights gives the factors, Tokens counts the targets that
// are not padding.  The course's loop
//
//	loss = loss / accumulation_steps; loss.backward()
//
// is the MicroBatchMean weighting; TokenMean (the default) is the one that
// equals the large batch when micro-batches hold different numbers of
// tokens.
//
// # Errors
//
// Weights and Backward panic on negative token counts, on a step with no
// tokens and on an unknown Weighting: they are programming errors.
//
// # Concepts
//
// Course: "Prácticas de eficiencia computacional" (gradient accumulation:
// "Effective batch size = 32 × 4 = 128, usando memoria de batch=32").
//
// Why it is exact.  The gradient is linear: ∇(Σᵢ wᵢLᵢ) = Σᵢ wᵢ∇Lᵢ, and
// Backward adds into Grad, so accumulating k backward passes of wᵢLᵢ gives
// the gradient of Σᵢ wᵢLᵢ.  With a mean loss over N = Σnᵢ tokens, L =
// (1/N)Σ_tokens ℓ = Σᵢ (nᵢ/N)·Lᵢ where Lᵢ is micro-batch i's mean: the
// weights are nᵢ/N.  Dividing every Lᵢ by k instead computes
// (1/k)Σᵢ Lᵢ, the mean of the means, which weights a token of a short
// micro-batch more than one of a long micro-batch.  Language-model
// batches are padded (targets −100 are ignored), so their micro-batches
// hold different token counts: this is the bug found in Hugging Face
// transformers' Trainer in October 2024 ("Fixing Gradient Accumulation",
// huggingface.co/blog/gradient_accumulation), fixed by passing the step's
// total token count to the loss.  TestUnequalMicroBatches reproduces it.
//
// What it does not change.  Batch-dependent layers (batch norm) see
// micro-batches, not the large batch; dl has none.  Dropout draws new
// masks per micro-batch, as one large batch would draw different ones.
package accum
