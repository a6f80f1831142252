package program_test

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"testing"

	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/dist/program"
	"github.com/dlbd/dlbd/dl/dist/program/ddptrain"
)

// BenchmarkDDPStep is the DDP step time of ddptrain.StepTime on procs MPI
// processes (one launch per iteration; the ranks time their own steps).
func BenchmarkDDPStep(b *testing.B) {
	if _, err := exec.LookPath("mpirun"); err != nil {
		b.Skip("mpirun not found")
	}
	for _, procs := range []int{1, 2} {
		b.Run(fmt.Sprintf("backend=mpi/procs=%d", procs), func(b *testing.B) {
			var ms float64
			for i := 0; i < b.N; i++ {
				res, err := program.Run(context.Background(), ddptrain.StepTime, program.Config{NProc: procs, Backend: dist.MPI, Stdout: io.Discard})
				if err != nil {
					b.Fatal(err)
				}
				ms = res[0].MsPerStep
			}
			b.ReportMetric(ms, "ms")
		})
	}
}
