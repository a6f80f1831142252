package frontend

import (
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
)

// BenchmarkRoundTrip times a cell on the fake kernel (an execute_request,
// a stream output, the execute_reply and the busy/idle statuses) with the
// client talking to the kernel directly and through the front end: the
// difference is the front end's cost per cell.
//
//	go test -run '^$' -bench RoundTrip ./kernel/frontend
func BenchmarkRoundTrip(b *testing.B) {
	for _, role := range []string{"kernel", "frontend"} {
		name := role
		if role == "kernel" {
			name = "direct"
		}
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
