package shim

import (
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
)

// BenchmarkRoundTrip times a cell on the fake kernel (an execute_request,
// a stream output, the execute_reply and the busy/idle statuses) with the
// client talking to the kernel directly and through the shim: the
// difference is the shim's cost per cell.
//
//	go test -run '^$' -bench RoundTrip ./kernel/shim
func BenchmarkRoundTrip(b *testing.B) {
	for _, role := range []string{"kernel", "shim"} {
		name := map[string]string{"kernel": "direct", "shim": "shim"}[role]
		b.Run(name, func(b *testing.B) {
			c := start(b, role)
			ctx := kerneltest.Context(b, time.Minute)
			for b.Loop() {
				if _, err := c.Execute(ctx, "hola"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
