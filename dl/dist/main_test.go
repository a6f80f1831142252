package dist

import (
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine is left running:
// every rank, async queue and watchdog must have exited. Started by
// mpirun with DLBD_MPI_HELPER set, the test binary is instead one rank of
// an MPI job (mpi_test.go).
func TestMain(m *testing.M) {
	if h := os.Getenv(mpiHelperEnv); h != "" {
		os.Exit(mpiHelper(h))
	}
	if h := os.Getenv(tcpHelperEnv); h != "" {
		os.Exit(tcpHelper(h))
	}
	if os.Getenv("DLBD_NCCL_HELPER") != "" {
		os.Exit(ncclHelper())
	}
	// The estimate of dynamic threads (dl.SetDynamicThreads) samples the
	// machine's load in a goroutine that lives as long as the process.
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/dlbd/dlbd/dl/internal/kernels/gemm.sample"))
}

// runWith runs fn on a new group of n ranks with cfg and fails the test if
// Run does not return within a generous bound (a deadlock the watchdog
// missed).
func runWith(t *testing.T, cfg Config, fn func(r *Rank) error) (*Group, error) {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- g.Run(fn) }()
	select {
	case err := <-done:
		return g, err
	case <-time.After(60 * time.Second):
		t.Fatalf("Run(%d ranks) did not return: deadlock", cfg.WorldSize)
		return nil, nil
	}
}

// integers fills n buffers of l values with small integers (so sums,
// products, means are exactly representable) or normal values.
func fill[T Float](n, l int, ints bool, seed uint64) [][]T {
	rng := rand.New(rand.NewPCG(seed, 7))
	bufs := make([][]T, n)
	for r := range bufs {
		bufs[r] = make([]T, l)
		for i := range bufs[r] {
			if ints {
				bufs[r][i] = T(rng.IntN(7) - 3)
			} else {
				bufs[r][i] = T(rng.NormFloat64())
			}
		}
	}
	return bufs
}

func clone2[T Float](b [][]T) [][]T {
	out := make([][]T, len(b))
	for i := range b {
		out[i] = append([]T(nil), b[i]...)
	}
	return out
}

// reference reduces element i of every buffer in float64.
func reference[T Float](bufs [][]T, op Op) []float64 {
	ref := make([]float64, len(bufs[0]))
	for i := range ref {
		v := float64(bufs[0][i])
		for r := 1; r < len(bufs); r++ {
			x := float64(bufs[r][i])
			switch op {
			case Sum, Mean:
				v += x
			case Max:
				v = max(v, x)
			case Min:
				v = min(v, x)
			case Product:
				v *= x
			}
		}
		if op == Mean {
			// The exact sum, divided once in T's precision (as the kernels do).
			v = float64(T(v) / T(len(bufs)))
		}
		ref[i] = v
	}
	return ref
}
