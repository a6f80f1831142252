// Package cost is the α-β model of collective communication: what an
// all-reduce of S bytes costs on n GPUs over NVLink, PCIe, InfiniBand or
// Ethernet, so that a notebook can run a collective on 4 simulated devices
// with dl/dist and extrapolate it to 1,024 GPUs.
//
// # Overview
//
// A Link has a bandwidth B (bytes/s in one direction) and a per-step
// latency α; sending m bytes takes α + m/B. LinkFromFacts reads B from the
// course's interconnects.csv (package facts) and takes α from NCCL's own
// tuning model; both keep their source (Link.BandwidthSource,
// Link.LatencySource). The functions give the textbook formulas:
//
//	RingAllReduce            2(n-1)·α + 2(n-1)/n·S/B
//	RingReduceScatter/AllGather  (n-1)·α + (n-1)/n·S/B
//	TreeBroadcast/TreeReduce ⌈log₂ n⌉·(α + S/B)
//	TreeAllReduce            2⌈log₂ n⌉·(α + S/B)
//
// A Topology (nodes × GPUs per node, intra- and inter-node links) adds the
// flat ring over all GPUs and the hierarchical all-reduce; Replay prices a
// dist.Record, the steps dl/dist really executed, on any topology.
//
// # Errors
//
// LinkFromFacts returns an error for a name that matches no row (or
// several) of interconnects.csv, or a row without per-direction bandwidth.
// Replay returns an error for a shared-memory record or a topology of the
// wrong size. The formulas never fail.
//
// # Concepts
//
//   - α-β model (Hockney 1994): time = α + m/B per message; the α terms
//     dominate small messages, the β = 1/B terms large ones.
//   - algbw = S/t and busbw = algbw × 2(n-1)/n (all-reduce), the figures
//     nccl-tests reports (NCCL's doc/PERFORMANCE.md). busbw is comparable
//     to the link bandwidth whatever n is.
//   - Ring vs tree: the ring is bandwidth-optimal (each rank sends
//     2(n-1)/n·S, Patarasuk & Yuan 2009) but pays 2(n-1) latencies; the
//     tree pays 2⌈log₂ n⌉. Crossover gives the size where they tie.
//   - Hierarchical all-reduce: reduce inside the node on the fast link,
//     all-reduce 1/g of the data across nodes, gather inside the node.
//
// Simplifications: one ring (NCCL runs several channels in parallel), no
// protocol choice (NCCL's LL/LL128/Simple), no per-collective base
// latency, no congestion. Estimates are models, never measurements.
//
// Course: "Redes de interconexión para AI", "Data Parallelism (DP)".
// Paper: Hockney 1994, The communication challenge for MPP (Parallel Computing 20(3)).
// Paper: Thakur, Rabenseifner & Gropp 2005, Optimization of collective communication operations in MPICH (IJHPCA 19(1)).
package cost
