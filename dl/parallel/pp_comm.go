package parallel

import (
	"fmt"
	"time"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
)

// Point-to-point communication between pipeline stages: a stage sends its
// output activation to the next stage (forward) and the gradient of its
// input to the previous one (backward), with dist's Send and Recv. Each
// tensor is preceded by a small header (shape, dtype, and the sender's
// device-clock time when the tensor was ready, see pp_timeline.go), since
// the receiver must allocate the tensor before receiving it. Kept apart
// from the schedules (pp_gpipe.go, pp_1f1b.go), as picotron keeps
// pp_communications.py apart from pipeline_parallel.py.
//
// Course: "Pipeline Parallelism (PP)".
// Paper: Huang et al. 2019, GPipe (arXiv:1811.06965).

// headerLen is the header's length: ready time (seconds), dtype, rank, up
// to maxDims dimensions.
const (
	maxDims   = 6
	headerLen = 3 + maxDims
)

// sendTensor sends t to stage dst of r's pipeline group, with its ready
// time on the sender's device clock.
func sendTensor(r *dist.Rank, t *dl.Tensor, dst int, ready time.Duration) error {
	sh := t.Shape()
	if len(sh) > maxDims {
		panic(&dl.ShapeError{Op: "parallel.Pipeline send", Shapes: [][]int{sh},
			Reason: fmt.Sprintf("activations between stages may have at most %d dimensions", maxDims), Fix: "reshape the stage's output"})
	}
	h := make([]float64, headerLen)
	h[0], h[1], h[2] = ready.Seconds(), float64(t.DType()), float64(len(sh))
	for i, d := range sh {
		h[3+i] = float64(d)
	}
	if err := dist.Send(r, h, dst); err != nil {
		return err
	}
	return r.Send(t, dst)
}

// recvTensor receives the next tensor from stage src onto r's device and
// returns it with the sender's ready time.
func recvTensor(r *dist.Rank, src int) (*dl.Tensor, time.Duration, error) {
	h := make([]float64, headerLen)
	if err := dist.Recv(r, h, src); err != nil {
		return nil, 0, err
	}
	dims := make([]int, int(h[2]))
	for i := range dims {
		dims[i] = int(h[3+i])
	}
	t := dl.Options{Device: r.Device(), DType: dl.DType(h[1])}.Zeros(dims...)
	if err := r.Recv(t, src); err != nil {
		t.Release()
		return nil, 0, err
	}
	return t, time.Duration(h[0] * float64(time.Second)), nil
}
