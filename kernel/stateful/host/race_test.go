//go:build race

package host

// raceEnabled says the test binary runs with the race detector.
const raceEnabled = true
