package dist

import (
	"math/bits"

	"github.com/dlbd/dlbd/dl/dist/internal/reduce"
)

// The binomial tree algorithms (as in MPICH's MPI_Bcast and MPI_Reduce).
// Number the ranks relative to the root, v = (rank - root) mod n.
//
//   - broadcast, ⌈log₂ n⌉ steps: at step k (mask = 2^k) every rank that
//     already has the data (v < mask) sends it to v + mask. The number of
//     ranks holding it doubles every step.
//   - reduce, ⌈log₂ n⌉ steps: the same tree upside down. At step k a rank
//     whose bit k is set sends its partial result to v - mask and is done;
//     the others add what v + mask sends them.
//
// Each step moves whole buffers (S bytes) over up to n/2 links, so a tree
// needs only 2⌈log₂ n⌉ latencies for an all-reduce (reduce + broadcast)
// against the ring's 2(n-1), but sends S bytes per step instead of S/n:
// trees win for small messages, rings for large ones. (NCCL's tree is a
// pipelined double binary tree that also reaches the ring's bandwidth;
// this one is not pipelined. Simplification.)
//
// Course: "Data Parallelism (DP)".
// Paper: Thakur, Rabenseifner & Gropp 2005, Optimization of collective communication operations in MPICH (IJHPCA 19(1)).

// steps returns ⌈log₂ n⌉, the depth of a binomial tree of n ranks.
func treeSteps(n int) int {
	if n <= 1 {
		return 0
	}
	return bits.Len(uint(n - 1))
}

// treeReduce combines every rank's acc into the root's acc. acc of other
// ranks may be overwritten with partial results.
func treeReduce[T Float](c *call, acc []T, root int, op reduce.Op, step0 int) error {
	n := c.r.Size()
	v := mod(c.r.rank-root, n)
	for k, mask := 0, 1; mask < n; k, mask = k+1, mask<<1 {
		if v&mask != 0 {
			return send(c, mod(v-mask+root, n), acc, Transfer{Step: step0 + k, Chunk: -1, Phase: "reduce"})
		}
		if v+mask < n {
			in, err := recv[T](c, mod(v+mask+root, n), len(acc))
			if err != nil {
				return err
			}
			reduce.Combine(acc, in, op, 0)
		}
	}
	return nil
}

// treeBroadcast copies the root's buf into every rank's buf.
func treeBroadcast[T Float](c *call, buf []T, root, step0 int) error {
	n := c.r.Size()
	v := mod(c.r.rank-root, n)
	for k, mask := 0, 1; mask < n; k, mask = k+1, mask<<1 {
		switch {
		case v < mask && v+mask < n:
			if err := send(c, mod(v+mask+root, n), buf, Transfer{Step: step0 + k, Chunk: -1, Phase: "broadcast"}); err != nil {
				return err
			}
		case v >= mask && v < 2*mask:
			in, err := recv[T](c, mod(v-mask+root, n), len(buf))
			if err != nil {
				return err
			}
			copy(buf, in)
		}
	}
	return nil
}

// divide sets buf[i] /= d.
func divide[T Float](buf []T, d T) {
	for i := range buf {
		buf[i] /= d
	}
}

// treeAllReduce reduces to rank 0 and broadcasts the result back.
func treeAllReduce[T Float](c *call, buf []T, op Op) error {
	n := c.r.Size()
	kop, div := op.kernel(n)
	if err := treeReduce(c, buf, 0, kop, 0); err != nil {
		return err
	}
	if c.r.rank == 0 && div != 0 {
		divide(buf, T(div))
	}
	if err := treeBroadcast(c, buf, 0, treeSteps(n)); err != nil {
		return err
	}
	return c.finish(Record{Algorithm: Tree, Ranks: n, Bytes: bytesOf(buf), Steps: 2 * treeSteps(n)})
}

// treeReduceTo is Reduce: the result lands in the root's buf; the other
// ranks' buffers are left unchanged (a rank with children works on a copy).
func treeReduceTo[T Float](c *call, buf []T, root int, op Op) error {
	n := c.r.Size()
	kop, div := op.kernel(n)
	acc := buf
	if v := mod(c.r.rank-root, n); v != 0 && v%2 == 0 && v+1 < n {
		acc = append([]T(nil), buf...)
	}
	if err := treeReduce(c, acc, root, kop, 0); err != nil {
		return err
	}
	if c.r.rank == root && div != 0 {
		divide(buf, T(div))
	}
	return c.finish(Record{Algorithm: Tree, Ranks: n, Bytes: bytesOf(buf), Steps: treeSteps(n)})
}

// treeBroadcastFrom is Broadcast.
func treeBroadcastFrom[T Float](c *call, buf []T, root int) error {
	if err := treeBroadcast(c, buf, root, 0); err != nil {
		return err
	}
	n := c.r.Size()
	return c.finish(Record{Algorithm: Tree, Ranks: n, Bytes: bytesOf(buf), Steps: treeSteps(n)})
}
