package bench

import (
	"fmt"
	"sync"
	"time"

	"github.com/dlbd/dlbd/dl/dist"
)

// AllReduceConfig describes a sweep of all-reduces between the ranks of a
// local dist group: goroutines of this process reducing []float32 buffers
// in its memory, as dist.Run's ranks do.  The zero value measures the three algorithms with 2 and 4
// ranks at 1 MiB and 16 MiB.
type AllReduceConfig struct {
	// Ranks are the group sizes; nil means 2 and 4.
	Ranks []int
	// Sizes are the bytes of each rank's buffer (float32, multiples of 4);
	// nil means 1 MiB and 16 MiB.
	Sizes []int64
	// Algorithms to compare; nil means SharedMemory, Ring and Tree.
	Algorithms []dist.Algorithm
	// Reps is the number of timed samples per point; 0 means 5.
	Reps int
	// Budget is the time one group size and buffer size may take (all
	// algorithms); 0 means 2 s.
	Budget time.Duration
}

// AllReduceResult is one measured point of an AllReduce sweep.
type AllReduceResult struct {
	Algorithm string // "shared-memory", "ring" or "tree"
	Ranks     int
	Bytes     int64 // bytes of each rank's buffer (S)
	// Seconds is the median time of one all-reduce: from the moment the
	// last rank enters it until the last rank leaves it (an all-reduce
	// cannot finish before every rank has arrived).
	Seconds float64
	// AlgBW = S / Seconds and BusBW = 2(n−1)/n · S / Seconds, in GB/s, as
	// nccl-tests reports them: BusBW is what each rank's link must carry
	// in a ring, so it compares across group sizes.
	AlgBW, BusBW float64
	Samples      []float64 // seconds per all-reduce of each sample
	Inner        int       // all-reduces per sample
}

// AllReduce measures in-place all-reduces (dist.Mean, the average of DDP's
// gradients) with every algorithm, group size and buffer size of cfg,
// interleaving the algorithms, and reports medians.  Results are in order
// of group size, buffer size, then cfg.Algorithms.
//
// Course: "Data Parallelism (DP)".
func AllReduce(cfg AllReduceConfig) ([]AllReduceResult, error) {
	ranks := orDefaultSlice(cfg.Ranks, []int{2, 4})
	sizes := orDefaultSlice(cfg.Sizes, []int64{1 << 20, 16 << 20})
	algs := orDefaultSlice(cfg.Algorithms, []dist.Algorithm{dist.SharedMemory, dist.Ring, dist.Tree})
	for _, n := range ranks {
		if n < 1 {
			return nil, fmt.Errorf("bench: AllReduce: %d ranks; a group needs at least 1", n)
		}
	}
	if err := checkByteSizes("AllReduce", sizes); err != nil {
		return nil, err
	}
	reps, budget, err := repsAndBudget("AllReduce", cfg.Reps, cfg.Budget)
	if err != nil {
		return nil, err
	}
	var out []AllReduceResult
	for _, n := range ranks {
		for _, size := range sizes {
			rs, err := allReducePoint(n, size, algs, reps, budget)
			if err != nil {
				return nil, err
			}
			out = append(out, rs...)
		}
	}
	return out, nil
}

// allReducePoint measures every algorithm for one group size and buffer
// size.
func allReducePoint(n int, size int64, algs []dist.Algorithm, reps int, budget time.Duration) ([]AllReduceResult, error) {
	bufs := make([][]float32, n)
	for r := range bufs {
		bufs[r] = make([]float32, size/4)
		for i := range bufs[r] {
			bufs[r][i] = float32(r + 1)
		}
	}
	type runner struct {
		g     *dist.Group
		res   AllReduceResult
		reps  int
		inner int
	}
	runners := make([]*runner, len(algs))
	share := budget / time.Duration(len(algs))
	for i, alg := range algs {
		g, err := dist.New(dist.Config{WorldSize: n, AllReduce: alg, KeepRecords: -1})
		if err != nil {
			return nil, fmt.Errorf("bench: AllReduce: %w", err)
		}
		ru := &runner{g: g, res: AllReduceResult{Algorithm: alg.String(), Ranks: n, Bytes: size}}
		if _, err := timeAllReduce(g, bufs, 1); err != nil { // warm-up
			return nil, err
		}
		one, err := timeAllReduce(g, bufs, 1)
		if err != nil {
			return nil, err
		}
		ru.inner = int(minSample.Seconds()/max(one, 1e-9)) + 1
		ru.reps = repsFor(share, one*float64(ru.inner), reps)
		runners[i] = ru
	}
	for round := range reps {
		for _, ru := range runners {
			if round >= ru.reps {
				continue
			}
			t, err := timeAllReduce(ru.g, bufs, ru.inner)
			if err != nil {
				return nil, err
			}
			ru.res.Samples = append(ru.res.Samples, t)
		}
	}
	out := make([]AllReduceResult, len(runners))
	for i, ru := range runners {
		r := ru.res
		r.Inner = ru.inner
		r.Seconds = median(r.Samples)
		r.AlgBW = float64(size) / r.Seconds / 1e9
		r.BusBW = 2 * float64(n-1) / float64(n) * r.AlgBW
		out[i] = r
	}
	return out, nil
}

// timeAllReduce runs inner back-to-back all-reduces on every rank of g
// and returns the seconds per all-reduce, from the last rank's start to
// the last rank's end.
func timeAllReduce(g *dist.Group, bufs [][]float32, inner int) (float64, error) {
	var (
		mu         sync.Mutex
		start, end time.Time
	)
	err := g.Run(func(r *dist.Rank) error {
		if err := r.Barrier(); err != nil {
			return err
		}
		t0 := time.Now()
		for range inner {
			if err := dist.AllReduce(r, bufs[r.Rank()], dist.Mean); err != nil {
				return err
			}
		}
		t1 := time.Now()
		mu.Lock()
		if t0.After(start) {
			start = t0
		}
		if t1.After(end) {
			end = t1
		}
		mu.Unlock()
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("bench: AllReduce: %w", err)
	}
	return end.Sub(start).Seconds() / float64(inner), nil
}
