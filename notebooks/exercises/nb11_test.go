package exercises

import (
	"context"
	"io"
	"os"
	"os/exec"
	"testing"

	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/dist/program"
	"github.com/dlbd/dlbd/dl/dist/program/ddptrain"
)

// refLaunch is the reference solution of notebook 11's exercise 1, for
// ddptrain.DDP (the notebook's Entrenar is a cell's function).
func refLaunch(n int) ([]ddptrain.Result, error) {
	return program.Run(context.Background(), ddptrain.DDP, program.Config{NProc: n, Backend: dist.MPI, Stdout: io.Discard})
}

func TestLaunchOnProcesses(t *testing.T) {
	for _, c := range []struct {
		name    string
		f       func(n int) ([]ddptrain.Result, error)
		mpi     bool // the case launches processes
		ok      bool
		isBlank bool
		hint    string
	}{
		{"reference", refLaunch, true, true, false, "mismo entrenamiento"},
		{"altered", func(n int) ([]ddptrain.Result, error) {
			res, err := refLaunch(n)
			if err == nil {
				res[1].Params[0] += 1e-6
			}
			return res, err
		}, true, false, false, "rank 1"},
		{"goroutines", func(n int) ([]ddptrain.Result, error) { return program.InProcess(n, ddptrain.DDP) }, false, false, false, "goroutines"},
		{"fixed 4", func(int) ([]ddptrain.Result, error) { return program.InProcess(4, ddptrain.DDP) }, false, false, false, "uno por rank"},
		{"closure", func(n int) ([]ddptrain.Result, error) {
			return program.Run(context.Background(), func(r *dist.Rank) (ddptrain.Result, error) { return ddptrain.DDP(r) }, program.Config{NProc: n})
		}, false, false, false, "not a top-level function"},
		{"panics", func(n int) ([]ddptrain.Result, error) { return []ddptrain.Result{}[:n], nil }, false, false, false, "pánico"},
		{"blank", func(int) ([]ddptrain.Result, error) { return nil, nil }, false, false, true, "lanzar"},
		{"nil", nil, false, false, true, "lanzar"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := exec.LookPath("mpirun"); c.mpi && err != nil && os.Getenv("DLBD_REQUIRE_MPI") != "1" {
				t.Skip("mpirun not found: apt-get install openmpi-bin libopenmpi3")
			}
			expect(t, "LaunchOnProcesses", LaunchOnProcesses(c.f, ddptrain.DDP), c.ok, c.isBlank, c.hint)
		})
	}
}

func TestNb11Close(t *testing.T) {
	type r struct {
		A []float64
		B string
	}
	for _, c := range []struct {
		a, b r
		want bool
	}{
		{r{[]float64{1, 2}, "x"}, r{[]float64{1, 2 + 1e-13}, "x"}, true},
		{r{[]float64{1, 2}, "x"}, r{[]float64{1, 2.1}, "x"}, false},
		{r{[]float64{1, 2}, "x"}, r{[]float64{1}, "x"}, false},
		{r{[]float64{1}, "x"}, r{[]float64{1}, "y"}, false},
	} {
		if got := nb11Close(c.a, c.b, 1e-12); got != c.want {
			t.Errorf("nb11Close(%v, %v) = %v; want %v", c.a, c.b, got, c.want)
		}
	}
}
