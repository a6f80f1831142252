package launch

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dlbd/dlbd/dl/dist"
)

// KillGrace is how long stopped ranks get between SIGTERM and SIGKILL.
const KillGrace = 2 * time.Second

// Config is a job, as torchrun's flags describe it. The zero value of
// every field but NProcPerNode is the default.
type Config struct {
	// NProcPerNode is the number of ranks on this node
	// (--nproc-per-node); >= 1.
	NProcPerNode int
	// NNodes is the number of nodes (--nnodes); 0 means 1.
	NNodes int
	// NodeRank is this node's index (--node-rank), 0..NNodes-1.
	NodeRank int
	// MasterAddr and MasterPort locate node 0's rendezvous store
	// (--master-addr, --master-port); "" means 127.0.0.1, 0 means 29500,
	// torchrun's defaults.
	MasterAddr string
	MasterPort int
	// Backend is dist's backend for the ranks (--backend); "" means mpi.
	Backend dist.Backend
	// Stdout and Stderr receive the ranks' prefixed output; nil means the
	// launcher's own.
	Stdout, Stderr io.Writer
	// Env is added to the ranks' environment (KEY=VALUE). Unless it or
	// the launcher's environment sets GOMAXPROCS, each of a node's
	// processes gets GOMAXPROCS = CPUs / NProcPerNode (at least 1), so
	// that the ranks do not oversubscribe the cores, as torchrun sets
	// OMP_NUM_THREADS=1.
	Env []string
	// Dir is the ranks' working directory; "" means the launcher's.
	Dir string
}

func (c *Config) defaults() error {
	if c.NProcPerNode < 1 {
		return fmt.Errorf("launch: --nproc-per-node %d: need at least 1", c.NProcPerNode)
	}
	if c.NNodes == 0 {
		c.NNodes = 1
	}
	if c.NodeRank < 0 || c.NodeRank >= c.NNodes {
		return fmt.Errorf("launch: --node-rank %d out of range [0, %d)", c.NodeRank, c.NNodes)
	}
	if c.MasterAddr == "" {
		c.MasterAddr = "127.0.0.1"
	}
	if c.MasterPort == 0 {
		c.MasterPort = 29500
	}
	if c.Backend == "" {
		c.Backend = dist.MPI
	}
	if c.Stdout == nil {
		c.Stdout = os.Stdout
	}
	if c.Stderr == nil {
		c.Stderr = os.Stderr
	}
	if !hasEnv("GOMAXPROCS", c.Env) && c.Backend != dist.InProcess {
		c.Env = append(c.Env[:len(c.Env):len(c.Env)], "GOMAXPROCS="+strconv.Itoa(max(1, runtime.NumCPU()/c.NProcPerNode)))
	}
	return nil
}

// hasEnv reports whether key is set in the launcher's environment or in env
// (KEY=VALUE entries).
func hasEnv(key string, env []string) bool {
	if _, ok := os.LookupEnv(key); ok {
		return true
	}
	return slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, key+"=") })
}

// WorldSize returns NNodes × NProcPerNode.
func (c Config) WorldSize() int { return max(c.NNodes, 1) * c.NProcPerNode }

// env is the environment of local rank i.
func (c Config) env(i int) []string {
	rank := c.NodeRank*c.NProcPerNode + i
	return append(append(os.Environ(),
		"RANK="+strconv.Itoa(rank), "LOCAL_RANK="+strconv.Itoa(i),
		"WORLD_SIZE="+strconv.Itoa(c.WorldSize()), "LOCAL_WORLD_SIZE="+strconv.Itoa(c.NProcPerNode),
		"GROUP_RANK="+strconv.Itoa(c.NodeRank), "MASTER_ADDR="+c.MasterAddr, "MASTER_PORT="+strconv.Itoa(c.MasterPort),
		dist.BackendEnv+"="+string(c.Backend)), c.Env...) // Env last: it wins
}

// Run starts the job's ranks on this node and waits for them; see the
// package documentation. prog is an executable, or Go source (a .go file,
// or a directory holding a main package) that Run builds first.
func Run(ctx context.Context, cfg Config, prog string, args ...string) error {
	if err := cfg.defaults(); err != nil {
		return err
	}
	bin, cleanup, err := Build(ctx, prog)
	if err != nil {
		return err
	}
	defer cleanup()
	switch cfg.Backend {
	case dist.MPI:
		if cfg.NNodes > 1 {
			return fmt.Errorf("launch: the mpi backend on %d nodes: run mpirun yourself with a hostfile "+
				"(mpirun --hostfile hosts -np %d %s), it starts every node's ranks; or use --backend tcp, which runs `dlbd run` on every node", cfg.NNodes, cfg.WorldSize(), prog)
		}
		return runMPI(ctx, cfg, bin, args)
	case dist.InProcess:
		if cfg.NNodes > 1 {
			return fmt.Errorf("launch: the inprocess backend runs on one node (its ranks are goroutines of one process)")
		}
		one := cfg
		one.NProcPerNode = 1
		one.Env = append(append([]string(nil), cfg.Env...), "WORLD_SIZE="+strconv.Itoa(cfg.NProcPerNode))
		return spawn(ctx, one, bin, args)
	case dist.NCCL, dist.TCP:
		return spawn(ctx, cfg, bin, args)
	}
	return fmt.Errorf("launch: unknown backend %q (want mpi, inprocess, nccl or tcp)", cfg.Backend)
}

// Build returns an executable for prog: prog itself, or the result of go
// build when it is a .go file or a directory with Go files (in a
// temporary directory that cleanup removes).
func Build(ctx context.Context, prog string) (bin string, cleanup func(), err error) {
	st, err := os.Stat(prog)
	if err != nil {
		return "", nil, fmt.Errorf("launch: %w", err)
	}
	goSrc := strings.HasSuffix(prog, ".go")
	if st.IsDir() {
		m, _ := filepath.Glob(filepath.Join(prog, "*.go"))
		goSrc = len(m) > 0
	}
	if !goSrc {
		abs, err := filepath.Abs(prog)
		return abs, func() {}, err
	}
	dir, err := os.MkdirTemp("", "dlbd-run-")
	if err != nil {
		return "", nil, fmt.Errorf("launch: %w", err)
	}
	bin = filepath.Join(dir, strings.TrimSuffix(filepath.Base(prog), ".go"))
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, ".")
	cmd.Dir = prog
	if !st.IsDir() {
		cmd = exec.CommandContext(ctx, "go", "build", "-o", bin, filepath.Base(prog))
		cmd.Dir = filepath.Dir(prog)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("launch: go build %s: %w\n%s", prog, err, out)
	}
	return bin, func() { os.RemoveAll(dir) }, nil
}
