//go:build race

package gemm

// raceEnabled: the race detector slows the portable kernel ~20x, so time
// bounds are relaxed.
const raceEnabled = true
