package dist

import (
	"fmt"
	"sync"
	"time"

	"github.com/dlbd/dlbd/dl"
)

// Config describes a local group. The zero value of every field but
// WorldSize is the default.
type Config struct {
	// Backend is how ranks talk (torch's init_process_group backend):
	// InProcess ("", the default) for goroutine ranks in this process; MPI,
	// NCCL or TCP to join the job this process was launched in, one rank per
	// process (see Init, which also reads the environment).
	Backend Backend
	// WorldSize is the number of ranks (torchrun's --nproc_per_node); >= 1
	// in-process; 0 (the job's size) or that size on MPI, NCCL and TCP.
	WorldSize int
	// Devices binds world rank i to Devices[i] (Rank.Device). nil means
	// dl.Sim(i) for every rank, one simulated accelerator each (on NCCL:
	// dl.CUDA(LOCAL_RANK)); otherwise it needs WorldSize entries. In-process
	// ranks on CUDA devices run their tensor collectives with NCCL
	// (dl.NCCLComm).
	Devices []dl.Device
	// AllReduce is the all-reduce algorithm (like NCCL_ALGO). Auto (the
	// zero value) picks SharedMemory: see the package documentation.
	AllReduce Algorithm
	// KeepRecords is how many per-collective records (Group.Records) the
	// group keeps, oldest dropped first: 0 means 256, negative means none.
	// Per-link byte counters (Group.LinkTraffic) are always kept.
	KeepRecords int
	// Timeout aborts the group when one rank waits longer than this inside
	// one dist call (like the timeout of torch.distributed.
	// init_process_group); the error (a *TimeoutError) names the ranks that
	// did not arrive. 0 means DefaultTimeout; a negative value means no
	// timeout. Deadlocks (every rank waiting) are detected anyway.
	Timeout time.Duration
}

// DefaultTimeout is how long a rank waits inside one dist call, for a
// rank that does not arrive, before the group is aborted (Config.Timeout
// 0). A notebook cell whose rank hangs fails after it, naming that rank,
// instead of running forever; long enough for a rank to evaluate or save
// while the others wait at a barrier. torch.distributed's default is 10
// minutes (NCCL) or 30 (Gloo), sized for clusters, not cells.
const DefaultTimeout = 60 * time.Second

// timeout resolves Config.Timeout: 0 → DefaultTimeout, negative → none (0).
func (c Config) timeout() time.Duration {
	switch {
	case c.Timeout == 0:
		return DefaultTimeout
	case c.Timeout < 0:
		return 0
	}
	return c.Timeout
}

// Group is a set of ranks that run collectives together: the world made by
// New, or a sub-group made by Rank.Split, Rank.NewSubgroups or Rank.NewGrid
// (like a torch.distributed ProcessGroup). Each member uses it through its
// own *Rank. A Group is safe for concurrent use by its members.
type Group struct {
	w       *world
	name    string
	members []int   // world rank of each group rank
	ranks   []*Rank // the members' handles, by group rank
	cfg     Config

	links links
	calls callTable
	shm   shmState
	log   trafficLog

	isWorld bool
	runMu   sync.Mutex // held by Run
	split   splitTable

	be    backend   // nil in-process; MPI or NCCL otherwise
	local *Rank     // this process's rank on a process backend
	dev   dl.Device // this process's device on a process backend
	gpu   *gpuComm  // NCCL for CUDA tensors; nil without CUDA ranks
}

// New creates a local group of cfg.WorldSize ranks (goroutines of this
// process, started by Group.Run).
func New(cfg Config) (*Group, error) {
	switch cfg.Backend {
	case MPI:
		return newMPIWorld(cfg)
	case NCCL:
		return newNCCLWorld(cfg)
	case TCP:
		return newTCPWorld(cfg)
	case "", InProcess:
	default:
		return nil, fmt.Errorf("dist: New with unknown Backend %q (want inprocess, mpi, nccl or tcp)", cfg.Backend)
	}
	if cfg.WorldSize < 1 {
		return nil, fmt.Errorf("dist: New with WorldSize %d: need at least 1 rank", cfg.WorldSize)
	}
	if !cfg.AllReduce.valid() {
		return nil, fmt.Errorf("dist: New with unknown AllReduce algorithm %v", cfg.AllReduce)
	}
	if cfg.Devices != nil {
		if len(cfg.Devices) != cfg.WorldSize {
			return nil, fmt.Errorf("dist: New with %d Devices for WorldSize %d: give one device per rank, or nil for dl.Sim(i)", len(cfg.Devices), cfg.WorldSize)
		}
		cfg.Devices = append([]dl.Device(nil), cfg.Devices...)
	}
	w := newWorld(cfg.WorldSize, cfg.timeout())
	members := make([]int, cfg.WorldSize)
	for i := range members {
		members[i] = i
	}
	g := newGroup(w, "world", members, cfg, nil)
	if err := g.initGPU(); err != nil {
		return nil, err
	}
	return g, nil
}

// NewLocalGroup is New(Config{WorldSize: n}); it panics if n < 1.
func NewLocalGroup(n int) *Group {
	g, err := New(Config{WorldSize: n})
	if err != nil {
		panic(err)
	}
	return g
}

// newGroup builds a group of the given world ranks. worldRanks holds the
// world handles (nil when building the world itself).
func newGroup(w *world, name string, members []int, cfg Config, worldRanks []*Rank) *Group {
	n := len(members)
	g := &Group{w: w, name: name, members: members, cfg: cfg, isWorld: worldRanks == nil}
	g.links.init(n)
	g.calls.init(n)
	g.log.init(n, cfg.KeepRecords)
	g.ranks = make([]*Rank, n)
	for i, m := range members {
		r := &Rank{g: g, rank: i}
		if worldRanks == nil {
			r.state = &rankState{world: m}
		} else {
			r.state = worldRanks[m].state
		}
		g.ranks[i] = r
	}
	return g
}

// Size returns the number of ranks (torch.distributed.get_world_size).
func (g *Group) Size() int { return len(g.members) }

// Name returns the group's name: "world", or the name given by the call
// that made the sub-group (for example "tp[0 1]").
func (g *Group) Name() string { return g.name }

// Members returns the world rank of each group rank.
func (g *Group) Members() []int { return append([]int(nil), g.members...) }

// AllReduceAlgorithm returns the algorithm AllReduce uses in this group
// (Auto resolved).
func (g *Group) AllReduceAlgorithm() Algorithm {
	if g.cfg.AllReduce == Auto {
		return SharedMemory
	}
	return g.cfg.AllReduce
}

// Err returns nil while the group is healthy, else the error every dist
// call now returns (wrapping ErrAborted and the cause).
func (g *Group) Err() error {
	if !g.w.isAborted() {
		return nil
	}
	return g.w.abortErr()
}

// Abort aborts the group (and every group of its world) with cause: every
// rank waiting in a dist call returns an error wrapping ErrAborted and
// cause, and so does every later call. The first cause wins. Run calls it
// when a rank fails; call it to cancel a run from outside. In a process
// world (MPI, NCCL, TCP) it ends the whole job, this process included
// (MPI_Abort, or the launcher's abort).
func (g *Group) Abort(cause error) {
	if cause == nil {
		cause = fmt.Errorf("dist: aborted by the caller")
	}
	g.w.abort(cause)
	if g.be != nil {
		g.be.abort(g.w.cause)
	}
}
