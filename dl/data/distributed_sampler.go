package data

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
)

// DistributedSampler gives rank Rank of NumReplicas its share of every
// epoch, like torch.utils.data.distributed.DistributedSampler, so that the
// ranks of data-parallel training see disjoint parts of the dataset:
//
//  1. the epoch's order: a permutation of 0..N−1 seeded with Seed + epoch
//     (Shuffle), or 0..N−1 in order;
//  2. every rank must get the same number of indices, TotalSize =
//     NumReplicas·Len(): without DropLast the order is padded by repeating
//     its head (indices[:pad], cycling if pad > N); with DropLast its tail
//     is cut;
//  3. rank r takes the positions r, r+R, r+2R, … (indices[r::R] in Python).
//
// PyTorch's sampler.set_epoch(e) is the epoch argument of Indices: the
// DataLoader passes it (loader.Epoch(e)), so every rank computes the same
// permutation of epoch e and each epoch is shuffled differently. (In
// PyTorch, forgetting set_epoch repeats the order of epoch 0 forever; here
// the epoch cannot be forgotten.)
//
// Comparing with PyTorch: permutations come from Permutation, not from
// torch.randperm, so with Shuffle the orders differ from PyTorch's while
// the rules above (sizes, padding, positions) are the same; a run compared
// with PyTorch's step by step needs Shuffle off on both sides, or the
// PyTorch order fed through a Sampler.
//
// Course: "Data Parallelism (DP)": «Los datos de entrenamiento se dividen
// entre GPUs».
// Paper: Li et al. 2020, PyTorch Distributed: Experiences on Accelerating Data Parallel Training (arXiv:2006.15704).
type DistributedSampler struct {
	N           int    // dataset length (len(dataset))
	NumReplicas int    // number of ranks (torch num_replicas); required, ≥ 1
	Rank        int    // this rank, 0 ≤ Rank < NumReplicas (torch rank)
	Shuffle     bool   // shuffle every epoch (torch shuffle, whose default is True; dl's permutation, not torch.randperm's); default false
	Seed        uint64 // seed of the shuffle; the same on every rank (torch seed); default 0
	DropLast    bool   // cut the tail instead of padding with the head (torch drop_last); default false
}

var _ Sampler = DistributedSampler{}

// check panics unless the fields are consistent.
func (s DistributedSampler) check() {
	if s.NumReplicas < 1 || s.Rank < 0 || s.Rank >= s.NumReplicas || s.N < 0 {
		panic(&dl.ValueError{Op: "data.DistributedSampler", Reason: fmt.Sprintf("N %d, NumReplicas %d, Rank %d", s.N, s.NumReplicas, s.Rank),
			Fix: "use N >= 0, NumReplicas >= 1 and 0 <= Rank < NumReplicas (pass the world size and this rank, e.g. r.Size() and r.Rank() of a dist.Rank)"})
	}
}

// Len implements Sampler: the indices each rank gets per epoch,
// ⌈N/R⌉ when padding and ⌊N/R⌋ with DropLast (PyTorch's num_samples).
func (s DistributedSampler) Len() int {
	s.check()
	if s.DropLast {
		return s.N / s.NumReplicas
	}
	return (s.N + s.NumReplicas - 1) / s.NumReplicas
}

// TotalSize is NumReplicas·Len(): the length of the padded (or cut) order
// that the ranks share.
func (s DistributedSampler) TotalSize() int { return s.Len() * s.NumReplicas }

// Indices implements Sampler: this rank's indices of epoch epoch.
func (s DistributedSampler) Indices(epoch int) []int {
	total := s.TotalSize()
	var order []int
	if s.Shuffle {
		// PyTorch seeds a generator with seed + epoch: same on every rank.
		order = Permutation(s.N, s.Seed+uint64(epoch), 0)
	} else {
		order = SequentialSampler{N: s.N}.Indices(epoch)
	}
	if s.N == 0 {
		return []int{}
	}
	// Pad by repeating the head (cycling when the padding is longer than
	// the dataset), or cut the tail: every rank gets Len() indices.
	for i := 0; len(order) < total; i++ {
		order = append(order, order[i%s.N])
	}
	order = order[:total]
	out := make([]int, 0, s.Len())
	for i := s.Rank; i < total; i += s.NumReplicas {
		out = append(out, order[i])
	}
	return out
}
