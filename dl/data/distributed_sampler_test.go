package data

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// TestDistributedSamplerPyTorchCases checks hand-worked cases of
// torch.utils.data.DistributedSampler(shuffle=False): padding with the
// head, drop_last and the r::R split.
func TestDistributedSamplerPyTorchCases(t *testing.T) {
	cases := []struct {
		n, replicas int
		dropLast    bool
		want        [][]int
	}{
		{n: 10, replicas: 4, want: [][]int{{0, 4, 8}, {1, 5, 9}, {2, 6, 0}, {3, 7, 1}}},
		{n: 10, replicas: 4, dropLast: true, want: [][]int{{0, 4}, {1, 5}, {2, 6}, {3, 7}}},
		{n: 8, replicas: 4, want: [][]int{{0, 4}, {1, 5}, {2, 6}, {3, 7}}},
		// Padding longer than the dataset cycles through it (torch: indices * ceil(pad/len)).
		{n: 2, replicas: 5, want: [][]int{{0}, {1}, {0}, {1}, {0}}},
		{n: 3, replicas: 2, want: [][]int{{0, 2}, {1, 0}}},
		{n: 3, replicas: 4, dropLast: true, want: [][]int{{}, {}, {}, {}}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("n=%d/replicas=%d/droplast=%v", c.n, c.replicas, c.dropLast), func(t *testing.T) {
			for r := range c.replicas {
				s := DistributedSampler{N: c.n, NumReplicas: c.replicas, Rank: r, DropLast: c.dropLast}
				got := s.Indices(0)
				if !slices.Equal(got, c.want[r]) {
					t.Errorf("rank %d: Indices(0) = %v; want %v", r, got, c.want[r])
				}
				if s.Len() != len(c.want[r]) {
					t.Errorf("rank %d: Len() = %d; want %d", r, s.Len(), len(c.want[r]))
				}
			}
		})
	}
}

// TestDistributedSamplerShuffle checks that the ranks of one epoch split
// one permutation (seed + epoch) and that epochs differ.
func TestDistributedSamplerShuffle(t *testing.T) {
	const n, replicas = 103, 4
	for epoch := range 3 {
		perm := Permutation(n, 7+uint64(epoch), 0)
		var union []int
		for r := range replicas {
			s := DistributedSampler{N: n, NumReplicas: replicas, Rank: r, Shuffle: true, Seed: 7}
			idx := s.Indices(epoch)
			if len(idx) != 26 {
				t.Fatalf("rank %d: %d indices; want ⌈103/4⌉ = 26", r, len(idx))
			}
			for i, v := range idx {
				if want := perm[(r+i*replicas)%n]; v != want {
					t.Fatalf("epoch %d rank %d position %d = %d; want perm[%d] = %d", epoch, r, i, v, r+i*replicas, want)
				}
			}
			union = append(union, idx...)
		}
		slices.Sort(union)
		union = slices.Compact(union)
		if len(union) != n {
			t.Errorf("epoch %d: the ranks cover %d distinct examples; want all %d", epoch, len(union), n)
		}
	}
	s := DistributedSampler{N: n, NumReplicas: replicas, Shuffle: true}
	if slices.Equal(s.Indices(0), s.Indices(1)) {
		t.Error("epochs 0 and 1 have the same order; set_epoch semantics want a new shuffle")
	}
	if !slices.Equal(s.Indices(2), s.Indices(2)) {
		t.Error("Indices(2) differs between calls; it must be a pure function of the epoch")
	}
}

func TestDistributedSamplerBadRank(t *testing.T) {
	defer func() {
		err, _ := recover().(error)
		if !errors.Is(err, dl.ErrValue) || !strings.Contains(err.Error(), "data.DistributedSampler") || !strings.Contains(err.Error(), "Rank 4") {
			t.Errorf("panic %v; want a *dl.ValueError naming DistributedSampler and the rank", err)
		}
	}()
	DistributedSampler{N: 10, NumReplicas: 4, Rank: 4}.Indices(0)
}

func TestDistributedSamplerWithDataLoader(t *testing.T) {
	s := DistributedSampler{N: 10, NumReplicas: 2, Rank: 1}
	l := NewDataLoader(NewTensorDataset(dl.Arange(0, 10, 1).Reshape(10, 1)), DataLoaderConfig{BatchSize: 2, Sampler: s})
	if l.Len() != 3 {
		t.Errorf("Len() = %d; want 3 batches of rank 1's 5 examples", l.Len())
	}
	var got []float32
	for b := range l.Epoch(0) {
		got = append(got, b[0].Float32s()...)
	}
	if want := []float32{1, 3, 5, 7, 9}; !slices.Equal(got, want) {
		t.Errorf("rank 1's examples = %v; want %v", got, want)
	}
}
