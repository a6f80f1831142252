package parallel_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/data"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/dltest"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
	"github.com/dlbd/dlbd/dl/parallel"
)

// regressionData returns a float64 batch x [n, in] and targets y [n, out].
func regressionData(n, in, out int, seed uint64) (x, y *dl.Tensor) {
	o := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(seed)}
	return o.Randn(n, in), o.Randn(n, out)
}

// mlp64 returns a float64 MLP on dev initialised from seed.
func mlp64(sizes []int, dev dl.Device, seed uint64) *nn.MLP {
	return nn.NewMLP(sizes, nn.MLPConfig{InitConfig: nn.InitConfig{DType: dl.Float64, Device: dev, Generator: dl.NewGenerator(seed)}})
}

// rows returns the rows idx of t, on dev.
func rows(t *dl.Tensor, idx []int, dev dl.Device) *dl.Tensor {
	f := make([]float64, len(idx))
	for i, v := range idx {
		f[i] = float64(v)
	}
	return t.IndexSelect(dl.Options{DType: dl.Float64}.FromFloat64s(f)).To(dev)
}

// maxDiff returns max |a − b| over the parameters of two modules.
func maxDiff(a, b []*dl.Tensor) float64 {
	d := 0.0
	for i := range a {
		d = math.Max(d, dltest.MaxAbsDiff(a[i].Float64s(), b[i].Float64s()))
	}
	return d
}

var ddpSizes = []int{6, 32, 32, 3}

const (
	ddpRanks = 4
	ddpBatch = 8 // per rank
	ddpSteps = 3
)

// trainSingle trains on the whole batch on one device: the reference.
func trainSingle(x, y *dl.Tensor) []*dl.Tensor {
	m := mlp64(ddpSizes, dl.CPU, 1)
	opt := optim.NewSGD(nn.Parameters(m), optim.SGDConfig{LR: 0.1, Momentum: 0.9})
	for range ddpSteps {
		dl.MSE(m.Forward(x), y).Backward()
		opt.Step()
		opt.ZeroGrad()
	}
	return nn.Parameters(m)
}

func TestDDPMatchesSingleDevice(t *testing.T) {
	x, y := regressionData(ddpRanks*ddpBatch, 6, 3, 42)
	want := trainSingle(x, y)
	for _, bucketBytes := range []int64{0, 1024} {
		t.Run(fmt.Sprintf("bucket=%d", bucketBytes), func(t *testing.T) {
			got := make([][]*dl.Tensor, ddpRanks)
			err := dist.Run(ddpRanks, func(r *dist.Rank) error {
				// Only rank 0 starts from the reference's initialisation: the
				// constructor's broadcast must give it to everybody.
				m := mlp64(ddpSizes, r.Device(), uint64(1+7*r.Rank()))
				ddp, err := parallel.NewDDP(m, r, parallel.DDPConfig{BucketBytes: bucketBytes, FirstBucketBytes: bucketBytes})
				if err != nil {
					return err
				}
				if bucketBytes > 0 && len(ddp.Buckets()) < 3 {
					return fmt.Errorf("%d buckets with a 1 KiB cap; want several", len(ddp.Buckets()))
				}
				s := data.DistributedSampler{N: x.Size(0), NumReplicas: r.Size(), Rank: r.Rank()}
				xr, yr := rows(x, s.Indices(0), r.Device()), rows(y, s.Indices(0), r.Device())
				opt := optim.NewSGD(nn.Parameters(ddp), optim.SGDConfig{LR: 0.1, Momentum: 0.9})
				for range ddpSteps {
					// zero_grad between forward and backward, as in the course's loop:
					// it releases the bucket views Forward installed.
					loss := dl.MSE(ddp.Forward(xr), yr)
					opt.ZeroGrad()
					loss.Backward()
					opt.Step()
				}
				got[r.Rank()] = nn.Parameters(m)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for r := range ddpRanks {
				if d := maxDiff(got[r], want); d > 1e-12 {
					t.Errorf("rank %d after %d steps: max |DDP − single device| = %.3g; want ≤ 1e-12", r, ddpSteps, d)
				}
			}
		})
	}
}

// gradsAfterOneBackward runs one backward of a wrapped model on every rank
// and returns each rank's gradients.
func gradsAfterOneBackward(t *testing.T, naive bool) [][]float64 {
	x, y := regressionData(ddpRanks*ddpBatch, 6, 3, 5)
	out := make([][]float64, ddpRanks)
	err := dist.Run(ddpRanks, func(r *dist.Rank) error {
		m := mlp64(ddpSizes, r.Device(), 3)
		xr, yr := x.Slice(r.Rank()*ddpBatch, (r.Rank()+1)*ddpBatch).To(r.Device()), y.Slice(r.Rank()*ddpBatch, (r.Rank()+1)*ddpBatch).To(r.Device())
		if naive {
			d, err := parallel.NewNaiveDDP(m, r)
			if err != nil {
				return err
			}
			dl.MSE(d.Forward(xr), yr).Backward()
			if err := d.SyncGradients(); err != nil {
				return err
			}
		} else {
			d, err := parallel.NewDDP(m, r, parallel.DDPConfig{BucketBytes: 4096})
			if err != nil {
				return err
			}
			dl.MSE(d.Forward(xr), yr).Backward()
		}
		for _, p := range nn.Parameters(m) {
			out[r.Rank()] = append(out[r.Rank()], p.Grad().Float64s()...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDDPMatchesNaiveDDP(t *testing.T) {
	naive, bucketed := gradsAfterOneBackward(t, true), gradsAfterOneBackward(t, false)
	for r := range ddpRanks {
		for i := range naive[r] {
			if naive[r][i] != bucketed[r][i] {
				t.Fatalf("rank %d gradient element %d: NaiveDDP %v, DDP %v; want identical", r, i, naive[r][i], bucketed[r][i])
			}
		}
	}
}

// TestDDPNoSync accumulates two micro-batches (the first under NoSync) and
// compares with one backward over both.
func TestDDPNoSync(t *testing.T) {
	x, y := regressionData(ddpRanks*2*ddpBatch, 6, 3, 9)
	ref := mlp64(ddpSizes, dl.CPU, 1)
	dl.MSE(ref.Forward(x), y).Backward()
	var got []*dl.Tensor
	local := make([][]float64, ddpRanks)
	err := dist.Run(ddpRanks, func(r *dist.Rank) error {
		m := mlp64(ddpSizes, r.Device(), 1)
		d, err := parallel.NewDDP(m, r, parallel.DDPConfig{})
		if err != nil {
			return err
		}
		step := func(k int) { // micro-batch k of this rank, loss scaled by 1/2
			lo := (2*r.Rank() + k) * ddpBatch
			xr, yr := x.Slice(lo, lo+ddpBatch).To(r.Device()), y.Slice(lo, lo+ddpBatch).To(r.Device())
			dl.MSE(d.Forward(xr), yr).MulScalar(0.5).Backward()
		}
		d.NoSync(func() { step(0) })
		local[r.Rank()] = nn.Parameters(m)[0].Grad().Float64s()
		step(1)
		if r.Rank() == 0 {
			got = nn.Parameters(m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if dltest.MaxAbsDiff(local[0], local[1]) == 0 {
		t.Error("after a backward under NoSync ranks 0 and 1 hold the same gradient; want their local (unsynchronised) gradients")
	}
	for i, p := range nn.Parameters(ref) {
		g, w := got[i].Grad(), p.Grad()
		if !dl.AllClose(g, w, 1e-12, 1e-13) {
			t.Errorf("parameter %d: accumulated DDP gradient differs from the full-batch gradient", i)
		}
	}
}

func TestDDPUnusedParameterPanics(t *testing.T) {
	err := dist.Run(2, func(r *dist.Rank) error {
		m := mlp64([]int{4, 4, 2}, r.Device(), 1)
		d, err := parallel.NewDDP(m, r, parallel.DDPConfig{BucketBytes: 16, FirstBucketBytes: 16})
		if err != nil {
			return err
		}
		x := dl.Options{DType: dl.Float64, Device: r.Device()}.Ones(3, 4)
		// The loss uses only the first layer's output: layer 2 gets no gradient.
		d.Forward(x)
		first := m.Modules[0].Forward(x)
		first.Sum().Backward()
		return dl.Catch(func() { d.Forward(x) })
	})
	if err == nil || !strings.Contains(err.Error(), "every parameter must take part in the loss") {
		t.Fatalf("err = %v; want the unfinished-reduction panic", err)
	}
}

// TestDDPRankFailureAborts checks that a rank that fails before backward
// makes the others' bucket all-reduces fail instead of hanging.
func TestDDPRankFailureAborts(t *testing.T) {
	boom := errors.New("boom")
	err := dist.Run(4, func(r *dist.Rank) error {
		m := mlp64([]int{4, 8, 2}, r.Device(), 1)
		d, err := parallel.NewDDP(m, r, parallel.DDPConfig{})
		if err != nil {
			return err
		}
		if r.Rank() == 3 {
			return boom
		}
		x := dl.Options{DType: dl.Float64, Device: r.Device()}.Ones(3, 4)
		d.Forward(x).Sum().Backward()
		return nil
	})
	var re *dist.RankError
	if !errors.As(err, &re) || re.Rank != 3 || !errors.Is(err, boom) {
		t.Fatalf("err = %v; want a *dist.RankError for rank 3 wrapping boom", err)
	}
}
