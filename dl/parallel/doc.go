// Package parallel trains one model on several devices at once: data
// parallelism (DDP), sharded data parallelism (ZeRO stages 1–3 and PyTorch
// FSDP's strategies), tensor parallelism (Megatron-LM's column- and
// row-parallel layers), pipeline parallelism (GPipe and 1F1B schedules) and
// their combination on a DP × TP × PP grid. Every algorithm really runs:
// ranks are goroutines of package dl/dist, each bound to its own device
// (dl.Sim(rank) by default), and the collectives they call are recorded, so
// tests and notebooks count the bytes and the steps.
//
// # Overview
//
// Read the files in this order (naive first):
//
//   - ddp_naive.go: NaiveDDP, one all-reduce per gradient after backward.
//     Not used in practice; read this first.
//   - ddp_bucket.go, ddp.go: DDP, PyTorch's algorithm: gradients live in
//     buckets (25 MiB, reverse parameter order) that are all-reduced in the
//     background as soon as backward has finished them; NoSync for
//     gradient accumulation.
//   - zero.go, zero_flat.go, zero_step.go, zero3.go, fsdp.go: ZeRO and
//     FSDP: optimizer states, then gradients, then parameters sharded over
//     the data-parallel ranks; all-gather before forward and backward,
//     reduce-scatter of gradients.
//   - tp_comm.go, tp_linear.go, tp_block.go: tensor parallelism, with the
//     conjugate operators f and g of the Megatron-LM paper.
//   - pp_comm.go, pp_schedule.go, pp_gpipe.go, pp_1f1b.go, pp_timeline.go:
//     pipeline parallelism with micro-batches, executed by stage goroutines
//     that send activations forward and gradients backward.
//   - grid3d.go: all three on one grid.
//
// A training step with DDP looks like PyTorch's:
//
//	ddp, err := parallel.NewDDP(model, r, parallel.DDPConfig{})
//	loss := dl.MSE(ddp.Forward(x), y)
//	loss.Backward() // buckets are all-reduced during backward
//	opt.Step()
//
// # Errors
//
// Constructors and methods that run collectives return errors wrapping the
// dl/dist error (an aborted group, a mismatched collective). Work that runs
// inside Backward — DDP's bucket all-reduces, ZeRO's reduce-scatters, the
// backward collectives of tensor and pipeline parallelism — cannot return an
// error, so a failed collective there panics with an error (wrapping the
// dist error) that names the rank and the step; inside dist.Run that panic
// aborts the group and Run reports it as a *dist.RankError. Misuse (a model
// on the wrong device, sizes that do not divide) panics with *dl.ShapeError
// or *dl.DeviceError, like any tensor op, or returns an error from the
// constructor where it is a configuration; a model the tensor-parallel
// constructors cannot split (dropout in a block, an MLP of another form)
// panics with a *ModelError (errors.Is ErrModel).
//
// # Concepts
//
// Data parallelism replicates the model and splits the batch: every rank
// computes the gradient of its share, and the all-reduce (mean) of those
// gradients is the gradient of the whole batch, so N ranks with batch B
// train exactly like one device with batch N·B (the tests check it in
// float64). Sharding (ZeRO) removes the replication of the model states:
// with mixed-precision Adam a replica holds 16Ψ bytes for Ψ parameters,
// and stages 1, 2, 3 bring that to 4Ψ + 12Ψ/N, 2Ψ + 14Ψ/N and 16Ψ/N (the
// tests measure them with the devices' memory accounting). Tensor
// parallelism splits each matrix (2 all-reduces forward and 2 backward per
// Transformer block); pipeline parallelism splits the layers into stages
// and pays a bubble of (p−1)/(m+p−1) of the time.
//
// Course: "¿Por qué entrenamiento distribuido?", "Data Parallelism (DP)",
// "Model Parallelism", "Tensor Parallelism (TP)", "Pipeline Parallelism
// (PP)", "3D Parallelism y FSDP", "¿Cuándo usar qué técnica?".
// Paper: Li et al. 2020, PyTorch Distributed (arXiv:2006.15704); Rajbhandari
// et al. 2020, ZeRO (arXiv:1910.02054); Shoeybi et al. 2019, Megatron-LM
// (arXiv:1909.08053); Huang et al. 2019, GPipe (arXiv:1811.06965);
// Narayanan et al. 2021, Megatron-LM v2 (arXiv:2104.04473) and Narayanan et
// al. 2019, PipeDream (1F1B, SOSP '19).
package parallel
