package dist

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// The mpi backend against the in-process one: the test binary runs itself
// under mpirun, 4 processes, each a rank that checks every collective
// against what an in-process group of 4 computes from the same inputs.

const mpiHelperEnv = "DLBD_MPI_HELPER"

// mpirunCmd returns the command that runs this test binary as np MPI
// ranks in helper mode; it skips the test when Open MPI is missing,
// unless DLBD_REQUIRE_MPI=1.
func mpirunCmd(t *testing.T, ctx context.Context, np int, helper string) *exec.Cmd {
	t.Helper()
	mpirun, err := exec.LookPath("mpirun")
	if err != nil {
		if os.Getenv("DLBD_REQUIRE_MPI") == "1" {
			t.Fatal("mpirun not found (DLBD_REQUIRE_MPI=1): scripts/setup.sh --test installs Open MPI")
		}
		t.Skip("mpirun not found: apt-get install openmpi-bin libopenmpi3")
	}
	args := []string{"-np", fmt.Sprint(np), "--oversubscribe"}
	if os.Geteuid() == 0 {
		args = append(args, "--allow-run-as-root") // CI runs as root
	}
	args = append(args, "-x", mpiHelperEnv+"="+helper, os.Args[0], "-test.run=^$")
	cmd := exec.CommandContext(ctx, mpirun, args...)
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// runMPI runs the helper on 4 ranks within a bound and returns its output.
func runMPI(t *testing.T, helper string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := mpirunCmd(t, ctx, 4, helper).CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("mpirun %s did not end within 60 s:\n%s", helper, out)
	}
	return string(out), err
}

func TestMPICollectives(t *testing.T) {
	out, err := runMPI(t, "collectives")
	if err != nil || strings.Count(out, "collectives ok on rank") != 4 {
		t.Fatalf("mpirun: %v\n%s", err, out)
	}
}

func TestMPIMismatchedSizes(t *testing.T) {
	out, err := runMPI(t, "mismatch")
	if err == nil {
		t.Fatalf("a job with mismatched all-reduce sizes succeeded:\n%s", out)
	}
	want := "collective mismatch in group world, call #1: rank 1 called all-reduce(float64 × 11, sum), rank 0 called all-reduce(float64 × 10, sum)"
	if !strings.Contains(out, want) {
		t.Errorf("output does not contain %q:\n%s", want, out)
	}
}

func TestMPIHungRankNamed(t *testing.T) {
	start := time.Now()
	out, err := runMPI(t, "hung")
	if err == nil {
		t.Fatalf("a job with a hung rank succeeded:\n%s", out)
	}
	if want := "rank 2 did not arrive at all-reduce #0 of world within 500ms"; !strings.Contains(out, want) {
		t.Errorf("output does not contain %q:\n%s", want, out)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the job took %v to end", d)
	}
}

// mpiHelper is one rank of the helper job; it returns the exit code.
func mpiHelper(name string) int {
	g, err := Init(Config{Timeout: 500 * time.Millisecond})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if g.Backend() != MPI || (g.Size() != 4 && name != "bench") {
		fmt.Fprintf(os.Stderr, "Init: backend %s, size %d; want mpi, 4\n", g.Backend(), g.Size())
		return 2
	}
	var fn func(r *Rank) error
	switch name {
	case "collectives":
		fn = mpiCollectives
	case "bench":
		fn = mpiBench
	case "mismatch":
		fn = func(r *Rank) error {
			if err := AllReduce(r, make([]float64, 10), Sum); err != nil {
				return err
			}
			return AllReduce(r, make([]float64, 10+r.Rank()), Sum) // call #1: sizes differ
		}
	case "spin":
		fn = mpiSpin
	case "hung":
		fn = func(r *Rank) error {
			if r.Rank() == 2 {
				time.Sleep(time.Hour) // hangs outside dist
			}
			return AllReduce(r, make([]float32, 4), Sum)
		}
	}
	if err := g.Run(fn); err != nil {
		return 1 // not reached after MPI_Abort
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

// mpiSpin is the "spin" helper: all-reduces for up to a minute, saying
// once that it runs, so that a test can kill one of its ranks mid-job.
func mpiSpin(r *Rank) error {
	buf := make([]float32, 1024)
	for i, start := 0, time.Now(); time.Since(start) < time.Minute; i++ {
		if err := AllReduce(r, buf, Sum); err != nil {
			return err
		}
		if i == 0 {
			fmt.Printf("spinning on rank %d\n", r.Rank())
		}
		time.Sleep(time.Millisecond) // leaves the cores to the test
	}
	return nil
}

// inProcess runs fn on an in-process group of n ranks over copies of the
// inputs and returns rank me's result.
func inProcess[T Float](n, me int, in [][]T, fn func(r *Rank, buf []T) ([]T, error)) ([]T, error) {
	res := make([][]T, n)
	bufs := clone2(in)
	err := Run(n, func(r *Rank) error {
		out, err := fn(r, bufs[r.Rank()])
		res[r.Rank()] = out
		return err
	})
	return res[me], err
}

// mpiCollectives compares every collective with the in-process result:
// bit for bit for copies and for sums of small integers (exact in any
// order); for random float64 sums within a few ulps, because MPI picks its
// own reduction order.
func mpiCollectives(r *Rank) error {
	n, me := r.Size(), r.Rank()
	type collective struct {
		name  string
		exact bool
		fn    func(r *Rank, buf []float64) ([]float64, error)
	}
	cases := []collective{
		{"all-reduce sum", false, func(r *Rank, b []float64) ([]float64, error) { return b, AllReduce(r, b, Sum) }},
		{"all-reduce mean", false, func(r *Rank, b []float64) ([]float64, error) { return b, AllReduce(r, b, Mean) }},
		{"all-reduce max", true, func(r *Rank, b []float64) ([]float64, error) { return b, AllReduce(r, b, Max) }},
		{"reduce min", true, func(r *Rank, b []float64) ([]float64, error) { return b, Reduce(r, b, 1, Min) }},
		{"broadcast", true, func(r *Rank, b []float64) ([]float64, error) { return b, Broadcast(r, b, 2) }},
		{"reduce-scatter", false, func(r *Rank, b []float64) ([]float64, error) {
			out := make([]float64, len(b)/n)
			return out, ReduceScatter(r, out, b, Sum)
		}},
		{"all-gather", true, func(r *Rank, b []float64) ([]float64, error) {
			out := make([]float64, len(b)*n)
			return out, AllGather(r, out, b)
		}},
		{"send-recv ring", true, func(r *Rank, b []float64) ([]float64, error) {
			out := make([]float64, len(b))
			if err := Send(r, b, (r.Rank()+1)%n); err != nil {
				return nil, err
			}
			return out, Recv(r, out, (r.Rank()+n-1)%n)
		}},
		{"split", true, func(r *Rank, b []float64) ([]float64, error) {
			sub, err := r.Split(r.Rank()%2, -r.Rank())
			if err != nil {
				return nil, err
			}
			return b, AllReduce(sub, b, Sum)
		}},
	}
	for i, tc := range cases {
		for _, ints := range []bool{true, false} {
			in := fill[float64](n, 4096, ints, uint64(i))
			want, err := inProcess(n, me, in, tc.fn)
			if err != nil {
				return fmt.Errorf("%s in-process: %w", tc.name, err)
			}
			got, err := tc.fn(r, slices.Clone(in[me]))
			if err != nil {
				return fmt.Errorf("%s: %w", tc.name, err)
			}
			for j := range want {
				if d := got[j] - want[j]; d != 0 && (tc.exact || ints || d > 1e-12 || d < -1e-12) {
					return fmt.Errorf("%s (ints=%v) on rank %d: [%d] = %v; in-process %v", tc.name, ints, me, j, got[j], want[j])
				}
			}
		}
	}
	// float32 and the tensor form (what DDP calls), once each.
	b := fill[float32](n, 1000, true, 99)
	want, err := inProcess(n, me, b, func(r *Rank, v []float32) ([]float32, error) { return v, AllReduce(r, v, Sum) })
	if err != nil {
		return err
	}
	got := slices.Clone(b[me])
	if err := AllReduce(r, got, Sum); err != nil || !slices.Equal(got, want) {
		return errors.Join(err, fmt.Errorf("float32 all-reduce differs from in-process"))
	}
	if err := r.Barrier(); err != nil {
		return err
	}
	fmt.Println("collectives ok")
	return nil
}
