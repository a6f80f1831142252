package cpuload

import (
	"math"
	"testing"
	"time"
)

// TestFree checks how other programs' cores become the cores left: a core
// is taken from 0.8 of one (13/16), at least one stays.
func TestFree(t *testing.T) {
	for _, c := range []struct {
		cores  int
		others float64
		want   int
	}{
		{2, 0, 2}, {2, 12.0 / 16, 2}, {2, 13.0 / 16, 1}, {2, 1, 1}, {2, 2.5, 1}, {8, 29.0 / 16, 6}, {1, 0, 1}, {4, 2.82, 1}, {4, 2.8, 2},
	} {
		if got := Free(c.cores, c.others); got != c.want {
			t.Errorf("Free(%d, %v) = %d, want %d", c.cores, c.others, got, c.want)
		}
	}
}

// TestOthers checks the arithmetic: the machine's busy time less ours over
// the wall time, never negative, 0 for an empty interval.
func TestOthers(t *testing.T) {
	s := time.Second
	for _, c := range []struct {
		busy0, busy1, ours0, ours1, wall time.Duration
		want                             float64
	}{
		{10 * s, 13 * s, 4 * s, 5 * s, 2 * s, 1},
		{10 * s, 11 * s, 4 * s, 5 * s, 2 * s, 0},
		{10 * s, 11 * s, 4 * s, 6 * s, 2 * s, 0}, // ours read later than the machine's busy time
		{10 * s, 12 * s, 0, 0, 0, 0},
		{0, 3 * s, 0, 0, 4 * s, 0.75},
	} {
		if got := Others(c.busy0, c.busy1, c.ours0, c.ours1, c.wall); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Others(%v, %v, %v, %v, %v) = %v, want %v", c.busy0, c.busy1, c.ours0, c.ours1, c.wall, got, c.want)
		}
	}
}
