package dist

import (
	"fmt"

	"github.com/dlbd/dlbd/dl/dist/internal/reduce"
)

// Float is the element type of the slice collectives: float32 or float64.
type Float interface{ ~float32 | ~float64 }

// Op is the element-wise reduction of AllReduce, Reduce and ReduceScatter,
// like torch.distributed.ReduceOp.
type Op int

// The reductions. Mean is NCCL's and PyTorch's AVG: the sum divided by the
// number of ranks (a true division, not a multiplication by 1/n).
const (
	Sum Op = iota
	Mean
	Max
	Min
	Product
)

// String returns the lowercase name: "sum", "mean", "max", "min", "product".
func (o Op) String() string {
	switch o {
	case Sum:
		return "sum"
	case Mean:
		return "mean"
	case Max:
		return "max"
	case Min:
		return "min"
	case Product:
		return "product"
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

func (o Op) valid() bool { return o >= Sum && o <= Product }

// kernel returns the kernel op and the divisor for n ranks (0: no division).
func (o Op) kernel(n int) (reduce.Op, float64) {
	switch o {
	case Mean:
		return reduce.Sum, float64(n)
	case Max:
		return reduce.Max, 0
	case Min:
		return reduce.Min, 0
	case Product:
		return reduce.Prod, 0
	}
	return reduce.Sum, 0
}

// Algorithm is how a collective is executed. Only AllReduce has a choice;
// see Config.AllReduce and the package documentation for the rule Auto
// follows.
type Algorithm int

// The algorithms.
const (
	// Auto lets the group choose (for AllReduce: SharedMemory in a local
	// group).
	Auto Algorithm = iota
	// Ring passes chunks around the ring 0 → 1 → … → n-1 → 0:
	// reduce-scatter then all-gather, 2(n-1) steps, each rank sending
	// 2(n-1)/n·S bytes. What NCCL uses for large messages.
	Ring
	// Tree reduces up a binomial tree to rank 0 and broadcasts back down:
	// 2⌈log₂ n⌉ steps of S bytes each.
	Tree
	// SharedMemory has every rank read all n buffers directly (they are in
	// one address space) and write the result into all of them: the memory
	// traffic floor 2·n·S. Only for ranks that share host memory.
	SharedMemory
)

// String returns "auto", "ring", "tree" or "shared-memory".
func (a Algorithm) String() string {
	switch a {
	case Auto:
		return "auto"
	case Ring:
		return "ring"
	case Tree:
		return "tree"
	case SharedMemory:
		return "shared-memory"
	}
	return fmt.Sprintf("Algorithm(%d)", int(a))
}

func (a Algorithm) valid() bool { return a >= Auto && a <= SharedMemory }
