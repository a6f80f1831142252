// Package launch starts the processes of a distributed job, like torchrun
// (or mpirun, which it drives for the mpi backend), and supervises them:
// `dlbd run` is its command line.
//
// # Overview
//
// Run(ctx, cfg, prog, args...) builds prog when it is Go source (a .go
// file or a package directory), starts cfg.NProcPerNode ranks of it on
// this node with torchrun's environment (RANK, LOCAL_RANK, WORLD_SIZE,
// LOCAL_WORLD_SIZE, GROUP_RANK, MASTER_ADDR, MASTER_PORT) and
// dist.BackendEnv, prefixes every line a rank prints with "[rank r] ", and
// returns when all have exited. A program joins the job with
// dist.Init(dist.Config{}) and runs its training function with g.Run.
//
//   - inprocess: one process whose dist.Init makes WORLD_SIZE goroutine
//     ranks (what a notebook does, as a program).
//   - mpi: mpirun -np N starts the ranks (Open MPI); the program reads
//     OMPI_COMM_WORLD_RANK/SIZE/LOCAL_RANK. Several hosts: run mpirun
//     yourself with a hostfile (README, "Beyond one machine").
//   - nccl: one process per GPU started here; the launcher of node 0
//     serves the rendezvous store at MASTER_ADDR:MASTER_PORT through which
//     the ranks exchange the ncclUniqueId; every node runs `dlbd run` with
//     its --node-rank.
//   - tcp: one process per rank on CPUs, started here as for nccl, on any
//     number of nodes (like torchrun with gloo): node 0's launcher serves
//     the store, through which the ranks publish the address they listen
//     on (dist.TCPAddrEnv, else the one that reaches MASTER_ADDR) and then
//     connect to each other; every node runs `dlbd run --backend tcp
//     --nnodes M --node-rank R --master-addr A`. The torchrun-style way to
//     use several CPU hosts without MPI.
//
// # Errors
//
// A rank that dies (an error exit, a signal) ends the job: the other ranks
// are stopped (SIGTERM, then SIGKILL after KillGrace; each node's ranks
// share a process group, and die with the launcher), and Run returns a
// *RankFailure naming the rank, its pid and how it ended. A failed rank of
// another node reaches every launcher through the store's abort key.
// Cancelling ctx stops the job the same way.
//
// # Concepts
//
// torchrun's agent restarts failed workers (elastic training); this
// launcher does not: a failure ends the job, as mpirun does.
//
// Course: "¿Por qué entrenamiento distribuido?" (torchrun
// --nproc_per_node, --nnodes).
package launch
