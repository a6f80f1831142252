package dist

import (
	"fmt"
	"unsafe"
)

// Backend names how the ranks of a world talk to each other, like the
// backend argument of torch.distributed.init_process_group. The API
// (Group, Rank, the collectives, their errors) is the same on every
// backend, so dl/parallel's DDP, ZeRO/FSDP, TP, PP and 3D code runs
// unchanged on each.
type Backend string

// The backends.
const (
	// InProcess runs the ranks as goroutines of one process (New, Run),
	// with the ring, tree and shared-memory algorithms of this package:
	// the default, and what notebooks use.
	InProcess Backend = "inprocess"
	// MPI runs one rank per process, started by mpirun (or `dlbd run
	// --backend mpi`), and calls Open MPI's collectives (libmpi loaded at
	// run time, no cgo): MPI_Allreduce, MPI_Reduce_scatter_block,
	// MPI_Allgather, MPI_Bcast, MPI_Reduce, MPI_Send/MPI_Recv,
	// MPI_Comm_split. For CPU clusters: the MPI every HPC centre has.
	MPI Backend = "mpi"
	// NCCL runs one rank per process and GPU, started by `dlbd run
	// --backend nccl`, and calls NCCL through dl.NCCLComm; the
	// communicator's ncclUniqueId travels through the launcher's
	// rendezvous store.
	NCCL Backend = "nccl"
	// TCP runs one rank per process on CPUs, on any number of nodes,
	// started by `dlbd run --backend tcp` (like PyTorch's gloo): the ranks
	// meet through the launcher's rendezvous store and run ring and tree
	// collectives over TCP connections between every pair of them. The
	// address a rank listens on is $DLBD_TCP_ADDR (TCPAddrEnv), else the
	// one its node uses to reach MASTER_ADDR. The torchrun-style way to
	// train on several CPU hosts without MPI.
	TCP Backend = "tcp"
)

// valid reports whether b is a known backend ("" is InProcess).
func (b Backend) valid() bool { return b == "" || b == InProcess || b == MPI || b == NCCL || b == TCP }

// hostBuf is a buffer of host memory as a process backend sees it: a
// pointer, a length in elements and the element size (4 or 8).
type hostBuf struct {
	p    unsafe.Pointer
	n    int
	size uintptr
}

func bufOf[T Float](v []T) hostBuf {
	b := hostBuf{n: len(v), size: unsafe.Sizeof(T(0))}
	if len(v) > 0 {
		b.p = unsafe.Pointer(&v[0])
	}
	return b
}

func (b hostBuf) bytes() int64 { return int64(b.n) * int64(b.size) }

// backend is one process's side of a group on a process backend (MPI,
// NCCL, TCP): the collectives on host buffers, in the semantics of the
// package-level functions. The collective's descriptor has already been
// checked against the other ranks' (begin calls check); c carries it.
type backend interface {
	// check compares this rank's call with every other rank's and returns
	// the call's number: a *MismatchError when they differ, a
	// *TimeoutError naming the ranks that did not arrive within the
	// timeout.
	check(r *Rank, d desc) (int64, error)
	allReduce(c *call, buf hostBuf, op Op) error
	reduceScatter(c *call, out, in hostBuf, op Op) error
	allGather(c *call, out, in hostBuf) error
	broadcast(c *call, buf hostBuf, root int) error
	reduce(c *call, buf hostBuf, root int, op Op) error
	barrier(c *call) error
	send(r *Rank, buf hostBuf, dst int) error
	recv(r *Rank, buf hostBuf, src int) error
	// split makes the sub-group of MPI_Comm_split; it returns nil for a
	// negative color, else the backend of the new group and its members
	// (world ranks, in the new group's order).
	split(c *call, color, key int) (backend, []int, error)
	// abort ends the job (every process) after a failure; it may not
	// return.
	abort(cause error)
	close() error
}

// viaBackend runs the part of a collective that a process backend does;
// run is called only when r's group has one.
func (c *call) viaBackend(run func(be backend) error) error {
	be := c.r.g.be
	if err := run(be); err != nil {
		return c.fail(err)
	}
	c.r.g.log.add(Record{Seq: c.seq, Collective: c.d.kind, Ranks: c.r.Size(), Bytes: int64(c.d.count) * int64(dtypeSize(c.d.dtype))})
	return nil
}

func dtypeSize(name string) int {
	switch name {
	case "float32":
		return 4
	case "float64":
		return 8
	}
	return 0
}

// errNotHere is returned by operations that a process backend cannot do.
func errNotHere(op string, b Backend) error {
	return fmt.Errorf("dist: %s is not available on the %s backend", op, b)
}
