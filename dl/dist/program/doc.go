// Package program runs a training function on N processes from a
// notebook cell: it writes a program that calls the function, builds it,
// starts it with dl/dist/launch on the chosen backend, streams each rank's
// output into the cell (prefixed "[rank r]") and returns every rank's
// result. InProcess runs the same function on goroutine ranks, so the
// notebook can compare both.
//
// # Overview
//
//	res, err := program.Run(ctx, Train, program.Config{NProc: 4, Backend: dist.MPI})
//
// Train is a top-level, exported function func(r *dist.Rank) (M, error)
// of a cell (or of any importable package); M must survive encoding/json
// (exported fields). The generated program's main is Main(Train).
//
// A job started some other way (mpirun across hosts, whose ranks run
// Main with ResultsEnv naming a directory they share) leaves the same
// results for ReadResults.
//
// The program is built in a module that can import Train's package: the
// current directory's, or the one registered for that package with
// RegisterModule (a notebook kernel whose cells are packages registers
// their module when its process starts).
//
// # Errors
//
// A function that is not a top-level exported function of an importable
// package is refused with an error that says why; a failed build returns
// the compiler's message; a failed rank returns the launcher's
// *launch.RankFailure naming it.
//
// # Concepts
//
// The program imports the cell's package, so it runs that package's
// package-level initialisers but not cell bodies: values that earlier
// cells computed in their bodies are zero there. Keep what the function
// needs inside it, or in constants and package-level declarations.
//
// Course: "Data Parallelism (DP)" (the same DDP code on goroutines and on
// processes).
package program
