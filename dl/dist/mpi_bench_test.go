package dist

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// MPI all-reduce bandwidth: mpirun -np n of this test binary (the mpi
// backend, call check included) and of a C program calling MPI_Allreduce
// directly (the anchor), float32 buffers of S MiB, NCCL's busbw =
// 2(n-1)/n·S/t. One launch per benchmark iteration; the ranks time their
// own loop, so the launch is not measured.

var mpiBenchSizes = []int{1, 4, 16, 64}

// mpiIters keeps each measured loop near 100 ms on one machine.
func mpiIters(mib int) int { return max(4, 64/mib) }

var usLine = regexp.MustCompile(`(?m)^us ([0-9.]+)$`)

func benchMPIJob(b *testing.B, n, mib int, run func(ctx context.Context) ([]byte, error)) {
	var us float64
	for i := 0; i < b.N; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		out, err := run(ctx)
		cancel()
		m := usLine.FindSubmatch(out)
		if err != nil || m == nil {
			b.Fatalf("mpirun: %v\n%s", err, out)
		}
		us, _ = strconv.ParseFloat(string(m[1]), 64)
	}
	s := float64(mib << 20)
	b.ReportMetric(us, "us")
	b.ReportMetric(2*float64(n-1)/float64(n)*s/(us*1e-6)/1e9, "busbw-GB/s")
}

// BenchmarkMPIAllReduce is dist.AllReduce on the mpi backend.
func BenchmarkMPIAllReduce(b *testing.B) {
	for _, n := range []int{2, 4} {
		for _, mib := range mpiBenchSizes {
			b.Run(fmt.Sprintf("n=%d/S=%dMiB", n, mib), func(b *testing.B) {
				benchMPIJob(b, n, mib, func(ctx context.Context) ([]byte, error) {
					cmd := mpirunBench(b, ctx, n, "bench", os.Args[0], "-test.run=^$")
					cmd.Env = append(os.Environ(), fmt.Sprintf("DLBD_BENCH_BYTES=%d", mib<<20), fmt.Sprintf("DLBD_BENCH_ITERS=%d", mpiIters(mib)))
					return cmd.CombinedOutput()
				})
			})
		}
	}
}

// BenchmarkMPIAllReduceC is the anchor: Open MPI's MPI_Allreduce from C
// (testdata/osu_allreduce.c, built with mpicc).
func BenchmarkMPIAllReduceC(b *testing.B) {
	mpicc, err := exec.LookPath("mpicc")
	if err != nil {
		b.Skip("mpicc not found: apt-get install libopenmpi-dev")
	}
	bin := filepath.Join(b.TempDir(), "osu_allreduce")
	if out, err := exec.Command(mpicc, "-O2", "-o", bin, "testdata/osu_allreduce.c").CombinedOutput(); err != nil {
		b.Fatalf("mpicc: %v\n%s", err, out)
	}
	for _, n := range []int{2, 4} {
		for _, mib := range mpiBenchSizes {
			b.Run(fmt.Sprintf("n=%d/S=%dMiB", n, mib), func(b *testing.B) {
				benchMPIJob(b, n, mib, func(ctx context.Context) ([]byte, error) {
					return mpirunBench(b, ctx, n, "", bin, strconv.Itoa(mib<<20), strconv.Itoa(mpiIters(mib))).CombinedOutput()
				})
			})
		}
	}
}

// mpirunBench is mpirunCmd for benchmarks and any program.
func mpirunBench(b *testing.B, ctx context.Context, np int, helper string, prog ...string) *exec.Cmd {
	mpirun, err := exec.LookPath("mpirun")
	if err != nil {
		b.Skip("mpirun not found")
	}
	// Unbound ranks that yield while they wait, and Go ranks with the
	// GOMAXPROCS of their share of the cores, as dl/dist/launch runs them.
	args := []string{"-np", strconv.Itoa(np), "--oversubscribe", "--bind-to", "none", "--mca", "mpi_yield_when_idle", "1"}
	if os.Geteuid() == 0 {
		args = append(args, "--allow-run-as-root")
	}
	if helper != "" {
		args = append(args, "-x", mpiHelperEnv+"="+helper, "-x", "DLBD_BENCH_BYTES", "-x", "DLBD_BENCH_ITERS", "-x", launchProcs(np))
	}
	return exec.CommandContext(ctx, mpirun, append(args, prog...)...)
}

// mpiBench is the "bench" helper: rank 0 prints "us <per call>", the
// slowest rank's time, as the C anchor does.
func mpiBench(r *Rank) error {
	bytes, _ := strconv.Atoi(os.Getenv("DLBD_BENCH_BYTES"))
	iters, _ := strconv.Atoi(os.Getenv("DLBD_BENCH_ITERS"))
	buf := make([]float32, bytes/4)
	for i := range buf {
		buf[i] = float32(i % 7)
	}
	for range 2 {
		if err := AllReduce(r, buf, Sum); err != nil {
			return err
		}
	}
	if err := r.Barrier(); err != nil {
		return err
	}
	start := time.Now()
	for range iters {
		if err := AllReduce(r, buf, Sum); err != nil {
			return err
		}
	}
	t := []float64{float64(time.Since(start).Microseconds()) / float64(iters)}
	if err := Reduce(r, t, 0, Max); err != nil {
		return err
	}
	if r.Rank() == 0 {
		fmt.Printf("us %.3f\n", t[0])
	}
	return nil
}

// launchProcs is the GOMAXPROCS setting dl/dist/launch gives each of a
// node's perNode processes: the node's CPUs / perNode, at least 1.
func launchProcs(perNode int) string {
	return "GOMAXPROCS=" + strconv.Itoa(max(1, runtime.NumCPU()/perNode))
}
