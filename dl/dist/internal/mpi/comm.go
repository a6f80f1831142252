package mpi

import (
	"fmt"
	"math"
	"unsafe"
)

// Thread support levels (MPI_THREAD_*).
const (
	ThreadSingle     = 0
	ThreadFunneled   = 1
	ThreadSerialized = 2
	ThreadMultiple   = 3
)

// Undefined is MPI_UNDEFINED: the color of a rank that joins no group in
// Split.
const Undefined = -32766

// Comm is a communicator (MPI_Comm).
type Comm struct{ h uintptr }

// Init initialises MPI (MPI_Init_thread, asking for MPI_THREAD_MULTIPLE)
// unless it already is, and returns the thread level provided. It fails
// below MPI_THREAD_SERIALIZED: goroutines move between OS threads.
func Init() (int, error) {
	if err := Load(); err != nil {
		return 0, err
	}
	var flag int32
	if err := check(mpiInitialized(&flag), "MPI_Initialized"); err != nil {
		return 0, err
	}
	var provided int32 = ThreadMultiple
	if flag == 0 {
		if err := check(mpiInitThread(0, 0, ThreadMultiple, &provided), "MPI_Init_thread"); err != nil {
			return 0, err
		}
	}
	if provided < ThreadSerialized {
		return int(provided), fmt.Errorf("mpi: MPI_Init_thread provided thread level %d; need MPI_THREAD_SERIALIZED (2) or more", provided)
	}
	return int(provided), World().errorsReturn()
}

// Finalize ends MPI (MPI_Finalize), if it was initialised and not yet
// finalised.
func Finalize() error {
	if Load() != nil {
		return nil
	}
	var ini, fin int32
	mpiInitialized(&ini)
	mpiFinalized(&fin)
	if ini == 0 || fin != 0 {
		return nil
	}
	return check(mpiFinalize(), "MPI_Finalize")
}

// World returns MPI_COMM_WORLD (valid after Init).
func World() Comm { return Comm{world} }

func (c Comm) errorsReturn() error {
	return check(mpiCommSetErrh(c.h, errorsReturn), "MPI_Comm_set_errhandler")
}

// Rank returns this process's rank in c (MPI_Comm_rank).
func (c Comm) Rank() int {
	var r int32
	mpiCommRank(c.h, &r)
	return int(r)
}

// Size returns the number of processes in c (MPI_Comm_size).
func (c Comm) Size() int {
	var n int32
	mpiCommSize(c.h, &n)
	return int(n)
}

// count checks that n fits MPI's int count.
func count(call string, n int) (int32, error) {
	if n < 0 || n > math.MaxInt32 {
		return 0, fmt.Errorf("mpi: %s of %d elements: MPI counts are 32-bit; split the buffer", call, n)
	}
	return int32(n), nil
}

// ptr is the address of a buffer (0 for an empty one).
func ptr(p unsafe.Pointer) uintptr { return uintptr(p) }

// Allreduce reduces n elements of buf across c with op, in place
// (MPI_Allreduce with MPI_IN_PLACE).
func (c Comm) Allreduce(buf unsafe.Pointer, n int, dt Datatype, op Op) error {
	k, err := count("MPI_Allreduce", n)
	if err != nil {
		return err
	}
	return check(mpiAllreduce(inPlace, ptr(buf), k, uintptr(dt), uintptr(op), c.h), "MPI_Allreduce")
}

// ReduceScatterBlock reduces send (Size()·n elements) with op and leaves
// block Rank() of the result, n elements, in recv (MPI_Reduce_scatter_block).
func (c Comm) ReduceScatterBlock(send, recv unsafe.Pointer, n int, dt Datatype, op Op) error {
	k, err := count("MPI_Reduce_scatter_block", n*c.Size())
	if err != nil {
		return err
	}
	k /= int32(c.Size())
	return check(mpiReduceScatterB(ptr(send), ptr(recv), k, uintptr(dt), uintptr(op), c.h), "MPI_Reduce_scatter_block")
}

// Allgather concatenates every process's n elements of send, in rank
// order, into recv (MPI_Allgather).
func (c Comm) Allgather(send unsafe.Pointer, n int, recv unsafe.Pointer, dt Datatype) error {
	k, err := count("MPI_Allgather", n*c.Size())
	if err != nil {
		return err
	}
	k /= int32(c.Size())
	return check(mpiAllgather(ptr(send), k, uintptr(dt), ptr(recv), k, uintptr(dt), c.h), "MPI_Allgather")
}

// Bcast copies root's n elements of buf to every process (MPI_Bcast).
func (c Comm) Bcast(buf unsafe.Pointer, n int, dt Datatype, root int) error {
	k, err := count("MPI_Bcast", n)
	if err != nil {
		return err
	}
	return check(mpiBcast(ptr(buf), k, uintptr(dt), int32(root), c.h), "MPI_Bcast")
}

// Barrier returns once every process of c called it (MPI_Barrier).
func (c Comm) Barrier() error { return check(mpiBarrier(c.h), "MPI_Barrier") }

// Split makes the communicators of MPI_Comm_split: processes with the same
// color, ordered by key. A process whose color is Undefined gets ok false.
func (c Comm) Split(color, key int) (sub Comm, ok bool, err error) {
	var h uintptr
	if err := check(mpiCommSplit(c.h, int32(color), int32(key), &h), "MPI_Comm_split"); err != nil {
		return Comm{}, false, err
	}
	if h == 0 || h == commNull {
		return Comm{}, false, nil
	}
	sub = Comm{h}
	return sub, true, sub.errorsReturn()
}

// Free releases a communicator made by Split (MPI_Comm_free).
func (c *Comm) Free() error {
	if c.h == 0 || c.h == world || c.h == commNull {
		return nil
	}
	err := check(mpiCommFree(&c.h), "MPI_Comm_free")
	c.h = 0
	return err
}

// Abort ends every process of c's job with exit code code (MPI_Abort):
// mpirun kills the others and reports which rank called it. It does not
// return in the calling process.
func (c Comm) Abort(code int) {
	mpiAbort(c.h, int32(code))
}

// ReduceInPlace reduces n elements of buf across c into root's buf
// (MPI_Reduce, with MPI_IN_PLACE on root); other processes' buf is left
// unchanged.
func (c Comm) ReduceInPlace(buf unsafe.Pointer, n int, dt Datatype, op Op, root int) error {
	k, err := count("MPI_Reduce", n)
	if err != nil {
		return err
	}
	send, recv := ptr(buf), uintptr(0)
	if c.Rank() == root {
		send, recv = inPlace, ptr(buf)
	}
	return check(mpiReduce(send, recv, k, uintptr(dt), uintptr(op), int32(root), c.h), "MPI_Reduce")
}
