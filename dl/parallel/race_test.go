//go:build race

package parallel_test

// raceEnabled: the race detector slows instrumented Go code much more than
// assembly, which makes timing tests meaningless.
const raceEnabled = true
