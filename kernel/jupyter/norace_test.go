//go:build !race

package jupyter

// raceEnabled says the test binary runs with the race detector.
const raceEnabled = false
