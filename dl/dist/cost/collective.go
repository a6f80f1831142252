package cost

import (
	"fmt"
	"math/bits"
	"time"
)

// Collective names, as in dist.Record.Collective.
const (
	AllReduce     = "all-reduce"
	ReduceScatter = "reduce-scatter"
	AllGather     = "all-gather"
	Broadcast     = "broadcast"
	Reduce        = "reduce"
)

// Estimate is the modelled cost of one collective.
type Estimate struct {
	Collective string
	Algorithm  string  // "ring", "tree", "hierarchical", "replay"
	Ranks      int     // n
	Bytes      float64 // S, as NCCL counts it (see BusBWFactor)
	Steps      int     // latency terms: how many α are paid
	// SentPerRank is the bytes the busiest rank sends (the ring all-reduce:
	// 2(n-1)/n·S). The recorded dist traffic has the same numbers.
	SentPerRank float64
	// TotalBytes is the bytes all links carry together.
	TotalBytes float64
	Seconds    float64
	Formula    string // the formula with its values, for display
}

// Time returns the estimate as a time.Duration.
func (e Estimate) Time() time.Duration { return time.Duration(e.Seconds * float64(time.Second)) }

// AlgBW is NCCL's algorithm bandwidth S/t in bytes per second.
func (e Estimate) AlgBW() float64 { return e.Bytes / e.Seconds }

// BusBW is NCCL's bus bandwidth: AlgBW × BusBWFactor. For a bandwidth-bound
// ring it equals the link bandwidth B whatever n is, which is why
// nccl-tests reports it.
func (e Estimate) BusBW() float64 { return e.AlgBW() * BusBWFactor(e.Collective, e.Ranks) }

// BusBWFactor is the factor nccl-tests (doc/PERFORMANCE.md) uses to turn
// algbw into busbw: 2(n-1)/n for all-reduce, (n-1)/n for reduce-scatter and
// all-gather (S is then the total size, n times each rank's part), 1 for
// broadcast and reduce.
func BusBWFactor(collective string, n int) float64 {
	switch collective {
	case AllReduce:
		return 2 * float64(n-1) / float64(n)
	case ReduceScatter, AllGather:
		return float64(n-1) / float64(n)
	}
	return 1
}

// treeDepth returns ⌈log₂ n⌉.
func treeDepth(n int) int {
	if n <= 1 {
		return 0
	}
	return bits.Len(uint(n - 1))
}

func secs(d time.Duration) float64 { return d.Seconds() }

// RingAllReduce models the ring all-reduce of S bytes over n ranks on link
// l: 2(n-1) steps of S/n bytes, t = 2(n-1)·α + 2(n-1)/n·S/B.
//
// Course: "Data Parallelism (DP)".
// Paper: Patarasuk & Yuan 2009 (JPDC 69(2)); Thakur et al. 2005 (IJHPCA 19(1)).
func RingAllReduce(n int, S float64, l Link) Estimate {
	k := 2 * (n - 1)
	sent := float64(k) / float64(n) * S
	return Estimate{Collective: AllReduce, Algorithm: "ring", Ranks: n, Bytes: S, Steps: k, SentPerRank: sent, TotalBytes: float64(n) * sent,
		Seconds: float64(k)*secs(l.Latency) + sent/l.Bandwidth,
		Formula: fmt.Sprintf("2(n-1)·α + 2(n-1)/n·S/B = %d·%v + %.4g B / %.4g B/s", k, l.Latency, sent, l.Bandwidth)}
}

// RingReduceScatter models the ring reduce-scatter of S bytes in total
// (each rank ends with S/n): t = (n-1)·α + (n-1)/n·S/B.
func RingReduceScatter(n int, S float64, l Link) Estimate {
	e := ringHalf(n, S, l)
	e.Collective = ReduceScatter
	return e
}

// RingAllGather models the ring all-gather to S bytes in total (each rank
// contributes S/n): t = (n-1)·α + (n-1)/n·S/B.
func RingAllGather(n int, S float64, l Link) Estimate {
	e := ringHalf(n, S, l)
	e.Collective = AllGather
	return e
}

func ringHalf(n int, S float64, l Link) Estimate {
	k := n - 1
	sent := float64(k) / float64(n) * S
	return Estimate{Algorithm: "ring", Ranks: n, Bytes: S, Steps: k, SentPerRank: sent, TotalBytes: float64(n) * sent,
		Seconds: float64(k)*secs(l.Latency) + sent/l.Bandwidth,
		Formula: fmt.Sprintf("(n-1)·α + (n-1)/n·S/B = %d·%v + %.4g B / %.4g B/s", k, l.Latency, sent, l.Bandwidth)}
}

// TreeBroadcast models the binomial-tree broadcast dist runs: ⌈log₂ n⌉
// steps of the whole buffer, t = ⌈log₂ n⌉·(α + S/B). The busiest rank (the
// root) sends S once per step.
func TreeBroadcast(n int, S float64, l Link) Estimate {
	d := treeDepth(n)
	return Estimate{Collective: Broadcast, Algorithm: "tree", Ranks: n, Bytes: S, Steps: d, SentPerRank: float64(d) * S, TotalBytes: float64(n-1) * S,
		Seconds: float64(d) * (secs(l.Latency) + S/l.Bandwidth),
		Formula: fmt.Sprintf("⌈log₂ n⌉·(α + S/B) = %d·(%v + %.4g B / %.4g B/s)", d, l.Latency, S, l.Bandwidth)}
}

// TreeReduce models the binomial-tree reduce: the same time as
// TreeBroadcast (the root receives once per step), but every rank sends
// only once.
func TreeReduce(n int, S float64, l Link) Estimate {
	e := TreeBroadcast(n, S, l)
	e.Collective, e.SentPerRank = Reduce, S
	if n == 1 {
		e.SentPerRank = 0
	}
	return e
}

// TreeAllReduce models dist's tree all-reduce (binomial reduce, then
// broadcast, not pipelined): t = 2⌈log₂ n⌉·(α + S/B). Fewer latencies than
// the ring (log n against n) but whole buffers at every step: the better
// choice for small messages only. NCCL's pipelined double binary tree
// reaches ≈ 2⌈log₂ n⌉·α + 2·S/B; this model is of the simpler tree dist
// executes.
func TreeAllReduce(n int, S float64, l Link) Estimate {
	d := treeDepth(n)
	// The root sends S at each broadcast step; no rank sends more.
	return Estimate{Collective: AllReduce, Algorithm: "tree", Ranks: n, Bytes: S, Steps: 2 * d, SentPerRank: float64(d) * S, TotalBytes: float64(2*(n-1)) * S,
		Seconds: float64(2*d) * (secs(l.Latency) + S/l.Bandwidth),
		Formula: fmt.Sprintf("2⌈log₂ n⌉·(α + S/B) = %d·(%v + %.4g B / %.4g B/s)", 2*d, l.Latency, S, l.Bandwidth)}
}

// Crossover returns the message size below which TreeAllReduce is faster
// than RingAllReduce on l for n ranks (0 if the tree never wins), solving
// 2d(α + S/B) = 2(n-1)α + 2(n-1)/n·S/B for S.
func Crossover(n int, l Link) float64 {
	d := float64(treeDepth(n))
	num := 2 * (float64(n-1) - d) * secs(l.Latency) * l.Bandwidth
	den := 2*d - 2*float64(n-1)/float64(n)
	if num <= 0 || den <= 0 {
		return 0
	}
	return num / den
}
