package cost

import "fmt"

// Topology is a cluster of Nodes nodes with GPUsPerNode GPUs each: GPUs of
// one node talk over Intra (NVLink, PCIe), nodes over Inter (InfiniBand,
// Ethernet; one NIC per GPU, as in DGX-class nodes).
//
// Course: "Redes de interconexión para AI".
type Topology struct {
	Nodes, GPUsPerNode int
	Intra, Inter       Link
}

// Size returns the number of GPUs.
func (t Topology) Size() int { return t.Nodes * t.GPUsPerNode }

// String returns e.g. "128 nodes × 8 GPUs (NVLink 4.0 / InfiniBand NDR)".
func (t Topology) String() string {
	return fmt.Sprintf("%d nodes × %d GPUs (%s / %s)", t.Nodes, t.GPUsPerNode, t.Intra.Name, t.Inter.Name)
}

// bottleneck returns the link that bounds a ring through every GPU: the
// inter-node link as soon as there is more than one node.
func (t Topology) bottleneck() Link {
	if t.Nodes > 1 {
		return t.Inter
	}
	return t.Intra
}

// FlatRingAllReduce models one ring through all N GPUs. All links work in
// every step, so each step lasts as long as its slowest link (the
// inter-node one): t = 2(N-1)·α_inter + 2(N-1)/N·S/B_inter. The latency
// term grows with N: at 1,024 GPUs it is 2,046 steps.
func (t Topology) FlatRingAllReduce(S float64) Estimate {
	e := RingAllReduce(t.Size(), S, t.bottleneck())
	e.Algorithm = "flat ring"
	return e
}

// HierarchicalAllReduce models the two-level all-reduce (Horovod's
// hierarchical all-reduce; NCCL's intra/inter split): inside each node a
// ring reduce-scatter over g GPUs (each ends with S/g), then g parallel
// inter-node ring all-reduces over the m nodes, one per GPU and NIC, on
// S/g bytes, then an intra-node all-gather:
//
//	t = 2·[(g-1)·α_intra + (g-1)/g·S/B_intra] + 2(m-1)·α_inter + 2(m-1)/m·(S/g)/B_inter
//
// Only 2(m-1) slow steps instead of 2(N-1), each carrying 1/g of the data.
//
// Course: "3D Parallelism y FSDP": "asignar cada eje de paralelismo al nivel
// de interconexión adecuado".
func (t Topology) HierarchicalAllReduce(S float64) Estimate {
	g, m := t.GPUsPerNode, t.Nodes
	rs := RingReduceScatter(g, S, t.Intra)
	ar := RingAllReduce(m, S/float64(g), t.Inter)
	ag := RingAllGather(g, S, t.Intra)
	return Estimate{Collective: AllReduce, Algorithm: "hierarchical", Ranks: t.Size(), Bytes: S,
		Steps:       rs.Steps + ar.Steps + ag.Steps,
		SentPerRank: rs.SentPerRank + ar.SentPerRank + ag.SentPerRank,
		TotalBytes:  float64(m)*(rs.TotalBytes+ag.TotalBytes) + float64(g)*ar.TotalBytes,
		Seconds:     rs.Seconds + ar.Seconds + ag.Seconds,
		Formula: fmt.Sprintf("intra reduce-scatter %v + inter all-reduce of S/%d over %d nodes %v + intra all-gather %v",
			rs.Time(), g, m, ar.Time(), ag.Time())}
}
