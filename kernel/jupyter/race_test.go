//go:build race

package jupyter

// raceEnabled says the test binary runs with the race detector (make
// race-kernel, whose kernel is built with it too).
const raceEnabled = true
