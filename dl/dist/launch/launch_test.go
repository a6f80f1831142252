package launch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dlbd/dlbd/dl/dist"
)

// The test binary is also the ranks' program: with DLBD_LAUNCH_HELPER set
// it runs one of the helpers below instead of the tests.
func TestMain(m *testing.M) {
	if h := os.Getenv("DLBD_LAUNCH_HELPER"); h != "" {
		os.Exit(helper(h))
	}
	os.Exit(m.Run())
}

var mpiWorld *dist.Group

func helper(name string) int {
	if name == "tcp-node" {
		return tcpNode()
	}
	if name == "mpi-loop" {
		g, err := dist.Init(dist.Config{}) // sets RANK, LOCAL_RANK, WORLD_SIZE from mpirun's variables
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		defer g.Close()
		mpiWorld = g
	}
	rank := os.Getenv("RANK")
	// Written to a temporary name and renamed: the failing rank of "exit"
	// waits for the others' files, and the launcher may kill a rank right
	// after, which must not leave an empty pid file behind.
	pidFile := filepath.Join(os.Getenv("PIDDIR"), "pid."+rank)
	os.WriteFile(pidFile+".tmp", []byte(strconv.Itoa(os.Getpid())), 0o644)
	os.Rename(pidFile+".tmp", pidFile)
	fmt.Printf("env RANK=%s LOCAL_RANK=%s WORLD_SIZE=%s MASTER_PORT=%s\n", os.Getenv("RANK"), os.Getenv("LOCAL_RANK"), os.Getenv("WORLD_SIZE"), os.Getenv("MASTER_PORT"))
	switch name {
	case "tcp-ddp", "tcp-loop":
		return tcpHelper(name)
	case "mpi-loop": // all-reduce until killed
		mpiWorld.Run(func(r *dist.Rank) error {
			buf := make([]float32, 1<<16)
			for {
				if err := dist.AllReduce(r, buf, dist.Sum); err != nil {
					return err
				}
			}
		})
		return 1
	case "cpus": // the cores this rank may run on, its GOMAXPROCS, Open MPI's yield setting
		fmt.Printf("cpus %d gomaxprocs %d yield %q\n", runtime.NumCPU(), runtime.GOMAXPROCS(0), os.Getenv("OMPI_MCA_mpi_yield_when_idle"))
	case "exit": // rank FAIL exits with status 3 once its node's ranks run; the others sleep
		if rank == os.Getenv("FAIL") {
			node, _ := strconv.Atoi(os.Getenv("GROUP_RANK"))
			local, _ := strconv.Atoi(os.Getenv("LOCAL_WORLD_SIZE"))
			for i := range local {
				for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
					if _, err := os.Stat(filepath.Join(os.Getenv("PIDDIR"), "pid."+strconv.Itoa(node*local+i))); err == nil {
						break
					}
				}
			}
			fmt.Fprintln(os.Stderr, "dist: rank "+rank+": out of data")
			return 3
		}
		time.Sleep(time.Hour)
	}
	return 0
}

// waitPIDs waits for the pid files of ranks first..first+n-1 and returns
// the pids by rank.
func waitPIDs(t *testing.T, dir string, n int, first ...int) map[int]int {
	t.Helper()
	r0 := 0
	if len(first) > 0 {
		r0 = first[0]
	}
	pids := map[int]int{}
	for deadline := time.Now().Add(30 * time.Second); len(pids) < n && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for r := r0; r < r0+n; r++ {
			if b, err := os.ReadFile(filepath.Join(dir, "pid."+strconv.Itoa(r))); err == nil && len(b) > 0 {
				pids[r], _ = strconv.Atoi(string(b))
			}
		}
	}
	if len(pids) < n {
		t.Fatalf("only %d of %d ranks started", len(pids), n)
	}
	return pids
}

// checkGone fails if any of the job's processes is still alive a moment
// after the job ended (a zombie, dead and waiting for its parent to reap
// it, counts as gone).
func checkGone(t *testing.T, pids map[int]int) {
	t.Helper()
	time.Sleep(500 * time.Millisecond)
	for r, pid := range pids {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			continue
		}
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:])); len(f) > 0 && f[0] == "Z" {
			continue
		}
		t.Errorf("rank %d (pid %d) is still alive after the job ended: %s", r, pid, stat)
	}
}

func helperCfg(t *testing.T, n int, be dist.Backend, helper string, env ...string) (Config, *bytes.Buffer, string) {
	dir := t.TempDir()
	var out syncBuffer
	cfg := Config{NProcPerNode: n, Backend: be, Stdout: &out, Stderr: &out,
		Env: append([]string{"DLBD_LAUNCH_HELPER=" + helper, "PIDDIR=" + dir}, env...)}
	return cfg, &out.b, dir
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// TestRunMPIKilledRank: a rank killed with SIGKILL in the middle of its
// all-reduces ends the job within a bound, the error names it, and no
// process of the job is left.
func TestRunMPIKilledRank(t *testing.T) {
	if _, err := exec.LookPath("mpirun"); err != nil && os.Getenv("DLBD_REQUIRE_MPI") != "1" {
		t.Skip("mpirun not found")
	}
	cfg, out, dir := helperCfg(t, 4, dist.MPI, "mpi-loop")
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- Run(context.Background(), cfg, os.Args[0], "-test.run=^$") }()
	pids := waitPIDs(t, dir, 4)
	time.Sleep(200 * time.Millisecond) // well inside the all-reduce loop
	syscall.Kill(pids[2], syscall.SIGKILL)
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("the job did not end 30 s after rank 2 was killed:\n%s", out)
	}
	var f *RankFailure
	// Open MPI 4.1's mpirun reports "PID 0"; the pid, when given, must be right.
	if !errors.As(err, &f) || f.Rank != 2 || (f.PID != 0 && f.PID != pids[2]) || !strings.Contains(f.Status, "signal 9") {
		t.Fatalf("Run = %v; want a *RankFailure for rank 2 (pid %d) killed by signal 9\n%s", err, pids[2], out)
	}
	t.Logf("ended %v after the start: %v", time.Since(start), err)
	checkGone(t, pids)
	if !strings.Contains(out.String(), "[rank 3] env RANK=3 LOCAL_RANK=3 WORLD_SIZE=4") {
		t.Errorf("no [rank 3] line in the output:\n%s", out)
	}
}

// TestRunMPICores: each rank of an MPI job may run on every core (mpirun
// binds none) and gets GOMAXPROCS = CPUs / ranks; a rank bound to one
// core would run its threads on that core alone.  Waiting ranks yield
// (mpi_yield_when_idle 1) unless the job's environment says otherwise.
func TestRunMPICores(t *testing.T) {
	if _, err := exec.LookPath("mpirun"); err != nil && os.Getenv("DLBD_REQUIRE_MPI") != "1" {
		t.Skip("mpirun not found")
	}
	for _, c := range []struct {
		n     int
		env   []string
		yield string
	}{
		{1, nil, "1"},
		{2, nil, "1"},
		{2, []string{"OMPI_MCA_mpi_yield_when_idle=0"}, "0"},
	} {
		cfg, out, _ := helperCfg(t, c.n, dist.MPI, "cpus", c.env...)
		if err := Run(context.Background(), cfg, os.Args[0], "-test.run=^$"); err != nil {
			t.Fatalf("%d ranks: %v\n%s", c.n, err, out)
		}
		want := fmt.Sprintf("cpus %d gomaxprocs %d yield %q", runtime.NumCPU(), max(1, runtime.NumCPU()/c.n), c.yield)
		for r := range c.n {
			if line := fmt.Sprintf("[rank %d] %s", r, want); !strings.Contains(out.String(), line) {
				t.Errorf("%d ranks, env %q: no line %q in the output:\n%s", c.n, c.env, line, out)
			}
		}
	}
}

// TestRunSpawnRankExits: on the launcher's own processes (the nccl and
// inprocess backends), a rank's error exit stops the others.
func TestRunSpawnRankExits(t *testing.T) {
	cfg, out, dir := helperCfg(t, 3, dist.NCCL, "exit", "FAIL=1")
	cfg.MasterPort = freePort(t)
	err := Run(context.Background(), cfg, os.Args[0], "-test.run=^$")
	pids := waitPIDs(t, dir, 3)
	var f *RankFailure
	if !errors.As(err, &f) || f.Rank != 1 || f.Status != "exited with status 3" || f.Cause != "dist: rank 1: out of data" {
		t.Fatalf("Run = %v; want rank 1 exited with status 3 and its message\n%s", err, out)
	}
	checkGone(t, pids)
	if want := fmt.Sprintf("[rank 2] env RANK=2 LOCAL_RANK=2 WORLD_SIZE=3 MASTER_PORT=%d", cfg.MasterPort); !strings.Contains(out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
}

// TestRunSpawnRankKilled: kill -9 of a rank the launcher started ends
// the job, naming the rank and the signal.
func TestRunSpawnRankKilled(t *testing.T) {
	cfg, out, dir := helperCfg(t, 3, dist.NCCL, "exit", "FAIL=none")
	cfg.MasterPort = freePort(t)
	done := make(chan error, 1)
	go func() { done <- Run(context.Background(), cfg, os.Args[0], "-test.run=^$") }()
	pids := waitPIDs(t, dir, 3)
	syscall.Kill(pids[1], syscall.SIGKILL)
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("the job did not end 30 s after rank 1 was killed:\n%s", out)
	}
	var f *RankFailure
	if !errors.As(err, &f) || f.Rank != 1 || f.PID != pids[1] || f.Status != "was killed by signal 9 (killed)" {
		t.Fatalf("Run = %v; want rank 1 (pid %d) killed by signal 9", err, pids[1])
	}
	checkGone(t, pids)
}

// TestRunTwoNodes: two launchers (node 0 and 1) on this machine; rank 3
// (node 1's second) fails, and both launchers end, naming it.
func TestRunTwoNodes(t *testing.T) {
	port := freePort(t)
	cfgs := make([]Config, 2)
	var dirs []string
	var outs []*bytes.Buffer
	for node := range cfgs {
		c, out, dir := helperCfg(t, 2, dist.NCCL, "exit", "FAIL=3")
		c.NNodes, c.NodeRank, c.MasterPort = 2, node, port
		cfgs[node], dirs, outs = c, append(dirs, dir), append(outs, out)
	}
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for node := range cfgs {
		wg.Go(func() { errs[node] = Run(context.Background(), cfgs[node], os.Args[0], "-test.run=^$") })
	}
	wg.Wait()
	for node, err := range errs {
		var f *RankFailure
		if !errors.As(err, &f) || f.Rank != 3 {
			t.Errorf("node %d: Run = %v; want a failure of rank 3\n%s", node, err, outs[node])
		}
	}
	checkGone(t, waitPIDs(t, dirs[0], 2))
	checkGone(t, waitPIDs(t, dirs[1], 2, 2))
	if !strings.Contains(outs[1].String(), "[rank 3] env RANK=3 LOCAL_RANK=1 WORLD_SIZE=4") {
		t.Errorf("node 1's output lacks rank 3's environment:\n%s", outs[1])
	}
}

func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
