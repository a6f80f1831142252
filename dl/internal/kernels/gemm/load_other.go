//go:build !linux

package gemm

// machineBusy reports false: the estimate of dynamic threads reads Linux's
// /proc/stat, so elsewhere every core stays available.
func machineBusy(cpus []int) (int64, bool) { return 0, false }

// affinity is not needed without machineBusy.
func affinity() []int { return nil }

// ownCPU is not needed without machineBusy.
func ownCPU() float64 { return 0 }
