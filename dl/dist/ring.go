package dist

import "github.com/dlbd/dlbd/dl/dist/internal/reduce"

// The ring algorithm (Patarasuk & Yuan 2009; Baidu's ring all-reduce; what
// NCCL runs for large messages). Ranks sit on a ring 0 → 1 → … → n-1 → 0
// and every buffer is cut into n segments. Each step, every rank sends one
// segment to its right neighbour and receives one from its left one, so
// all n links are busy at once and each carries S/n bytes per step.
//
//   - reduce-scatter, n-1 steps: at step s rank j sends segment j-s and adds
//     the received segment j-s-1 into its own; afterwards rank j holds the
//     reduced segment j+1.
//   - all-gather, n-1 steps: at step t rank j sends segment j+1-t (the one
//     it finished last) and copies the received segment j-t.
//
// All-reduce = both phases: 2(n-1) steps, 2(n-1)/n·S bytes sent per rank,
// which is why the α-β model gives 2(n-1)α + 2(n-1)/n·S/B.
//
// Messages are views of the sender's buffer (no copy). That is safe
// because a segment is written at most once per phase, and the rank that
// reads a view (the right neighbour, at its step s) is on the path the
// segment's final value takes before it can come back and overwrite it at
// all-gather step s. The tests run every algorithm under the race detector.
// The final acknowledgement (call.finish) keeps a rank's buffer untouched
// by others once its call returns.
//
// Course: "Data Parallelism (DP)".
// Paper: Patarasuk & Yuan 2009, Bandwidth optimal all-reduce algorithms for clusters of workstations (JPDC 69(2)).

// segment returns the element range [lo, hi) of segment x (taken mod n) of
// a buffer of l elements; segment sizes differ by at most one element.
func segment(l, n, x int) (lo, hi int) {
	x = mod(x, n)
	return x * l / n, (x + 1) * l / n
}

func mod(x, n int) int { return ((x % n) + n) % n }

// ringReduceScatter runs the reduce-scatter phase in place on buf. Rank j
// starts by sending segment j-shift and ends holding the reduced segment
// j-shift+1 (shift 0 for all-reduce, 1 for reduce-scatter). div (when not
// 0) divides the final segment, for Mean.
func ringReduceScatter[T Float](c *call, buf []T, op reduce.Op, div T, shift int) error {
	n, j := c.r.Size(), c.r.rank
	right, left := mod(j+1, n), mod(j-1, n)
	for s := 0; s < n-1; s++ {
		x := j - shift - s // the segment we finished last (or our own data at s = 0)
		lo, hi := segment(len(buf), n, x)
		if err := send(c, right, buf[lo:hi:hi], Transfer{Step: s, Chunk: mod(x, n), Phase: "reduce-scatter"}); err != nil {
			return err
		}
		lo, hi = segment(len(buf), n, x-1) // what the left neighbour sends at its step s
		in, err := recv[T](c, left, hi-lo)
		if err != nil {
			return err
		}
		d := T(0)
		if s == n-2 {
			d = div // this segment is now complete
		}
		reduce.Combine(buf[lo:hi:hi], in, op, d)
	}
	return nil
}

// ringAllGather runs the all-gather phase in place on buf: rank j starts
// holding the final segment j+own and ends holding all of them. Steps are
// numbered from step0.
func ringAllGather[T Float](c *call, buf []T, own, step0 int) error {
	n, j := c.r.Size(), c.r.rank
	right, left := mod(j+1, n), mod(j-1, n)
	for t := 0; t < n-1; t++ {
		x := j + own - t
		lo, hi := segment(len(buf), n, x)
		if err := send(c, right, buf[lo:hi:hi], Transfer{Step: step0 + t, Chunk: mod(x, n), Phase: "all-gather"}); err != nil {
			return err
		}
		lo, hi = segment(len(buf), n, x-1)
		in, err := recv[T](c, left, hi-lo)
		if err != nil {
			return err
		}
		copy(buf[lo:hi:hi], in)
	}
	return nil
}

// ringAllReduce is reduce-scatter then all-gather.
func ringAllReduce[T Float](c *call, buf []T, op Op) error {
	n := c.r.Size()
	kop, div := op.kernel(n)
	if err := ringReduceScatter(c, buf, kop, T(div), 0); err != nil {
		return err
	}
	if err := ringAllGather(c, buf, 1, n-1); err != nil {
		return err
	}
	return c.finish(Record{Algorithm: Ring, Ranks: n, Bytes: bytesOf(buf), Steps: 2 * (n - 1)})
}

// ringReduceScatterOut reduces in (n equal chunks) so that rank j's out
// holds chunk j, like torch.distributed.reduce_scatter_tensor. It works on
// a copy so that in is left unchanged.
func ringReduceScatterOut[T Float](c *call, out, in []T, op Op) error {
	n, j := c.r.Size(), c.r.rank
	kop, div := op.kernel(n)
	work := append([]T(nil), in...)
	if err := ringReduceScatter(c, work, kop, T(div), 1); err != nil {
		return err
	}
	lo, hi := segment(len(work), n, j)
	copy(out, work[lo:hi])
	return c.finish(Record{Algorithm: Ring, Ranks: n, Bytes: bytesOf(in), Steps: n - 1})
}

// ringAllGatherOut places every rank's in into chunk j of out, like
// torch.distributed.all_gather_into_tensor.
func ringAllGatherOut[T Float](c *call, out, in []T) error {
	n, j := c.r.Size(), c.r.rank
	lo, _ := segment(len(out), n, j)
	copy(out[lo:lo+len(in)], in)
	if err := ringAllGather(c, out, 0, 0); err != nil {
		return err
	}
	return c.finish(Record{Algorithm: Ring, Ranks: n, Bytes: bytesOf(out), Steps: n - 1})
}
