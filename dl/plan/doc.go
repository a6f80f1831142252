// Package plan estimates, with formulas, what training a transformer too big to run here
// would take: parameters, training FLOPs, memory per GPU under each parallelism strategy,
// step time on a cluster and GPU-hours.
//
// # Overview
//
// A Model is a decoder-only transformer configuration (Llama3_70B, GPT3_175B, ... or your
// own). Model.Params counts its parameters exactly from the shapes. TrainingFLOPs is the
// 6·N·D rule. A Strategy says how the model is split — data parallel degree d (with ZeRO
// stage 0–3 / FSDP), tensor parallel t (with or without sequence parallelism), pipeline
// parallel p (GPipe or 1F1B), activation recomputation — and Memory returns the bytes one
// GPU needs for weights, gradients, optimizer states and activations. Estimate adds a
// Cluster (GPU from the facts, links from dl/dist/cost) and returns step time, MFU and the
// time and GPU-hours to train on a number of tokens. SimAccelerator looks up in the facts
// the hardware a dl.Sim device stands for (the profile name given with dl.ConfigureSim).
//
// # Errors
//
// Configurations are checked by Validate (or by the functions that take them), which
// returns an error naming the field and the fix: a degree that does not divide the layers,
// heads or GPUs, a zero size. Nothing panics on user input.
//
// # Concepts
//
//   - Model states with mixed-precision Adam (Rajbhandari et al. 2020, ZeRO, arXiv:1910.02054):
//     2Ψ (fp16/bf16 weights) + 2Ψ (gradients) + 12Ψ (fp32 master weights, momentum,
//     variance) = 16Ψ bytes per replica; ZeRO-1 → 4Ψ + 12Ψ/N, ZeRO-2 → 2Ψ + 14Ψ/N,
//     ZeRO-3 → 16Ψ/N.
//   - Activations (Korthikanti et al. 2022, Reducing Activation Recomputation in Large
//     Transformer Models, arXiv:2205.05198): per layer s·b·h·(34 + 5·a·s/h) bytes, divided
//     by t with tensor + sequence parallelism, 34·s·b·h/t with selective recomputation,
//     2·s·b·h (/t) with full recomputation.
//   - Training compute C ≈ 6·N·D (Kaplan et al. 2020, arXiv:2001.08361): 2ND forward,
//     4ND backward.
//   - MFU (Chowdhery et al. 2022, PaLM, arXiv:2204.02311): model FLOPs per second divided
//     by the cluster's peak.
//
// Estimates are models, never measurements: each simplification is marked in the code.
//
// Course: "¿Por qué entrenamiento distribuido?", "3D Parallelism y FSDP", "¿Cuándo usar qué técnica?".
package plan
