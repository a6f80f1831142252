//go:build !linux

package parallel

import "time"

// threadCPUTime is not available on this system: op durations fall back to
// wall-clock time.
//
// Course: "Pipeline Parallelism (PP)" (the device clock of pp_timeline.go).
// Paper: Huang et al. 2019, GPipe (arXiv:1811.06965).
func threadCPUTime() (time.Duration, bool) { return 0, false }
