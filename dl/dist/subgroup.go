package dist

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// splitTable is the rendezvous of a group's Split calls.
type splitTable struct {
	mu     sync.Mutex
	rounds map[int64]*splitRound
}

type splitRound struct {
	colors, keys []int
	arrived      int
	ready        chan struct{}
	result       []*Rank // by parent group rank; nil for color < 0
}

// Split divides r's group into sub-groups, like MPI_Comm_split: the ranks
// that pass the same color form one group, ordered by key (ties by their
// rank in r's group). Every rank of r's group must call it (it is a
// collective); a rank that passes a negative color joins no group and gets
// nil. Sub-groups share the world's fate: a failure in any of them aborts
// all. Names look like "world/split0{0,2}": parent, call, world ranks.
//
// Course: "3D Parallelism y FSDP": a DP × TP × PP grid is three splits
// (see NewGrid).
func (r *Rank) Split(color, key int) (*Rank, error) {
	if err := r.fence(); err != nil {
		return nil, err
	}
	return r.split(color, key, "")
}

// split is Split with a name prefix for the new groups ("" = default).
func (r *Rank) split(color, key int, prefix string) (*Rank, error) {
	const name = "split"
	c, err := r.begin(desc{kind: name})
	if err != nil {
		return nil, err
	}
	g, n := r.g, r.Size()
	if g.be != nil {
		be, members, err := g.be.split(c, color, key)
		if err != nil {
			return nil, c.fail(err)
		}
		if be == nil {
			return nil, nil // a negative color joins no group
		}
		if prefix == "" {
			prefix = fmt.Sprintf("%s/split%d", g.name, c.seq)
		}
		names := make([]string, len(members))
		for i, m := range members {
			names[i] = fmt.Sprint(m)
		}
		return r.processSub(prefix+"{"+strings.Join(names, ",")+"}", members, be), nil
	}
	t := &g.split
	t.mu.Lock()
	if t.rounds == nil {
		t.rounds = map[int64]*splitRound{}
	}
	sr := t.rounds[c.seq]
	if sr == nil {
		sr = &splitRound{colors: make([]int, n), keys: make([]int, n), ready: make(chan struct{})}
		t.rounds[c.seq] = sr
	}
	sr.colors[r.rank], sr.keys[r.rank] = color, key
	sr.arrived++
	last := sr.arrived == n
	if last {
		delete(t.rounds, c.seq)
	}
	t.mu.Unlock()
	g.w.events.Add(1)
	if last {
		if prefix == "" {
			prefix = fmt.Sprintf("%s/split%d", g.name, c.seq)
		}
		sr.result = g.buildSplit(sr.colors, sr.keys, prefix)
		close(sr.ready)
	} else if _, err := waitRecv(r, sr.ready, r.waitOn(name, c.seq, "waiting for the other ranks", -1)); err != nil {
		return nil, c.fail(err)
	}
	return sr.result[r.rank], nil
}

// buildSplit makes one group per non-negative color.
func (g *Group) buildSplit(colors, keys []int, prefix string) []*Rank {
	byColor := map[int][]int{}
	for q, col := range colors {
		if col >= 0 {
			byColor[col] = append(byColor[col], q)
		}
	}
	out := make([]*Rank, len(colors))
	for _, qs := range byColor {
		sortByKey(qs, keys)
		members := make([]int, len(qs))
		names := make([]string, len(qs))
		for i, q := range qs {
			members[i] = g.members[q]
			names[i] = fmt.Sprint(members[i])
		}
		worldRanks := make([]*Rank, g.w.n)
		for q, m := range g.members {
			worldRanks[m] = g.ranks[q]
		}
		sub := newGroup(g.w, prefix+"{"+strings.Join(names, ",")+"}", members, g.cfg, worldRanks)
		if g.gpu != nil {
			if err := sub.initGPU(); err != nil {
				g.w.abort(err)
			}
		}
		for i, q := range qs {
			out[q] = sub.ranks[i]
		}
	}
	return out
}

// NewSubgroups splits r's group into consecutive groups of size ranks
// (ranks 0..size-1, size..2·size-1, ...) and returns r's, like
// torch.distributed.new_subgroups. The group size must be a multiple of
// size. It is a collective.
func (r *Rank) NewSubgroups(size int) (*Rank, error) {
	if size < 1 || r.Size()%size != 0 {
		return nil, fmt.Errorf("dist: new-subgroups on rank %d: group size %d is not a multiple of %d", r.rank, r.Size(), size)
	}
	if err := r.fence(); err != nil {
		return nil, err
	}
	return r.split(r.rank/size, r.rank, fmt.Sprintf("%s/sub%d", r.g.name, size))
}

// sortByKey orders group ranks by key, ties by rank (MPI_Comm_split).
func sortByKey(qs, keys []int) {
	slices.SortStableFunc(qs, func(a, b int) int { return keys[a] - keys[b] })
}

// splitOrder returns the group ranks of color, in the order of Split.
func splitOrder(colors, keys []int, color int) []int {
	var qs []int
	for q, c := range colors {
		if c == color {
			qs = append(qs, q)
		}
	}
	sortByKey(qs, keys)
	return qs
}
