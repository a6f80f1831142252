package dist_test

import (
	"bytes"
	"context"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/dist/launch"
)

// TestNCCLBackend launches this test binary as the ranks of an nccl job,
// one process per GPU (dlbd run --backend nccl): the unique id travels
// through the launcher's store, and the collectives run on the GPUs. One
// GPU makes a job of one rank (the id, the store and NCCL still run for
// real); two or more make a multi-rank job.
func TestNCCLBackend(t *testing.T) {
	n := dl.DeviceCount(dl.CUDAKind)
	if n == 0 {
		if os.Getenv("DL_REQUIRE_CUDA") == "1" {
			t.Fatal("no CUDA device (DL_REQUIRE_CUDA=1)")
		}
		t.Skip("no CUDA device")
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	err := launch.Run(ctx, launch.Config{NProcPerNode: min(n, 4), Backend: dist.NCCL, MasterPort: port,
		Stdout: &out, Stderr: &out, Env: []string{"DLBD_NCCL_HELPER=1"}}, os.Args[0], "-test.run=^$")
	if err != nil || strings.Count(out.String(), "nccl ok") != min(n, 4) {
		t.Fatalf("nccl job: %v\n%s", err, out.String())
	}
}
