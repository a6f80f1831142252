//go:build !race

package program_test

// raceEnabled: the race detector is on (go test -race).
const raceEnabled = false
