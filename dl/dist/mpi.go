package dist

import (
	"fmt"
	"os"
	"unsafe"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist/internal/mpi"
)

// The mpi backend: one rank per process, started by mpirun, and Open MPI's
// own collectives. What it adds to each call is the check of check.go
// (same call on every rank, nobody missing), so that its errors are the
// in-process ones.
//
// Simplification: MPI chooses its reduction algorithms (and so the order
// in which the ranks' values are added) by size and process count;
// results are identical on every rank, but may differ from the in-process
// ones in the last bits of rounding. Copies (Broadcast, AllGather,
// Send/Recv) and sums of exactly representable values are bit-identical.
//
// Course: "¿Por qué entrenamiento distribuido?".
type mpiBackend struct {
	comm    mpi.Comm
	n, me   int
	isWorld bool
	chk     checker
	pending []*mpi.Request // Sends in flight, with their copies
}

// newMPIWorld initialises MPI and makes the world group of this process.
func newMPIWorld(cfg Config) (*Group, error) {
	if _, err := mpi.Init(); err != nil {
		return nil, fmt.Errorf("dist: mpi backend: %w", err)
	}
	w := mpi.World()
	if err := checkSize(MPI, cfg.WorldSize, w.Size()); err != nil {
		return nil, err
	}
	be := newMPIBackend(w, cfg, true)
	// torchrun's variables, for programs that read them.
	local := os.Getenv("OMPI_COMM_WORLD_LOCAL_RANK")
	for k, v := range map[string]string{"RANK": fmt.Sprint(w.Rank()), "WORLD_SIZE": fmt.Sprint(w.Size()), "LOCAL_RANK": local} {
		if os.Getenv(k) == "" && v != "" {
			os.Setenv(k, v)
		}
	}
	// The device is Sim(world rank), as in-process: host memory with its
	// own accounting. GPU ranks use the NCCL backend.
	return newProcessWorld(cfg, be, w.Rank(), w.Size(), dl.Sim(w.Rank())), nil
}

func newMPIBackend(c mpi.Comm, cfg Config, world bool) *mpiBackend {
	b := &mpiBackend{comm: c, n: c.Size(), me: c.Rank(), isWorld: world}
	b.chk = checker{net: mpiCheckNet{b}, n: b.n, me: b.me, timeout: cfg.timeout()}
	return b
}

func mpiType(size uintptr) mpi.Datatype {
	if size == 4 {
		return mpi.Float32
	}
	return mpi.Float64
}

func mpiOp(op Op) mpi.Op {
	switch op {
	case Max:
		return mpi.Max
	case Min:
		return mpi.Min
	case Product:
		return mpi.Prod
	}
	return mpi.Sum // Sum, and Mean before its division
}

// divideBy divides b's elements by n, for Mean (a true division, as the
// in-process kernels do).
func divideBy(b hostBuf, n int) {
	if b.n == 0 {
		return
	}
	if b.size == 4 {
		divide(unsafe.Slice((*float32)(b.p), b.n), float32(n))
	} else {
		divide(unsafe.Slice((*float64)(b.p), b.n), float64(n))
	}
}

func (b *mpiBackend) check(r *Rank, d desc) (int64, error) { return b.chk.check(r, d) }

func (b *mpiBackend) allReduce(c *call, buf hostBuf, op Op) error {
	if err := b.comm.Allreduce(buf.p, buf.n, mpiType(buf.size), mpiOp(op)); err != nil {
		return err
	}
	if op == Mean {
		divideBy(buf, b.n)
	}
	return nil
}

func (b *mpiBackend) reduceScatter(c *call, out, in hostBuf, op Op) error {
	if err := b.comm.ReduceScatterBlock(in.p, out.p, out.n, mpiType(in.size), mpiOp(op)); err != nil {
		return err
	}
	if op == Mean {
		divideBy(out, b.n)
	}
	return nil
}

func (b *mpiBackend) allGather(c *call, out, in hostBuf) error {
	return b.comm.Allgather(in.p, in.n, out.p, mpiType(in.size))
}

func (b *mpiBackend) broadcast(c *call, buf hostBuf, root int) error {
	return b.comm.Bcast(buf.p, buf.n, mpiType(buf.size), root)
}

func (b *mpiBackend) reduce(c *call, buf hostBuf, root int, op Op) error {
	if err := b.comm.ReduceInPlace(buf.p, buf.n, mpiType(buf.size), mpiOp(op), root); err != nil {
		return err
	}
	if op == Mean && b.me == root {
		divideBy(buf, b.n)
	}
	return nil
}

func (b *mpiBackend) barrier(c *call) error { return b.comm.Barrier() }

func (b *mpiBackend) split(c *call, color, key int) (backend, []int, error) {
	col := color
	if col < 0 {
		col = mpi.Undefined
	}
	sub, ok, err := b.comm.Split(col, key)
	if err != nil || !ok {
		return nil, nil, err
	}
	me := []int64{int64(c.r.state.world)}
	all := make([]int64, sub.Size())
	if err := sub.Allgather(unsafe.Pointer(&me[0]), 1, unsafe.Pointer(&all[0]), mpi.Int64); err != nil {
		return nil, nil, err
	}
	members := make([]int, len(all))
	for i, m := range all {
		members[i] = int(m)
	}
	return newMPIBackend(sub, c.r.g.cfg, false), members, nil
}

// abort writes the cause where the launcher shows it and ends the job.
func (b *mpiBackend) abort(cause error) {
	fmt.Fprintf(os.Stderr, "%v\n%s\n", cause, AbortNotice(mpi.World().Rank()))
	mpi.World().Abort(1)
}

func (b *mpiBackend) close() error {
	err := b.flushSends()
	if !b.isWorld {
		if ferr := b.comm.Free(); err == nil {
			err = ferr
		}
		return err
	}
	if ferr := mpi.Finalize(); err == nil {
		err = ferr
	}
	return err
}
