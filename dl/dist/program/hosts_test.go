package program_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/dlbd/dlbd/dl/dist/program"
	"github.com/dlbd/dlbd/dl/dist/program/ddptrain"
	"github.com/dlbd/dlbd/internal/netns"
)

// TestStrategiesAcrossHosts runs DDP and ZeRO-3 on 4 MPI ranks, 2 on
// each of two hosts (network namespaces, internal/netns) that talk over
// TCP only, and compares every rank's parameters and losses with the
// same function in-process, which equals single-device training.
func TestStrategiesAcrossHosts(t *testing.T) {
	if raceEnabled {
		t.Skip("starts 8 processes; run without -race")
	}
	h := netns.ForMPITest(t, 2)
	single := ddptrain.Single()
	for _, name := range []string{"ddp", "zero3"} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			dir := t.TempDir() // one file system: every host writes here
			cmd, err := h.MPIRun(ctx, 2, "-x", helperEnv+"="+name, "-x", program.ResultsEnv+"="+dir, os.Args[0], "-test.run=^$")
			if err != nil {
				t.Fatal(err)
			}
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("mpirun %s across hosts %s and %s: %v\n%s", name, h.Host[0].Addr, h.Host[1].Addr, err, out)
			}
			res, err := program.ReadResults[ddptrain.Result](dir, 4)
			if err != nil {
				t.Fatal(err)
			}
			here, err := program.InProcess(4, helperFuncs[name])
			if err != nil {
				t.Fatal(err)
			}
			compareRuns(t, "mpi across hosts", res, here, &single)
		})
	}
}
