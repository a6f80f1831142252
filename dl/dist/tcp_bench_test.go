package dist

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"testing"
	"time"
)

// BenchmarkTCPAllReduce is dist.AllReduce on the tcp backend, n processes
// of this test binary on 127.0.0.1 (the loopback: memory copies through
// the kernel, no network), float32 buffers of S MiB, the same helper and
// figures as BenchmarkMPIAllReduce (mpiBench: rank 0 prints the slowest
// rank's time per call), to run beside it:
//
//	go test -run '^$' -bench 'MPIAllReduce$|TCPAllReduce' -benchtime 1x ./dl/dist/
func BenchmarkTCPAllReduce(b *testing.B) {
	for _, n := range []int{2, 4} {
		for _, mib := range mpiBenchSizes {
			b.Run(fmt.Sprintf("n=%d/S=%dMiB", n, mib), func(b *testing.B) {
				benchMPIJob(b, n, mib, func(ctx context.Context) ([]byte, error) {
					ranks := []int{0, 1, 2, 3}[:n]
					j := startTCP(b, n, ranks, "bench", time.Minute, launchProcs(n),
						fmt.Sprintf("DLBD_BENCH_BYTES=%d", mib<<20), fmt.Sprintf("DLBD_BENCH_ITERS=%d", mpiIters(mib)))
					err := errors.Join(j.wait(2 * time.Minute)...)
					return rankPrefix.ReplaceAll([]byte(j.out.String()), nil), err
				})
			})
		}
	}
}

var rankPrefix = regexp.MustCompile(`(?m)^\[rank \d+\] `)
