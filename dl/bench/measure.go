package bench

import (
	"fmt"
	"slices"
	"time"
)

// minSample is the shortest timed sample: a sample repeats the measured
// call until it lasts at least this long, so that the clock's resolution
// and the cost of reading it (tens of nanoseconds) do not matter even for
// calls of a few microseconds.
const minSample = 10 * time.Millisecond

// defaultBudget is the time one measured point may take when a config's
// Budget is 0.
const defaultBudget = 2 * time.Second

// defaultReps is the number of timed samples per point when a config's
// Reps is 0.
const defaultReps = 5

// calibrate times one call of fn, after the caller's warm-up call (first
// touch of memory, code paths and caches are not what a sample measures),
// and returns how many calls make a sample of at least minSample and the
// seconds of that call.
func calibrate(fn func()) (inner int, seconds float64) {
	t0 := time.Now()
	fn()
	call := max(time.Since(t0), time.Nanosecond)
	return int(minSample/call) + 1, call.Seconds()
}

// sample times inner calls of fn and returns the seconds per call.
func sample(fn func(), inner int) float64 {
	t0 := time.Now()
	for range inner {
		fn()
	}
	return time.Since(t0).Seconds() / float64(inner)
}

// median returns the median of xs (the mean of the two middle values for
// an even count), or 0 for no values.  Medians, not means: on a shared
// machine a few samples are slowed by other processes, and the median
// ignores them.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// repsFor returns how many samples of sampleSec seconds fit in budget,
// between 1 and reps.
func repsFor(budget time.Duration, sampleSec float64, reps int) int {
	n := int(budget.Seconds() / sampleSec)
	return max(1, min(reps, n))
}

// orDefault returns v, or def when v is the zero value.
func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// checkByteSizes checks that every size in bytes is a positive whole number of
// float32 elements; op names the benchmark in the error.
func checkByteSizes(op string, sizes []int64) error {
	for _, s := range sizes {
		if s <= 0 || s%4 != 0 {
			return fmt.Errorf("bench: %s: size %d bytes; sizes must be positive multiples of 4 (float32 elements)", op, s)
		}
	}
	return nil
}

// repsAndBudget checks a config's Reps and Budget and returns them with the
// defaults applied for zero values; op names the benchmark in the error.
func repsAndBudget(op string, reps int, budget time.Duration) (int, time.Duration, error) {
	if reps < 0 || budget < 0 {
		return 0, 0, fmt.Errorf("bench: %s: negative Reps (%d) or Budget (%v)", op, reps, budget)
	}
	return orDefault(reps, defaultReps), orDefault(budget, defaultBudget), nil
}
