// Package ddptrain is an example of what program.Run launches: training
// functions of an importable package. Its tests (package program) run
// them on several MPI processes and compare with the same functions on
// goroutine ranks and with one device.
//
// # Overview
//
// DDP and ZeRO3 train a small float64 MLP on a fixed batch split across
// the ranks, Single trains it on one device; Grid3D runs a step of a
// 4-block Transformer as DP 2 × TP 2 × PP 2 on 8 ranks; StepTime times DDP
// steps for make bench.
//
// # Errors
//
// Each function returns the error of the dist or parallel call that
// failed.
//
// # Concepts
//
// With equal shards and the mean of the gradients, DDP's step is the
// single-device step on the whole batch: the parameters agree to the
// rounding of the all-reduce's order.
//
// Course: "Data Parallelism (DP)", "3D Parallelism y FSDP".
package ddptrain
