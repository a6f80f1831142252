// Package dist runs the ranks of distributed training, as goroutines of
// one process (the way torchrun runs N processes on a machine) or as
// processes joined by MPI, NCCL or TCP, and executes the collectives between
// them for real: all-reduce, reduce-scatter, all-gather, broadcast,
// reduce, send/recv and barrier.
//
// # Overview
//
// Run(n, fn) starts n ranks; each is a goroutine that calls fn with its
// *Rank (rank number, world size, its group). There is no global state: the
// group travels in the *Rank.
//
//	err := dist.Run(4, func(r *dist.Rank) error {
//		return dist.AllReduce(r, grads[r.Rank()], dist.Mean)
//	})
//
// The collectives work on []float32 or []float64 (AllReduce, Broadcast,
// Reduce, ReduceScatter, AllGather, Send, Recv, and Rank.Barrier); each
// collective has an Async variant returning a *Work with Wait. The same
// operations exist as methods of *Rank on *dl.Tensor (r.AllReduce(grad,
// dist.Mean), like torch.distributed.all_reduce): each rank is bound to a
// device, dl.Sim(rank) by default (Config.Devices), and its tensors must
// live there. Sub-groups come from
// Rank.Split (MPI_Comm_split), Rank.NewSubgroups and Rank.NewGrid (the DP ×
// TP × PP grid of 3D parallelism). Every collective leaves a Record (its
// steps, and for the link-based algorithms every transfer: who sent which
// chunk to whom at which step) and counts the bytes of every link
// (Group.Records, Group.LinkTraffic). Package dl/dist/cost turns records
// and sizes into times on real interconnects.
//
// Backends. The same Group and Rank, with the same collectives and
// errors, run on four backends (Config.Backend, like the backend of
// torch.distributed.init_process_group): InProcess, the goroutine ranks
// above (the default, and what notebooks use); MPI, one rank per process
// started by mpirun or `dlbd run --backend mpi`, calling Open MPI's
// collectives (libmpi loaded at run time without cgo, dl/dist/internal/mpi);
// NCCL, one rank per process and GPU started by `dlbd run --backend nccl`,
// calling NCCL through dl.NCCLComm; TCP, one rank per process on CPUs of
// any number of nodes started by `dlbd run --backend tcp` (like PyTorch's
// gloo), running ring and tree collectives of its own over TCP
// connections between every pair of ranks (tcp.go; each rank listens on
// $DLBD_TCP_ADDR, else the address of its node that reaches MASTER_ADDR).
// A program joins its job with
// Init(Config{}), which reads the launcher's environment (RANK, WORLD_SIZE,
// or mpirun's OMPI_COMM_WORLD_*), and runs its training function with
// g.Run: the function is the one the notebook runs in-process, and
// dl/parallel's DDP, ZeRO/FSDP, TP, PP and 3D run unchanged. On the process
// backends a check before every collective (check.go) gives the in-process
// errors: a *MismatchError for mismatched calls, a *TimeoutError naming the
// ranks that did not arrive; a failed rank ends the whole job (MPI_Abort,
// or the launcher's abort), and dl/dist/launch names it. On TCP a rank
// whose peer dies fails at once with a *TCPPeerError naming the peer and
// its address. In-process ranks
// bound to CUDA devices (Config.Devices) run their tensor collectives
// through dl.NCCLComm, GPU to GPU.
//
// Read the algorithms in this order (naive first):
//
//   - ring.go: the ring all-reduce every course draws: reduce-scatter then
//     all-gather, 2(n-1) steps over channels, one per directed link.
//   - tree.go: binomial trees for broadcast and reduce, and tree all-reduce.
//   - shm.go: the shared-memory algorithm that AllReduce uses by default,
//     because here all ranks share one memory.
//
// # Errors
//
// Everything that involves other ranks returns an error; nothing panics
// across ranks. A rank that returns an error or panics aborts the whole
// world (all groups) at once: ranks waiting in dist calls return errors
// wrapping ErrAborted and the cause, and Run returns a *RankError naming the
// first rank that failed. Ranks that call different collectives, or the same
// one with different sizes, ops, roots or element types, get a
// *MismatchError (the rank that notices it; the others an abort wrapping
// it). If every running rank waits in a dist call that nothing can complete
// (two ranks that Recv from each other, a rank that returned without joining
// a collective), Run's watchdog aborts with ErrDeadlock and says what each
// rank waits for. Config.Timeout (DefaultTimeout, 60 s, unless set) bounds
// any single wait: a rank that hangs outside dist (an endless loop, a
// blocked channel) aborts the group with a *TimeoutError (ErrTimeout) that
// names it, the rank that did not arrive, and Run returns without waiting
// for its goroutine.
// After an abort the group stays aborted; buffers of interrupted
// collectives have undefined contents. Wrong arguments of one call (a root
// out of range, len(in) ≠ n·len(out)) return an error without aborting.
//
// One limit: Broadcast and Reduce run on trees, in which a rank whose part
// is done may return before a mismatched rank has even arrived; that rank
// sees the abort at its next dist call. AllReduce, ReduceScatter,
// AllGather and Barrier report a mismatch to every rank.
//
// # Concepts
//
// Collective semantics follow torch.distributed: AllReduce is in place
// (all_reduce); ReduceScatter and AllGather are the tensor forms
// (reduce_scatter_tensor, all_gather_into_tensor: rank r owns chunk r);
// Reduce leaves non-root buffers unchanged. Mean is NCCL's AVG. All ranks
// get bit-identical results: every element is reduced once, in a fixed
// order, and copied to the others.
//
// Algorithm choice. NCCL estimates, for every algorithm and protocol,
// latency + bytes / bandwidth from a model of the hardware and takes the
// fastest (NCCL_ALGO forces one). dist does the same for AllReduce with the
// one fact that matters inside a process: every rank shares one memory bus,
// so the cost is memory traffic. The ring moves ≈ 5(n-1)·S bytes through
// memory (each of the n-1 reduce-scatter steps reads two chunks and writes
// one per rank, the all-gather copies) and synchronises 2(n-1) times; the
// tree moves as much in 2⌈log₂ n⌉ steps; SharedMemory moves 2·n·S (the
// floor) and synchronises twice. For n ≥ 2, 2n ≤ 5(n-1), so the rule is:
// Auto = SharedMemory for every local group. Config.AllReduce forces Ring
// or Tree (to step through them, or to record their transfers). The other
// collectives have one algorithm each: ring for ReduceScatter and
// AllGather, binomial tree for Broadcast and Reduce, dissemination for
// Barrier. (Ranks on GPUs, which do not share memory, use NCCL's own
// algorithms, ring and tree, through dl.NCCLComm.)
//
// Speed. In one process the floor of an all-reduce of n buffers of S
// bytes is t_min = 2·n·S/B, with B the machine's in-place read-modify-write
// bandwidth; the benchmarks (bench_test.go) measure t_min/t and NCCL's
// busbw = 2(n-1)/n·S/t.
//
// Memory model. Ring and tree messages are views of the sender's buffer
// (no copy); a rank acknowledges every view it read before the collective
// returns, so when a call returns no other goroutine touches that rank's
// buffers. Send copies (the buffer may be reused at once).
//
// Course: "¿Por qué entrenamiento distribuido?", "Data Parallelism (DP)",
// "3D Parallelism y FSDP".
// Paper: Li et al. 2020, PyTorch Distributed: Experiences on Accelerating Data Parallel Training (arXiv:2006.15704).
// Paper: Sergeev & Del Balso 2018, Horovod: fast and easy distributed deep learning in TensorFlow (arXiv:1802.05799).
package dist
