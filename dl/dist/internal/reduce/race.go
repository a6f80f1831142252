//go:build race

package reduce

// raceEnabled turns the assembly kernels off under the race detector, which
// cannot see memory accessed from assembly: with the Go kernels it checks
// every read and write of the collectives' zero-copy buffers.
const raceEnabled = true
