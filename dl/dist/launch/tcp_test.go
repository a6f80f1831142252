package launch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/dist/program/ddptrain"
	"github.com/dlbd/dlbd/internal/netns"
)

// The tcp backend across two "nodes": two launchers on this machine,
// node 0 serving the store on 127.0.0.1, node 1's ranks listening on
// 127.0.0.2 (set by dist.TCPAddrEnv, as a node in its own network
// namespace would set its address), 2 ranks each.

// tcpHelper is a rank of the tcp tests: "tcp-ddp" trains ddptrain.DDP
// and writes its result to $PIDDIR/result.<rank>; "tcp-loop"
// all-reduces until it fails.
func tcpHelper(name string) int {
	g, err := dist.Init(dist.Config{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if g.Backend() != dist.TCP {
		fmt.Fprintf(os.Stderr, "backend %s, want tcp\n", g.Backend())
		return 2
	}
	err = g.Run(func(r *dist.Rank) error {
		if name == "tcp-loop" {
			buf := make([]float32, 1<<16)
			for {
				if err := dist.AllReduce(r, buf, dist.Sum); err != nil {
					return err
				}
			}
		}
		res, err := ddptrain.DDP(r)
		if err != nil {
			return err
		}
		b, _ := json.Marshal(res)
		return os.WriteFile(filepath.Join(os.Getenv("PIDDIR"), fmt.Sprintf("result.%d", r.Rank())), b, 0o644)
	})
	if cerr := g.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// tcpNode is the "tcp-node" helper: the launcher of one node of a tcp job
// (what `dlbd run --backend tcp --nnodes 2 --node-rank $TCP_NODE
// --master-addr $TCP_MASTER --master-port 29500` does), run inside a
// network namespace by runTCPHosts; its ranks run $TCP_HELPER.
func tcpNode() int {
	node, _ := strconv.Atoi(os.Getenv("TCP_NODE"))
	cfg := Config{NProcPerNode: 2, NNodes: 2, NodeRank: node, MasterAddr: os.Getenv("TCP_MASTER"), MasterPort: 29500,
		Backend: dist.TCP, Env: []string{"DLBD_LAUNCH_HELPER=" + os.Getenv("TCP_HELPER")}}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	if err := Run(ctx, cfg, os.Args[0], "-test.run=^$"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// runTwoTCPNodes runs the helper on two launchers of 2 ranks each and
// returns each node's error, output and pid directory; during the run,
// while(pidDirs) is called once every rank has written its pid file.
func runTwoTCPNodes(t *testing.T, helper string, while func(dirs []string)) ([]error, []string, []string) {
	port := freePort(t)
	cfgs := make([]Config, 2)
	var dirs []string
	var outs []*syncBuffer
	for node := range cfgs {
		env := []string{}
		if node == 1 {
			env = append(env, dist.TCPAddrEnv+"=127.0.0.2")
		}
		c, _, dir := helperCfg(t, 2, dist.TCP, helper, env...)
		out := &syncBuffer{}
		c.Stdout, c.Stderr = out, out
		c.NNodes, c.NodeRank, c.MasterAddr, c.MasterPort = 2, node, "127.0.0.1", port
		cfgs[node], dirs, outs = c, append(dirs, dir), append(outs, out)
	}
	// Both nodes' ranks write into node 0's directory (ranks 0-3).
	cfgs[1].Env = append(cfgs[1].Env, "PIDDIR="+dirs[0])
	errs := make([]error, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	for node := range cfgs {
		wg.Go(func() { errs[node] = Run(ctx, cfgs[node], os.Args[0], "-test.run=^$") })
	}
	if while != nil {
		while(dirs)
	}
	wg.Wait()
	if ctx.Err() != nil {
		t.Fatalf("the job did not end within 2 minutes:\n%s\n%s", outs[0].String(), outs[1].String())
	}
	return errs, []string{outs[0].String(), outs[1].String()}, dirs
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRunTCPTwoNodesDDP: DDP on 4 ranks of 2 nodes ends with every
// rank's parameters equal to single-device training on the whole batch,
// and to the same DDP on 4 goroutine ranks.
func TestRunTCPTwoNodesDDP(t *testing.T) {
	errs, outs, dirs := runTwoTCPNodes(t, "tcp-ddp", nil)
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("Run: %v\nnode 0:\n%s\nnode 1:\n%s", err, outs[0], outs[1])
	}
	checkDDP(t, dirs[0], outs...)
	if !strings.Contains(outs[1], "[rank 3] env RANK=3 LOCAL_RANK=1 WORLD_SIZE=4") {
		t.Errorf("node 1's output lacks rank 3's environment:\n%s", outs[1])
	}
}

// checkDDP compares the results the 4 ranks of tcp-ddp left in dir with
// single-device training and with the same DDP on 4 goroutine ranks.
func checkDDP(t *testing.T, dir string, outs ...string) {
	t.Helper()
	single := ddptrain.Single()
	here := make([]ddptrain.Result, 4)
	if err := dist.Run(4, func(r *dist.Rank) (err error) { here[r.Rank()], err = ddptrain.DDP(r); return err }); err != nil {
		t.Fatal(err)
	}
	for r := range 4 {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("result.%d", r)))
		if err != nil {
			t.Fatalf("rank %d left no result: %v\n%s", r, err, strings.Join(outs, "\n"))
		}
		var got ddptrain.Result
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if !closeTo(got.Params, single.Params) {
			t.Errorf("rank %d: parameters on tcp differ from single-device training\n got %v\nwant %v", r, got.Params[:4], single.Params[:4])
		}
		if !closeTo(got.Losses, here[r].Losses) {
			t.Errorf("rank %d: losses %v on tcp, %v in-process", r, got.Losses, here[r].Losses)
		}
	}
}

// runTCPHosts runs a launcher of 2 ranks of helper ("tcp-ddp" or
// "tcp-loop") in each of two network namespaces (internal/netns: hosts
// 10.233.0.1 and .2 on a bridge), node 0's serving the store on host 0's
// address, as `dlbd run --backend tcp --nnodes 2` on two machines; the
// ranks listen on their host's address (the one that reaches the master:
// no DLBD_TCP_ADDR). while(dir) runs during the job. It returns each
// launcher's error and output, the ranks' directory, and the bytes host
// 1's interface moved.
func runTCPHosts(t *testing.T, helper string, while func(dir string)) ([]error, []string, string, uint64) {
	h := netns.ForTest(t, 2)
	dir := t.TempDir()
	before, err := h.LinkBytes(1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	outs := make([]string, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for node := range 2 {
		cmd := h.CommandContext(ctx, node, os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "DLBD_LAUNCH_HELPER=tcp-node", "TCP_HELPER="+helper, fmt.Sprintf("TCP_NODE=%d", node),
			"TCP_MASTER="+h.Host[0].Addr, "PIDDIR="+dir)
		wg.Go(func() {
			out, err := cmd.CombinedOutput()
			outs[node], errs[node] = string(out), err
		})
	}
	if while != nil {
		while(dir)
	}
	wg.Wait()
	if ctx.Err() != nil {
		t.Fatalf("the launchers did not end within 2 minutes:\nnode 0:\n%s\nnode 1:\n%s", outs[0], outs[1])
	}
	after, err := h.LinkBytes(1)
	if err != nil {
		t.Fatal(err)
	}
	return errs, outs, dir, after - before
}

// TestRunTCPAcrossHosts: the DDP job of TestRunTCPTwoNodesDDP with each
// node in a network namespace of its own.
func TestRunTCPAcrossHosts(t *testing.T) {
	errs, outs, dir, moved := runTCPHosts(t, "tcp-ddp", nil)
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("the launchers: %v\nnode 0:\n%s\nnode 1:\n%s", err, outs[0], outs[1])
	}
	checkDDP(t, dir, outs...)
	// Ranks 2 and 3 can only reach ranks 0 and 1 (and the store) across
	// the bridge: the job succeeding says the mesh crossed it; the
	// counter says that bytes did (the store's and the collectives').
	if moved == 0 {
		t.Errorf("host 1's interface moved no bytes")
	}
	t.Logf("host 1's interface moved %d bytes", moved)
}

// TestRunTCPAcrossHostsKilledRank: rank 3, on host 1, is killed in the
// middle of its all-reduces; both hosts' launchers end, naming it, and no
// rank is left on either host.
func TestRunTCPAcrossHostsKilledRank(t *testing.T) {
	var pids map[int]int
	errs, outs, _, _ := runTCPHosts(t, "tcp-loop", func(dir string) {
		pids = waitPIDs(t, dir, 4)
		time.Sleep(300 * time.Millisecond) // well inside the all-reduce loop
		syscall.Kill(pids[3], syscall.SIGKILL)
	})
	for node, err := range errs {
		if err == nil || !strings.Contains(outs[node], "launch: rank 3") {
			t.Errorf("node %d: launcher %v; want a failure naming rank 3:\n%s", node, err, outs[node])
		}
	}
	for _, l := range strings.Split(outs[0]+outs[1], "\n") {
		if strings.Contains(l, "rank 3 at ") {
			t.Logf("a survivor's error: %s", l) // names rank 3 at 10.233.0.2:port
			break
		}
	}
	checkGone(t, pids)
}

func closeTo(a, b []float64) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-12 {
			return false
		}
	}
	return true
}

// TestRunTCPTwoNodesKilledRank: rank 3 (node 1) is killed in the middle of
// its all-reduces; both launchers end within a bound, naming it, and no
// rank of either node is left.
func TestRunTCPTwoNodesKilledRank(t *testing.T) {
	var pids map[int]int
	var start time.Time
	errs, outs, _ := runTwoTCPNodes(t, "tcp-loop", func(dirs []string) {
		pids = waitPIDs(t, dirs[0], 4)
		time.Sleep(300 * time.Millisecond) // well inside the all-reduce loop
		start = time.Now()
		syscall.Kill(pids[3], syscall.SIGKILL)
	})
	t.Logf("the job ended %v after rank 3 was killed: %v", time.Since(start), errs[0])
	for node, err := range errs {
		var f *RankFailure
		if !errors.As(err, &f) || f.Rank != 3 {
			t.Errorf("node %d: Run = %v; want a failure of rank 3\n%s", node, err, outs[node])
		}
	}
	// The survivors' own errors name it with the address node 1's ranks
	// listen on (dist.TCPAddrEnv), unless their launcher stopped them first.
	if !strings.Contains(outs[0]+outs[1], "tcp backend: rank 3 at 127.0.0.2:") {
		t.Logf("no rank's error names rank 3 at 127.0.0.2 (the launchers stopped them first):\n%s\n%s", outs[0], outs[1])
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("the job took %v to end after rank 3 was killed", d)
	}
	checkGone(t, pids)
}
