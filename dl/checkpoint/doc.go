// Package checkpoint is gradient checkpointing (activation
// recomputation) for dl: trade one extra forward pass for the memory of
// the activations, like torch.utils.checkpoint.
//
// # Overview
//
// Checkpoint(fn, inputs...) runs fn without keeping its intermediate
// activations and recomputes them during backward; CheckpointModule does
// the same for an nn.Module; CheckpointSequential(modules, segments, x)
// splits a chain of modules into segments and checkpoints all but the
// last, like torch.utils.checkpoint.checkpoint_sequential.  The course's
// snippet
//
//	x = checkpoint(self.block1, x, use_reentrant=False)
//
// is x = checkpoint.CheckpointModule(block1, x) in Go.
//
// # Errors
//
// CheckpointSequential panics if segments is outside [1, len(modules)].
// Errors of the ops inside fn panic as they do outside it (in backward,
// from the recomputation).
//
// # Concepts
//
// Course: "Prácticas de eficiencia computacional" (gradient
// checkpointing; model.gradient_checkpointing_enable() in Hugging Face).
// Paper: Chen et al. 2016, Training Deep Nets with Sublinear Memory Cost
// (arXiv:1604.06174).
//
// Memory.  Backward needs every layer's activation, so a plain step of an
// n-layer network holds n of them at its peak.  Checkpointing s segments
// keeps only the s−1 segment inputs during the forward pass; backward
// recomputes one segment (n/s activations) at a time.  The peak,
// s + n/s activations, is smallest at s = √n: 2√n instead of n.  On a
// 64-layer MLP the test measures 66.5 activations plain and 18.5 with 8
// segments (TestCheckpointSequentialMemory, with the device accounting).
//
// Compute.  Each checkpointed layer runs forward twice: with √n segments,
// n(1 − 1/√n) extra layer forwards, about one extra forward pass (a third
// more work for a step whose backward costs twice its forward).
//
// Randomness.  Dropout must draw the same mask when recomputed:
// Checkpoint saves the generators' states before the forward pass and
// rewinds them for the recomputation (torch preserve_rng_state), then
// puts them back, so code after backward sees the same random numbers
// as without checkpointing.  Autocast and fusion are replayed too.
//
// Reentrant design.  The recomputation calls Backward on its own small
// graph inside the outer Backward (torch's use_reentrant=True scheme).
// Parameters are not inputs of fn, so when no input requires grad (the
// first segment sees data) a 4-byte leaf that does is added, or the
// segment's parameters would get no gradient — the pitfall torch's
// reentrant checkpoint warns about.
package checkpoint
