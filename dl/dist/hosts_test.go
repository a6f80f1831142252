package dist

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dlbd/dlbd/internal/netns"
)

// The mpi backend across hosts: two network namespaces of this machine
// (internal/netns) stand for two hosts, 2 ranks on each, and Open MPI
// moves the data between them over TCP only (btl tcp,self), as between
// machines. The helpers are those of mpi_test.go.

// mpirunHosts returns mpirun, started in host 0, running this test binary
// as helper on 2 ranks per host, each with the GOMAXPROCS dl/dist/launch
// would give it.
func mpirunHosts(t testing.TB, h *netns.Hosts, ctx context.Context, helper string, env ...string) *exec.Cmd {
	t.Helper()
	args := []string{"-x", mpiHelperEnv + "=" + helper, "-x", launchProcs(2)}
	for _, kv := range env {
		args = append(args, "-x", kv)
	}
	cmd, err := h.MPIRun(ctx, 2, append(args, os.Args[0], "-test.run=^$")...)
	if err != nil {
		t.Fatal(err)
	}
	return cmd
}

// TestMPICollectivesAcrossHosts: every collective of mpiCollectives
// (all-reduce, reduce, broadcast, reduce-scatter, all-gather, send/recv,
// split) equals the in-process result on 4 ranks, 2 per host, and the
// data crossed the hosts' link.
func TestMPICollectivesAcrossHosts(t *testing.T) {
	h := netns.ForMPITest(t, 2)
	before, err := h.LinkBytes(1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	out, err := mpirunHosts(t, h, ctx, "collectives").CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("mpirun across hosts did not end within 90 s:\n%s", out)
	}
	if err != nil || strings.Count(string(out), "collectives ok on rank") != 4 {
		t.Fatalf("mpirun across hosts %s and %s: %v\n%s", h.Host[0].Addr, h.Host[1].Addr, err, out)
	}
	after, err := h.LinkBytes(1)
	if err != nil {
		t.Fatal(err)
	}
	// Each all-gather (one with small integers, one with normal values)
	// must bring host 1's two 4096-float64 blocks to host 0 and host 0's
	// to host 1: at least 4·32 KiB through host 1's interface per call.
	if min := uint64(2 * 4 * 4096 * 8); after-before < min {
		t.Errorf("host 1's interface carried %d bytes during the job; the all-gathers alone move %d across hosts: "+
			"the ranks did not talk over TCP between the namespaces", after-before, min)
	}
	t.Logf("%d bytes crossed host 1's interface", after-before)
}

// TestMPIRankKilledAcrossHosts: a rank of host 1 killed with SIGKILL
// ends the job; mpirun names the rank, its pid and its host, and no
// process of the job is left on either host.
func TestMPIRankKilledAcrossHosts(t *testing.T) {
	h := netns.ForMPITest(t, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := mpirunHosts(t, h, ctx, "spin")
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	for strings.Count(out.String(), "spinning on rank") < 4 {
		select {
		case err := <-waited:
			t.Fatalf("the job ended before its 4 ranks ran: %v\n%s", err, out.String())
		case <-ctx.Done():
			t.Fatalf("the 4 ranks did not start within 90 s:\n%s", out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	rank, pid, err := rankOnHost(h, 1)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil { // kill -9
		t.Fatalf("kill -9 %d (rank %d on host 1): %v", pid, rank, err)
	}
	select {
	case err = <-waited:
	case <-ctx.Done():
		t.Fatalf("the job did not end within 90 s of rank %d's death:\n%s", rank, out.String())
	}
	if err == nil {
		t.Fatalf("the job succeeded although rank %d was killed:\n%s", rank, out.String())
	}
	want := fmt.Sprintf("process rank %d with PID %d on node %s exited on signal 9", rank, pid, h.Host[1].Addr)
	if !strings.Contains(strings.Join(strings.Fields(out.String()), " "), want) {
		t.Errorf("mpirun's output does not name the killed rank and its host (%q):\n%s", want, out.String())
	} else {
		t.Logf("mpirun: %s", want)
	}
	for i := range h.Host {
		var pids []int
		for range 100 { // the orted of host 1 exits shortly after mpirun
			if pids, err = h.Pids(i); err != nil || len(pids) == 0 {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(pids) > 0 {
			t.Errorf("processes %v left on host %d (%s) 5 s after the job ended: %s", pids, i, h.Host[i].Addr, commands(pids))
		}
	}
}

// rankOnHost finds a rank of this test binary running on host i (the
// highest rank there) and returns its rank and pid.
func rankOnHost(h *netns.Hosts, i int) (rank, pid int, err error) {
	self, err := os.Executable()
	if err != nil {
		return 0, 0, err
	}
	pids, err := h.Pids(i)
	if err != nil {
		return 0, 0, err
	}
	rank = -1
	for _, p := range pids {
		exe, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(p), "exe"))
		if err != nil || exe != self {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p), "environ"))
		if err != nil {
			continue
		}
		for _, kv := range strings.Split(string(env), "\x00") {
			if v, ok := strings.CutPrefix(kv, "OMPI_COMM_WORLD_RANK="); ok {
				if r, _ := strconv.Atoi(v); r > rank {
					rank, pid = r, p
				}
			}
		}
	}
	if rank < 0 {
		return 0, 0, fmt.Errorf("no rank of %s runs on host %d (%s); its processes: %s", self, i, h.Host[i].Addr, commands(pids))
	}
	return rank, pid, nil
}

// commands describes processes by pid and command line.
func commands(pids []int) string {
	var s []string
	for _, p := range pids {
		b, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p), "cmdline"))
		s = append(s, fmt.Sprintf("%d %s", p, bytes.ReplaceAll(bytes.TrimRight(b, "\x00"), []byte{0}, []byte{' '})))
	}
	return strings.Join(s, "; ")
}

// syncBuffer is a bytes.Buffer that mpirun's output and the test may use
// at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// BenchmarkMPIAllReduceAcrossHosts is BenchmarkMPIAllReduce's n=4 job
// with 2 ranks on each of two hosts and TCP between all ranks: its
// busbw beside BenchmarkMPIAllReduce/n=4 (Open MPI's shared memory) is
// what the hosts' link costs (scripts/bench/entries/dist-mpi.json,
// mpi-allreduce-hosts).
func BenchmarkMPIAllReduceAcrossHosts(b *testing.B) {
	h := netns.ForMPITest(b, 2)
	for _, mib := range mpiBenchSizes {
		b.Run(fmt.Sprintf("n=4/S=%dMiB", mib), func(b *testing.B) {
			benchMPIJob(b, 4, mib, func(ctx context.Context) ([]byte, error) {
				return mpirunHosts(b, h, ctx, "bench",
					fmt.Sprintf("DLBD_BENCH_BYTES=%d", mib<<20), fmt.Sprintf("DLBD_BENCH_ITERS=%d", mpiIters(mib))).CombinedOutput()
			})
		})
	}
}
