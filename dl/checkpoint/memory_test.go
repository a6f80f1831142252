package checkpoint_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/checkpoint"
	"github.com/dlbd/dlbd/dl/dltest"
	"github.com/dlbd/dlbd/dl/nn"
)

// counting wraps a module and counts its Forward calls.
type counting struct {
	nn.Module
	calls *int
}

func (c counting) Forward(x *dl.Tensor) *dl.Tensor { *c.calls++; return c.Module.Forward(x) }

// deepMLP returns n layers Linear(d, d)+ReLU on dev, each an
// nn.Sequential, wrapped to count forward calls.
func deepMLP(n, d int, dev dl.Device, calls *int) []nn.Module {
	cfg := nn.LinearConfig{InitConfig: nn.InitConfig{Device: dev, Generator: dl.NewGenerator(1)}}
	mods := make([]nn.Module, n)
	for i := range mods {
		mods[i] = counting{nn.NewSequential(nn.NewLinear(d, d, cfg), nn.ReLU()), calls}
	}
	return mods
}

// stepPeak runs one forward+backward and returns the peak memory above
// what was allocated before it (parameters and their gradients exist
// already: the first step allocated them), in units of one activation.
func stepPeak(dev dl.Device, mods []nn.Module, segments int, x *dl.Tensor, act int64) float64 {
	before := dl.MemoryStats(dev).Allocated
	dl.ResetPeakMemory(dev)
	var y *dl.Tensor
	if segments == 0 {
		y = nn.NewSequential(mods...).Forward(x)
	} else {
		y = checkpoint.CheckpointSequential(mods, segments, x)
	}
	loss := y.Sum()
	loss.Backward()
	loss.Release()
	if after := dl.MemoryStats(dev).Allocated; after != before {
		panic(fmt.Sprintf("step leaked %d bytes", after-before))
	}
	return float64(dl.MemoryStats(dev).Peak-before) / float64(act)
}

// TestCheckpointSequentialMemory measures, with the device accounting,
// the activation peak of one training step of a 64-layer MLP: n
// activations plainly, about 2√n with √n segments (Chen et al. 2016),
// for one extra forward pass of the checkpointed layers.
func TestCheckpointSequentialMemory(t *testing.T) {
	dltest.HoldGC(t) // figures below are exact only without GC cleanups of other tests' tensors
	const n, d, batch = 64, 32, 64
	dev := dl.Sim(6)
	calls := 0
	mods := deepMLP(n, d, dev, &calls)
	x := dl.Options{Device: dev, Generator: dl.NewGenerator(2)}.Randn(batch, d)
	act := int64(batch * d * 4)                               // one [batch, d] float32 activation
	warm := checkpoint.CheckpointSequential(mods, 8, x).Sum() // allocates the parameter gradients
	warm.Backward()
	warm.Release()
	peaks := map[int]float64{}
	for _, s := range []int{0, 2, 4, 8, 16, 32} {
		calls = 0
		peaks[s] = stepPeak(dev, mods, s, x, act)
		size := 0
		if s > 0 {
			size = n / s * (s - 1) // checkpointed layers: recomputed once
		}
		if calls != n+size {
			t.Errorf("segments=%d: %d layer forwards; want %d (n + the checkpointed layers)", s, calls, n+size)
		}
		t.Logf("segments=%2d: peak %5.1f activations, %d forwards", s, peaks[s], calls)
	}
	// Plain: all n activations, plus the loss gradient and one gradient
	// in flight.  With s segments of n/s layers: s−1 segment inputs, n/s
	// layers of the segment being recomputed (or of the plain last one)
	// and the same few gradients: s + n/s + c, smallest at s = √n.
	if p := peaks[0]; p < n || p > n+3 {
		t.Errorf("plain peak %.1f activations; want n = %d plus at most 3", p, n)
	}
	for s, p := range peaks {
		if s == 0 {
			continue
		}
		if want := float64(s-1) + float64(n/s); p < want || p > want+4 {
			t.Errorf("segments=%d: peak %.1f activations; want s−1 + n/s = %.0f plus at most 4", s, p, want)
		}
	}
	best := 0
	for s, p := range peaks {
		if s > 0 && (best == 0 || p < peaks[best]) {
			best = s
		}
	}
	if best != int(math.Sqrt(n)) {
		t.Errorf("lowest peak with %d segments; want √n = %d", best, int(math.Sqrt(n)))
	}
}

// TestCheckpointDataInput checks that the first segment, whose input is
// data that does not require grad, still gets its parameter gradients.
func TestCheckpointDataInput(t *testing.T) {
	calls := 0
	mods := deepMLP(4, 5, dl.CPU, &calls)
	x := dl.Options{Generator: dl.NewGenerator(3)}.Randn(3, 5)
	run := func(segments int) [][]float32 {
		var out [][]float32
		for _, m := range mods {
			nn.ZeroGrad(m)
		}
		var y *dl.Tensor
		if segments == 0 {
			y = nn.NewSequential(mods...).Forward(x)
		} else {
			y = checkpoint.CheckpointSequential(mods, segments, x)
		}
		y.Sum().Backward()
		for _, m := range mods {
			for _, p := range nn.Parameters(m) {
				out = append(out, p.Grad().Float32s())
			}
		}
		return out
	}
	plain, ckpt := run(0), run(2)
	for i := range plain {
		if !slices.Equal(plain[i], ckpt[i]) {
			t.Fatalf("parameter gradient %d: checkpointed %v; plain %v", i, ckpt[i], plain[i])
		}
	}
}
