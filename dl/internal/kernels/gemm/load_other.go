//go:build !linux

package gemm

// machineBusy reports false: the estimate of dynamic threads reads Linux's
// /proc/stat, so elsewhere every core stays available.
func machineBusy(allowed map[int]bool) (int64, bool) { return 0, false }

// affinity is not needed without machineBusy.
func affinity() map[int]bool { return nil }

// ownCPU is not needed without machineBusy.
func ownCPU() float64 { return 0 }
