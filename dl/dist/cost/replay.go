package cost

import (
	"fmt"

	"github.com/dlbd/dlbd/dl/dist"
)

// Replay prices a collective that dist really executed: each recorded step
// lasts α + m/B of its slowest transfer (all links work in parallel), on
// topology t, where group rank r sits on node r / t.GPUsPerNode. So a ring
// recorded on 4 simulated devices can be timed on NVLink, or on 2 nodes ×
// 2 GPUs with InfiniBand between them. For a ring of equal segments it
// reproduces RingAllReduce exactly (the tests check it).
//
// Records of SharedMemory (no link transfers) cannot be replayed: that
// algorithm exists only inside one process.
func Replay(rec dist.Record, t Topology) (Estimate, error) {
	if rec.Algorithm == dist.SharedMemory {
		return Estimate{}, fmt.Errorf("cost: replay of %s #%d: the shared-memory algorithm has no link transfers to price; run it with Config.AllReduce = dist.Ring or dist.Tree", rec.Collective, rec.Seq)
	}
	if t.Size() != rec.Ranks {
		return Estimate{}, fmt.Errorf("cost: replay of %s #%d on %d ranks: topology %v has %d GPUs", rec.Collective, rec.Seq, rec.Ranks, t, t.Size())
	}
	step := make([]float64, rec.Steps) // seconds
	sent := make([]float64, rec.Ranks)
	var total float64
	for _, tr := range rec.Transfers {
		l := t.Intra
		if tr.From/t.GPUsPerNode != tr.To/t.GPUsPerNode {
			l = t.Inter
		}
		d := l.Latency.Seconds() + float64(tr.Bytes)/l.Bandwidth
		if tr.Step < len(step) && d > step[tr.Step] {
			step[tr.Step] = d
		}
		sent[tr.From] += float64(tr.Bytes)
		total += float64(tr.Bytes)
	}
	e := Estimate{Collective: rec.Collective, Algorithm: "replay of " + rec.Algorithm.String(), Ranks: rec.Ranks,
		Bytes: float64(rec.Bytes), Steps: rec.Steps, TotalBytes: total,
		Formula: fmt.Sprintf("Σ over %d recorded steps of max(α + m/B)", rec.Steps)}
	for _, d := range step {
		e.Seconds += d
	}
	for _, s := range sent {
		e.SentPerRank = max(e.SentPerRank, s)
	}
	return e, nil
}

// OneLink is the topology of n GPUs that all talk over l (one node).
func OneLink(n int, l Link) Topology {
	return Topology{Nodes: 1, GPUsPerNode: n, Intra: l, Inter: l}
}
