//go:build !linux

package parallel

import "time"

// threadCPUTime is not available on this system: op durations fall back to
// wall-clock time.
func threadCPUTime() (time.Duration, bool) { return 0, false }
