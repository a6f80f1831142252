package dist

import (
	"fmt"
	"os"
	"strconv"

	"github.com/dlbd/dlbd/dl"
)

// A process world: one rank per process (the MPI, NCCL and TCP backends). The
// Group of each process holds its own *Rank only; the others live in
// other processes, reached through the backend.

// newProcessWorld makes this process's world group of size ranks, in
// which it is rank me.
func newProcessWorld(cfg Config, be backend, me, size int, dev dl.Device) *Group {
	w := newWorld(size, cfg.timeout())
	members := make([]int, size)
	for i := range members {
		members[i] = i
	}
	g := &Group{w: w, name: "world", members: members, cfg: cfg, isWorld: true, be: be, dev: dev}
	g.log.init(size, cfg.KeepRecords)
	g.local = &Rank{g: g, rank: me, state: &rankState{world: me}}
	return g
}

// processSub makes the sub-group of r's process for a split.
func (r *Rank) processSub(name string, members []int, be backend) *Rank {
	g := r.g
	sub := &Group{w: g.w, name: name, members: members, cfg: g.cfg, be: be, dev: g.dev}
	sub.log.init(len(members), g.cfg.KeepRecords)
	me := -1
	for i, m := range members {
		if m == r.state.world {
			me = i
		}
	}
	sub.local = &Rank{g: sub, rank: me, state: r.state}
	return sub.local
}

// runProcess is Run on a process world: fn runs once, on this process's
// rank. A failure aborts the whole job through the backend (MPI_Abort, or
// the launcher's abort for NCCL), so that no rank waits for this one.
func (g *Group) runProcess(fn func(r *Rank) error) error {
	err := runRank(g.local, fn)
	if err == nil {
		return nil
	}
	g.Abort(err)
	return err
}

// Local returns this process's own rank in a process world (the MPI,
// NCCL and TCP backends), or nil in an in-process group, whose ranks Run hands out.
func (g *Group) Local() *Rank { return g.local }

// Backend returns the group's backend.
func (g *Group) Backend() Backend {
	if g.cfg.Backend == "" {
		return InProcess
	}
	return g.cfg.Backend
}

// Close releases the backend: it finishes pending sends and finalises MPI
// (MPI_Finalize), destroys the NCCL communicator or closes the TCP
// connections. A process world must
// be closed once its Run has returned; in-process groups need no Close.
func (g *Group) Close() error {
	if g.be == nil {
		return nil
	}
	return g.be.close()
}

// The environment of a launched rank, as torchrun sets it (RANK,
// LOCAL_RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT) and as mpirun does
// (OMPI_COMM_WORLD_RANK, _SIZE, _LOCAL_RANK). `dlbd run` sets both kinds
// of torchrun variables and BackendEnv.
const (
	// BackendEnv names the backend Init uses: inprocess, mpi, nccl or tcp.
	BackendEnv = "DLBD_DIST_BACKEND"
)

// Init joins the job this process was started in and returns its world
// group, like torch.distributed.init_process_group reading the
// environment. The backend is cfg.Backend, else $DLBD_DIST_BACKEND, else
// MPI when mpirun started the process (OMPI_COMM_WORLD_SIZE is set), else
// InProcess. For InProcess the world has cfg.WorldSize ranks, else
// $WORLD_SIZE, else 1, all goroutines of this process; for MPI, NCCL and TCP
// the size comes from the job, and a cfg.WorldSize that differs is an
// error. The rest of cfg applies as for New.
//
// The same training function then runs on any backend: g.Run(train)
// starts the goroutine ranks in-process, or runs this process's rank.
func Init(cfg Config) (*Group, error) {
	if cfg.Backend == "" {
		cfg.Backend = Backend(os.Getenv(BackendEnv))
	}
	if cfg.Backend == "" {
		if os.Getenv("OMPI_COMM_WORLD_SIZE") != "" {
			cfg.Backend = MPI
		} else {
			cfg.Backend = InProcess
		}
	}
	if cfg.Backend == InProcess && cfg.WorldSize == 0 {
		cfg.WorldSize = 1
		if s := os.Getenv("WORLD_SIZE"); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("dist: Init: WORLD_SIZE=%q is not a positive number", s)
			}
			cfg.WorldSize = n
		}
	}
	return New(cfg)
}

// envInt reads an integer variable; def when unset.
func envInt(name string, def int) (int, error) {
	s := os.Getenv(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("dist: %s=%q is not a number", name, s)
	}
	return n, nil
}

// launchedRank reads the rank and world size that `dlbd run` (torchrun's
// RANK and WORLD_SIZE) gave this process, for backend b.
func launchedRank(b Backend) (rank, size int, err error) {
	if rank, err = envInt("RANK", -1); err != nil {
		return 0, 0, err
	}
	if size, err = envInt("WORLD_SIZE", -1); err != nil {
		return 0, 0, err
	}
	if rank < 0 || size < 1 || rank >= size {
		return 0, 0, fmt.Errorf("dist: %s backend: RANK=%q WORLD_SIZE=%q: start the job with `dlbd run --backend %s` (torchrun's variables)", b, os.Getenv("RANK"), os.Getenv("WORLD_SIZE"), b)
	}
	return rank, size, nil
}

// recvSizeError is the error of a Recv on a process backend whose buffer
// does not match the message: src sent n values of size bytes.
func recvSizeError(r *Rank, src, n, size int, buf hostBuf) error {
	return fmt.Errorf("dist: recv on rank %d of %s: rank %d sent %d values of %d bytes, the buffer holds %d values of %d bytes",
		r.rank, r.g.name, src, n, size, buf.n, buf.size)
}

// checkSize compares the job's size with the one the program asked for.
func checkSize(b Backend, want, got int) error {
	if want != 0 && want != got {
		return fmt.Errorf("dist: New with WorldSize %d, but the %s job has %d ranks (mismatched sizes: "+
			"pass 0 to take the job's size, or start the job with %d processes)", want, b, got, want)
	}
	return nil
}
