package program_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/dist/launch"
	"github.com/dlbd/dlbd/dl/dist/program"
	"github.com/dlbd/dlbd/dl/dist/program/ddptrain"
)

func needMPI(t *testing.T) {
	if _, err := exec.LookPath("mpirun"); err != nil && os.Getenv("DLBD_REQUIRE_MPI") != "1" {
		t.Skip("mpirun not found: apt-get install openmpi-bin libopenmpi3")
	}
}

// close compares parameters: float64 training, where only the order of
// the all-reduce's additions differs between backends.
func closeTo(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-12 {
			return false
		}
	}
	return true
}

// TestStrategiesOnMPI launches DDP and ZeRO-3 on 4 MPI
// processes (and in one process as 4 goroutines) and compares every
// rank's parameters with single-device training on the whole batch; and
// 3D parallelism on 8 MPI processes with the same run in-process.
func TestStrategiesOnMPI(t *testing.T) {
	needMPI(t)
	if raceEnabled {
		// The launched programs are built without the detector anyway, and
		// dl/parallel's race tests cover the same DDP and ZeRO in-process.
		t.Skip("launches 12 processes; run without -race")
	}
	single := ddptrain.Single()
	for _, tc := range []struct {
		name    string
		fn      func(r *dist.Rank) (ddptrain.Result, error)
		backend dist.Backend
		n       int
		want    *ddptrain.Result // nil: compare with in-process only
	}{
		{"ddp/mpi", ddptrain.DDP, dist.MPI, 4, &single},
		{"zero3/mpi", ddptrain.ZeRO3, dist.MPI, 4, &single},
		{"ddp/inprocess", ddptrain.DDP, dist.InProcess, 4, &single},
		// TP all-reduces and all-gathers, PP sends and receives, DP, and the
		// grid's splits, on 8 processes (parallel's TestGrid3DMatchesDense
		// equates the in-process run with one device).
		{"3d/mpi", ddptrain.Grid3D, dist.MPI, 8, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			var out bytes.Buffer
			res, err := program.Run(ctx, tc.fn, program.Config{NProc: tc.n, Backend: tc.backend, Stdout: &out})
			if err != nil {
				t.Fatalf("Run: %v\n%s", err, out.String())
			}
			here, err := program.InProcess(tc.n, tc.fn)
			if err != nil {
				t.Fatal(err)
			}
			compareRuns(t, string(tc.backend), res, here, tc.want)
		})
	}
}

// compareRuns compares every rank's result of a job on backend (res)
// with the same function run in-process (here), and here with
// single-device training (want; nil: not compared).
func compareRuns(t *testing.T, backend string, res, here []ddptrain.Result, want *ddptrain.Result) {
	t.Helper()
	if len(res) != len(here) {
		t.Fatalf("%d results on %s, %d in-process", len(res), backend, len(here))
	}
	for r := range res {
		if !closeTo(res[r].Params, here[r].Params) {
			t.Errorf("rank %d: parameters (or gradients) on %s differ from in-process\n got %v\nhere %v", r, backend, res[r].Params[:4], here[r].Params[:4])
		}
		if want != nil && !closeTo(here[r].Params, want.Params) {
			t.Errorf("rank %d: parameters differ from single-device training\nhere %v\nwant %v", r, here[r].Params[:4], want.Params[:4])
		}
		if !closeTo(res[r].Losses, here[r].Losses) {
			t.Errorf("rank %d: losses %v on %s, %v in-process", r, res[r].Losses, backend, here[r].Losses)
		}
	}
}

func TestRunRefusesClosures(t *testing.T) {
	_, err := program.Run(context.Background(), func(r *dist.Rank) (int, error) { return 0, nil }, program.Config{NProc: 2})
	if err == nil || !strings.Contains(err.Error(), "not a top-level function") {
		t.Fatalf("Run(closure) = %v; want an error saying it is not a top-level function", err)
	}
}

// TestRankErrorOnMPI: a rank's error ends the MPI job (MPI_Abort) and Run
// returns a *launch.RankFailure naming that rank and its error, as
// InProcess returns a *dist.RankError.
func TestRankErrorOnMPI(t *testing.T) {
	needMPI(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out bytes.Buffer
	_, err := program.Run(ctx, ddptrain.FailOnRank2, program.Config{NProc: 4, Backend: dist.MPI, Stdout: &out})
	var f *launch.RankFailure
	if !errors.As(err, &f) || f.Rank != 2 || f.Status != "called MPI_Abort" || !strings.Contains(f.Cause, "ran out of data at step 3") {
		t.Fatalf("Run = %v; want a *launch.RankFailure for rank 2, which called MPI_Abort with its error\n%s", err, out.String())
	}
	_, err = program.InProcess(4, ddptrain.FailOnRank2)
	var re *dist.RankError
	if !errors.As(err, &re) || re.Rank != 2 {
		t.Fatalf("InProcess = %v; want a *dist.RankError for rank 2", err)
	}
}
