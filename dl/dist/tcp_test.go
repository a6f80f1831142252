package dist

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dlbd/dlbd/dl/dist/internal/store"
)

// The tcp backend against the in-process one: the test binary runs itself
// as n processes, each a rank of a tcp job that meets the others through
// a rendezvous store this test serves on 127.0.0.1 (what `dlbd run
// --backend tcp` does, without the launcher: dl/dist/launch tests that
// part), and checks every collective against an in-process group computing
// the same from the same inputs: the MPI backend's table (mpiCollectives),
// then uneven sizes and float32 on every collective (tcpUneven).

const tcpHelperEnv = "DLBD_TCP_HELPER"

// tcpJob is a tcp job of this test binary's helpers.
type tcpJob struct {
	t     testing.TB
	ranks []*tcpProc
	out   syncLines
	srv   net.Listener
}

// tcpProc is one rank's process; done is closed when it has exited and
// its output is read.
type tcpProc struct {
	cmd  *exec.Cmd
	err  error
	done chan struct{}
}

// syncLines collects the ranks' output lines.
type syncLines struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncLines) add(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.WriteString(line + "\n")
}

func (s *syncLines) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startTCP serves a store and starts ranks ranks (of a world of n) of the
// helper; timeout is the helper's Config.Timeout.
func startTCP(t testing.TB, n int, ranks []int, helper string, timeout time.Duration, env ...string) *tcpJob {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go store.NewServer().Serve(ln) // ends when the test closes ln
	j := &tcpJob{t: t, srv: ln}
	port := ln.Addr().(*net.TCPAddr).Port
	for _, r := range ranks {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), tcpHelperEnv+"="+helper, "DLBD_TCP_TIMEOUT="+timeout.String(),
			"RANK="+strconv.Itoa(r), "WORLD_SIZE="+strconv.Itoa(n), "MASTER_ADDR=127.0.0.1", "MASTER_PORT="+strconv.Itoa(port),
			BackendEnv+"="+string(TCP), "GOMAXPROCS=2")
		cmd.Env = append(cmd.Env, env...)
		o, _ := cmd.StdoutPipe()
		e, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		p := &tcpProc{cmd: cmd, done: make(chan struct{})}
		var pipes sync.WaitGroup
		for _, f := range []interface{ Read([]byte) (int, error) }{o, e} {
			pipes.Add(1)
			go func() { // ends when the rank's pipe closes
				defer pipes.Done()
				sc := bufio.NewScanner(f)
				for sc.Scan() {
					j.out.add(fmt.Sprintf("[rank %d] %s", r, sc.Text()))
				}
			}()
		}
		go func() { // ends when the rank exits (kill makes sure it does)
			pipes.Wait()
			p.err = cmd.Wait()
			close(p.done)
		}()
		j.ranks = append(j.ranks, p)
	}
	t.Cleanup(j.kill)
	return j
}

// wait waits for the ranks (all but those at positions skip) within
// bound and returns each one's exit error, by position.
func (j *tcpJob) wait(bound time.Duration, skip ...int) []error {
	j.t.Helper()
	errs := make([]error, len(j.ranks))
	expire := time.After(bound)
	for i, p := range j.ranks {
		if slices.Contains(skip, i) {
			continue
		}
		select {
		case <-p.done:
			errs[i] = p.err
		case <-expire:
			j.kill()
			j.t.Fatalf("the tcp job did not end within %v:\n%s", bound, j.out.String())
		}
	}
	return errs
}

// kill ends every rank and the store, and waits for the ranks' exits.
func (j *tcpJob) kill() {
	for _, p := range j.ranks {
		p.cmd.Process.Kill()
	}
	for _, p := range j.ranks {
		<-p.done
	}
	j.srv.Close()
}

func TestTCPCollectives(t *testing.T) {
	for _, n := range []int{4, 3} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			j := startTCP(t, n, []int{0, 1, 2, 3}[:n], "collectives", 30*time.Second)
			errs := j.wait(60 * time.Second)
			out := j.out.String()
			if err := errors.Join(errs...); err != nil || strings.Count(out, "collectives ok on rank") != n {
				t.Fatalf("tcp job: %v\n%s", err, out)
			}
		})
	}
}

func TestTCPMismatchedSizes(t *testing.T) {
	j := startTCP(t, 4, []int{0, 1, 2, 3}, "mismatch", 10*time.Second)
	errs := j.wait(60 * time.Second)
	out := j.out.String()
	if errors.Join(errs...) == nil {
		t.Fatalf("a job with mismatched all-reduce sizes succeeded:\n%s", out)
	}
	want := "collective mismatch in group world, call #1: rank 1 called all-reduce(float64 × 11, sum), rank 0 called all-reduce(float64 × 10, sum)"
	if !strings.Contains(out, want) {
		t.Errorf("output does not contain %q:\n%s", want, out)
	}
}

// TestTCPHungRankNamed: rank 2 computes outside dist for ever; the others
// fail after the timeout, naming it.
func TestTCPHungRankNamed(t *testing.T) {
	start := time.Now()
	j := startTCP(t, 4, []int{0, 1, 2, 3}, "hung", 500*time.Millisecond)
	errs := j.wait(30*time.Second, 2)
	out := j.out.String()
	for r, err := range errs {
		if r != 2 && err == nil {
			t.Errorf("rank %d succeeded", r)
		}
	}
	if want := "rank 2 did not arrive at all-reduce #0 of world within 500ms"; !strings.Contains(out, want) {
		t.Errorf("output does not contain %q:\n%s", want, out)
	}
	t.Logf("ended after %v", time.Since(start))
}

// TestTCPRankNeverArrives: rank 3 is never started; the others fail at
// the rendezvous after the timeout, naming it.
func TestTCPRankNeverArrives(t *testing.T) {
	j := startTCP(t, 4, []int{0, 1, 2}, "collectives", 500*time.Millisecond)
	errs := j.wait(30 * time.Second)
	out := j.out.String()
	for r, err := range errs {
		if err == nil {
			t.Errorf("rank %d succeeded", r)
		}
	}
	want := "rank 3 did not arrive at the tcp rendezvous (its connection) of world within 500ms"
	if strings.Count(out, want) != 3 {
		t.Errorf("output does not contain %q on each of ranks 0-2:\n%s", want, out)
	}
}

// TestTCPKilledRank: rank 2 is killed (SIGKILL) in the middle of its
// all-reduces; the others fail at once (no timeout: 60 s here), naming it
// and its address.
func TestTCPKilledRank(t *testing.T) {
	j := startTCP(t, 4, []int{0, 1, 2, 3}, "loop", time.Minute)
	for deadline := time.Now().Add(30 * time.Second); strings.Count(j.out.String(), "looping") < 4; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the ranks did not start their loops:\n%s", j.out.String())
		}
	}
	start := time.Now()
	j.ranks[2].cmd.Process.Signal(syscall.SIGKILL)
	errs := j.wait(20 * time.Second)
	out := j.out.String()
	for r, err := range errs {
		if err == nil {
			t.Errorf("rank %d succeeded", r)
		}
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the ranks took %v to fail after rank 2 was killed", d)
	}
	want := "tcp backend: rank 2 at 127.0.0.1:"
	for _, r := range []int{0, 1, 3} {
		if !strings.Contains(out, fmt.Sprintf("[rank %d] dist: rank %d: dist: all-reduce on rank %d: ", r, r, r)) || !regexp.MustCompile(fmt.Sprintf(`\[rank %d\] dist: rank %d: .*%s`, r, r, regexp.QuoteMeta(want))).MatchString(out) {
			t.Errorf("rank %d's error does not name rank 2 and its address (%q):\n%s", r, want, out)
		}
	}
}

// tcpHelper is one rank of a tcp helper job; it returns the exit code.
func tcpHelper(name string) int {
	timeout, _ := time.ParseDuration(os.Getenv("DLBD_TCP_TIMEOUT"))
	g, err := Init(Config{Timeout: timeout})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if g.Backend() != TCP {
		fmt.Fprintf(os.Stderr, "Init: backend %s; want tcp\n", g.Backend())
		return 2
	}
	var fn func(r *Rank) error
	switch name {
	case "collectives":
		fn = func(r *Rank) error {
			if 4096%r.Size() == 0 { // the MPI table's buffers have 4096 values
				if err := mpiCollectives(r); err != nil {
					return err
				}
			}
			return tcpUneven(r)
		}
	case "bench":
		fn = mpiBench
	case "mismatch":
		fn = func(r *Rank) error {
			if err := AllReduce(r, make([]float64, 10), Sum); err != nil {
				return err
			}
			return AllReduce(r, make([]float64, 10+r.Rank()), Sum) // call #1: sizes differ
		}
	case "hung":
		fn = func(r *Rank) error {
			if r.Rank() == 2 {
				time.Sleep(time.Hour) // hangs outside dist
			}
			return AllReduce(r, make([]float32, 4), Sum)
		}
	case "loop":
		fn = func(r *Rank) error {
			buf := make([]float32, 1<<16)
			for i := 0; ; i++ {
				if err := AllReduce(r, buf, Sum); err != nil {
					return err
				}
				if i == 0 {
					fmt.Println("looping")
				}
			}
		}
	}
	if err := g.Run(fn); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := g.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if name != "bench" {
		fmt.Printf("%s ok on rank %d\n", name, g.Local().Rank())
	}
	return 0
}

// tcpUneven checks every collective in float32 and float64 on sizes that
// the ranks do not divide (chunks of different lengths, empty chunks,
// empty buffers), every op, every root, against the in-process group.
func tcpUneven(r *Rank) error {
	if err := unevenOf[float32](r); err != nil {
		return fmt.Errorf("float32: %w", err)
	}
	return unevenOf[float64](r)
}

func unevenOf[T Float](r *Rank) error {
	n, me := r.Size(), r.Rank()
	type collective struct {
		name string
		fn   func(r *Rank, buf []T) ([]T, error)
	}
	var cases []collective
	for _, op := range []Op{Sum, Mean, Max, Min, Product} {
		cases = append(cases, collective{"all-reduce " + op.String(), func(r *Rank, b []T) ([]T, error) { return b, AllReduce(r, b, op) }})
		cases = append(cases, collective{"reduce-scatter " + op.String(), func(r *Rank, b []T) ([]T, error) {
			out := make([]T, len(b)/n)
			return out, ReduceScatter(r, out, b[:len(out)*n], op)
		}})
	}
	for root := range n {
		cases = append(cases, collective{fmt.Sprintf("broadcast root %d", root), func(r *Rank, b []T) ([]T, error) { return b, Broadcast(r, b, root) }})
		cases = append(cases, collective{fmt.Sprintf("reduce mean root %d", root), func(r *Rank, b []T) ([]T, error) { return b, Reduce(r, b, root, Mean) }})
		cases = append(cases, collective{fmt.Sprintf("reduce product root %d", root), func(r *Rank, b []T) ([]T, error) { return b, Reduce(r, b, root, Product) }})
	}
	cases = append(cases,
		collective{"all-gather", func(r *Rank, b []T) ([]T, error) {
			out := make([]T, len(b)*n)
			return out, AllGather(r, out, b)
		}},
		collective{"send-recv", func(r *Rank, b []T) ([]T, error) {
			out := make([]T, len(b))
			if r.Rank() == 0 {
				for q := 1; q < n; q++ {
					if err := Send(r, b, q); err != nil {
						return nil, err
					}
				}
				return b, nil
			}
			return out, Recv(r, out, 0)
		}},
		collective{"barrier", func(r *Rank, b []T) ([]T, error) { return b, r.Barrier() }},
		collective{"split all-gather", func(r *Rank, b []T) ([]T, error) {
			sub, err := r.Split(r.Rank()/2, r.Rank())
			if err != nil {
				return nil, err
			}
			out := make([]T, len(b)*sub.Size())
			if err := AllGather(sub, out, b); err != nil {
				return nil, err
			}
			return out, AllReduce(sub, out, Sum)
		}},
	)
	for _, l := range []int{0, 1, n - 1, 1001, 1<<16 + 3} {
		for i, tc := range cases {
			in := fill[T](n, l, true, uint64(i*100+l))
			want, err := inProcess(n, me, in, tc.fn)
			if err != nil {
				return fmt.Errorf("%s × %d in-process: %w", tc.name, l, err)
			}
			got, err := tc.fn(r, slices.Clone(in[me]))
			if err != nil {
				return fmt.Errorf("%s × %d: %w", tc.name, l, err)
			}
			if !slices.Equal(got, want) {
				return fmt.Errorf("%s × %d on rank %d: %v…; in-process %v…", tc.name, l, me, got[:min(len(got), 5)], want[:min(len(want), 5)])
			}
		}
	}
	return nil
}

// TestTCPCheckWaiter: the check's frames over one connection (a pipe):
// a wait gives up at its deadline, skips the frames of earlier calls,
// refuses a frame of the wrong length, and names a peer whose connection
// ends.
func TestTCPCheckWaiter(t *testing.T) {
	mine, theirs := net.Pipe()
	m := &tcpMesh{me: 0}
	p := newTCPPeer(1, "pipe:1", mine)
	m.peers = []*tcpPeer{nil, p}
	m.readers.Add(1)
	go func() { defer m.readers.Done(); p.readLoop(m) }()
	them := newTCPPeer(0, "pipe:0", theirs)
	defer func() {
		theirs.Close()
		m.readers.Wait()
	}()
	b := &tcpBackend{mesh: m, name: "world", tag: 7, n: 2, me: 0, members: []int{0, 1}}
	chk := tcpCheckNet{b}
	send := func(seq int64, words ...int64) {
		t.Helper()
		var data []byte
		for _, w := range words {
			data = binary.LittleEndian.AppendUint64(data, uint64(w))
		}
		if err := them.write(tcpKey{7, tcpCheck}, seq, 8, data, time.Second); err != nil {
			t.Fatal(err)
		}
	}

	into := make([]int64, 3)
	w, _ := chk.fromRank(1, 1, into)
	start := time.Now()
	if ok, err := w.(sleeper).wait(start.Add(30 * time.Millisecond)); ok || err != nil {
		t.Fatalf("wait with nothing sent = %v, %v; want false, nil", ok, err)
	}
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Errorf("wait returned after %v, before its deadline", d)
	}

	send(0, 9, 9, 9) // a late frame of call 0, whose check gave up on it
	send(1, 4, 5, 6)
	if ok, err := w.(sleeper).wait(time.Time{}); !ok || err != nil || !slices.Equal(into, []int64{4, 5, 6}) {
		t.Fatalf("wait = %v, %v, words %v; want true, nil, [4 5 6]", ok, err, into)
	}

	send(2, 1, 2)
	w, _ = chk.fromRank(2, 1, into)
	if _, err := w.(sleeper).wait(time.Time{}); err == nil || !strings.Contains(err.Error(), "got frame #2 of 16 bytes from rank 1, want 24 bytes") {
		t.Errorf("a frame of 2 words for 3: err = %v", err)
	}

	w, _ = chk.fromRank(3, 1, into)
	theirs.Close()
	_, err := w.(sleeper).wait(time.Time{})
	var lost *TCPPeerError
	if !errors.As(err, &lost) || lost.Rank != 1 || lost.Call != "the call check #3" {
		t.Errorf("wait on a closed connection: err = %v; want a *TCPPeerError naming rank 1 and the call check #3", err)
	}
}
