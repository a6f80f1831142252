package data

import (
	"math/bits"
	"math/rand/v2"
)

// Sampler chooses which examples an epoch visits and in what order, like
// torch.utils.data.Sampler. The order is a pure function of the epoch, so a
// run restarted from a checkpoint at epoch e sees the same order again, and
// a distributed sampler can give each rank its own share of one permutation.
type Sampler interface {
	// Len returns the number of indices one epoch yields.
	Len() int
	// Indices returns the example indices of epoch (0, 1, ...), in order.
	Indices(epoch int) []int
}

// SequentialSampler yields 0, 1, ..., N−1 every epoch
// (torch.utils.data.SequentialSampler).
type SequentialSampler struct {
	N int // dataset length
}

// Len implements Sampler.
func (s SequentialSampler) Len() int { return s.N }

// Indices implements Sampler.
func (s SequentialSampler) Indices(int) []int {
	idx := make([]int, s.N)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// RandomSampler yields a fresh permutation of 0..N−1 every epoch
// (torch.utils.data.RandomSampler without replacement). The permutation of
// epoch e depends only on (Seed, e): the same on every machine and every
// run, and different for each epoch.
type RandomSampler struct {
	N    int    // dataset length
	Seed uint64 // seed; default 0
}

// Len implements Sampler.
func (s RandomSampler) Len() int { return s.N }

// Indices implements Sampler.
func (s RandomSampler) Indices(epoch int) []int {
	return Permutation(s.N, s.Seed, uint64(epoch))
}

// Permutation returns a permutation of 0..n−1 drawn by a Fisher–Yates
// shuffle from a PCG generator seeded with (seed, stream). The algorithm is
// fixed here, so the result does not depend on the Go version.
func Permutation(n int, seed, stream uint64) []int {
	src := rand.NewPCG(seed, stream)
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := boundedUint(src, uint64(i+1))
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// boundedUint returns a uniform integer in [0, n) by Lemire's
// multiply-and-reject method (no modulo bias).
func boundedUint(src *rand.PCG, n uint64) int {
	hi, lo := bits.Mul64(src.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(src.Uint64(), n)
		}
	}
	return int(hi)
}
