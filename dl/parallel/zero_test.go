package parallel_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/dltest"
	"github.com/dlbd/dlbd/dl/nn"
	"github.com/dlbd/dlbd/dl/optim"
	"github.com/dlbd/dlbd/dl/parallel"
	"github.com/dlbd/dlbd/dl/plan"
)

// trainZeRO trains an MLP with ZeRO configured by cfg on 4 ranks (float64,
// Adam) and returns the gathered parameters.
func trainZeRO(t *testing.T, sizes []int, cfg parallel.ZeROConfig, x, y *dl.Tensor, steps int) []*dl.Tensor {
	t.Helper()
	var got []*dl.Tensor
	cfg.Optimizer = func(ps []*dl.Tensor) optim.Optimizer { return optim.NewAdam(ps, optim.AdamConfig{LR: 0.01}) }
	err := dist.Run(4, func(r *dist.Rank) error {
		m := mlp64(sizes, r.Device(), uint64(1+r.Rank()))
		z, err := parallel.NewZeRO(m, r, cfg)
		if err != nil {
			return err
		}
		b := x.Size(0) / 4
		xr, yr := x.Slice(r.Rank()*b, (r.Rank()+1)*b).To(r.Device()), y.Slice(r.Rank()*b, (r.Rank()+1)*b).To(r.Device())
		for range steps {
			dl.MSE(z.Forward(xr), yr).Backward()
			if err := z.Step(); err != nil {
				return err
			}
			z.ZeroGrad()
		}
		ps, err := z.GatherParameters()
		if r.Rank() == 3 { // the last rank: its shards are the padded ones
			got = ps
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	dltest.HoldGC(t) // the ranks' ZeRO buffers are garbage now: collect them before a later test or example measures these devices
	return got
}

// adamOnOneDevice trains trainZeRO's MLP on one device with the whole
// batch (Adam, lr 0.01) and returns its parameters: the reference of the
// ZeRO tests.
func adamOnOneDevice(sizes []int, x, y *dl.Tensor, steps int) []*dl.Tensor {
	ref := mlp64(sizes, dl.CPU, 1)
	opt := optim.NewAdam(nn.Parameters(ref), optim.AdamConfig{LR: 0.01})
	for range steps {
		dl.MSE(ref.Forward(x), y).Backward()
		opt.Step()
		opt.ZeroGrad()
	}
	return nn.Parameters(ref)
}

// TestZeROMatchesDDP trains with every stage and compares with one device
// on the whole batch (which TestDDPMatchesSingleDevice equates with DDP).
// The layer sizes do not divide by 4, so the shards are padded.
func TestZeROMatchesDDP(t *testing.T) {
	sizes := []int{6, 10, 3}
	x, y := regressionData(4*5, 6, 3, 11)
	const steps = 3
	ref := adamOnOneDevice(sizes, x, y, steps)
	for stage := range 4 {
		t.Run(fmt.Sprintf("stage=%d", stage), func(t *testing.T) {
			got := trainZeRO(t, sizes, parallel.ZeROConfig{Stage: stage}, x, y, steps)
			if d := maxDiff(got, ref); d > 1e-12 {
				t.Errorf("ZeRO-%d after %d Adam steps: max |ZeRO − single device| = %.3g; want ≤ 1e-12", stage, steps, d)
			}
		})
	}
}

// simDevices returns n simulated devices from index first (added if
// needed), so that memory measurements see no other test's tensors.
func simDevices(t *testing.T, first, n int) []dl.Device {
	t.Helper()
	if err := dl.ConfigureSim(first+n-1, dl.SimConfig{}); err != nil {
		t.Fatal(err)
	}
	devs := make([]dl.Device, n)
	for i := range devs {
		devs[i] = dl.Sim(first + i)
	}
	return devs
}

// measureZeROStates trains one step with ZeRO on n ranks and returns each
// rank's allocated bytes after Step (before ZeroGrad) minus before the
// model was built: the model states (the batch and the loss are released).
func measureZeROStates(t *testing.T, devs []dl.Device, sizes []int, stage int, bf16 bool) (psi int, states []int64) {
	return measureZeROConfig(t, devs, sizes, parallel.ZeROConfig{Stage: stage, BF16: bf16})
}

// measureZeROConfig is measureZeROStates for any configuration.
func measureZeROConfig(t *testing.T, devs []dl.Device, sizes []int, cfg parallel.ZeROConfig) (psi int, states []int64) {
	bf16 := cfg.BF16
	t.Helper()
	n := len(devs)
	g, err := dist.New(dist.Config{WorldSize: n, Devices: devs})
	if err != nil {
		t.Fatal(err)
	}
	states = make([]int64, n)
	err = g.Run(func(r *dist.Rank) error {
		dev := r.Device()
		// Built on the CPU and copied: the device sees only the parameters.
		m := nn.NewMLP(sizes, nn.MLPConfig{InitConfig: nn.InitConfig{Generator: dl.NewGenerator(3)}})
		if err := parallel.ModuleTo(m, dev); err != nil {
			return err
		}
		base := dl.MemoryStats(dev).Allocated - int64(4*nn.NumParams(m)) // NewZeRO releases the model's own float32 parameters
		z, err := parallel.NewZeRO(m, r, cfg)
		if err != nil {
			return err
		}
		if r.Rank() == 0 {
			psi = z.NumParams()
		}
		o := dl.Options{Device: dev, Generator: dl.NewGenerator(uint64(r.Rank()))}
		x, y := o.Randn(4, sizes[0]), o.Randn(4, sizes[len(sizes)-1])
		if bf16 {
			x32, y32 := x, y
			x, y = x.AsType(dl.BFloat16), y.AsType(dl.BFloat16)
			releaseAllTensors(x32, y32)
		}
		out := z.Forward(x)
		loss := dl.MSE(out, y)
		loss.Backward()
		releaseAllTensors(loss, x, y)
		if err := z.Step(); err != nil {
			return err
		}
		states[r.Rank()] = dl.MemoryStats(dev).Allocated - base
		z.ZeroGrad()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return psi, states
}

func releaseAllTensors(ts ...*dl.Tensor) {
	for _, t := range ts {
		t.Release()
	}
}

// TestZeROMemoryMatchesPaper measures every rank's model states with the
// devices' memory accounting and compares them with the ZeRO paper's
// formulas (plan.ModelStates): mixed-precision Adam 16Ψ, 4Ψ + 12Ψ/N,
// 2Ψ + 14Ψ/N, 16Ψ/N, and fp32 Adam 16Ψ, 8Ψ + 8Ψ/N, 4Ψ + 12Ψ/N, 16Ψ/N.
// Layer sizes make every unit divide into 2N equal parts (no padding).
func TestZeROMemoryMatchesPaper(t *testing.T) {
	dltest.HoldGC(t) // figures below are exact only without GC cleanups of other tests' tensors
	const n = 4
	sizes := []int{8, 16, 8}
	first := 16 // fresh devices for every case
	for _, bf16 := range []bool{true, false} {
		prec := plan.FP32Adam
		if bf16 {
			prec = plan.MixedPrecisionAdam
		}
		for stage := range 4 {
			t.Run(fmt.Sprintf("precision=%s/stage=%d", prec.Name, stage), func(t *testing.T) {
				psi, got := measureZeROStates(t, simDevices(t, first, n), sizes, stage, bf16)
				first += n
				want := plan.ModelStates(float64(psi), prec, plan.ZeROStage(stage), n).Total()
				for r, b := range got {
					if float64(b) != want {
						t.Errorf("rank %d: measured %d bytes of model states for Ψ = %d; the formula gives %.0f (%.2fΨ)", r, b, psi, want, want/float64(psi))
					}
				}
			})
		}
	}
}

// TestZeROOffloadMatchesZeRO trains with the optimizer on the host
// (ZeRO-Offload) at stages 1 and 2 and compares with single-device Adam,
// as TestZeROMatchesDDP does for the stages on the device.
func TestZeROOffloadMatchesZeRO(t *testing.T) {
	sizes := []int{6, 10, 3}
	x, y := regressionData(4*5, 6, 3, 11)
	const steps = 3
	ref := adamOnOneDevice(sizes, x, y, steps)
	for _, stage := range []int{1, 2} {
		got := trainZeRO(t, sizes, parallel.ZeROConfig{Stage: stage, Offload: true}, x, y, steps)
		if d := maxDiff(got, ref); d > 1e-12 {
			t.Errorf("ZeRO-%d-Offload after %d Adam steps: max |ZeRO − single device| = %.3g; want ≤ 1e-12", stage, steps, d)
		}
	}
}

// TestZeROOffloadMemory measures the device memory of ZeRO-Offload with
// the devices' accounting: only the working parameters and the gradients
// stay (plan.ModelStates' Weights + Gradients), the master weights and
// Adam's moments are in host memory; and the configurations it refuses.
func TestZeROOffloadMemory(t *testing.T) {
	dltest.HoldGC(t)
	const n = 4
	sizes := []int{8, 16, 8}
	first := 60
	for _, bf16 := range []bool{true, false} {
		prec := plan.FP32Adam
		if bf16 {
			prec = plan.MixedPrecisionAdam
		}
		for _, stage := range []int{1, 2} {
			psi, got := measureZeROConfig(t, simDevices(t, first, n), sizes, parallel.ZeROConfig{Stage: stage, BF16: bf16, Offload: true})
			first += n
			m := plan.ModelStates(float64(psi), prec, plan.ZeROStage(stage), n)
			for r, b := range got {
				if want := m.Weights + m.Gradients; float64(b) != want {
					t.Errorf("%s stage %d, rank %d: %d bytes on the device; want %.0f (weights + gradients; the optimizer's %.0f bytes on the host)",
						prec.Name, stage, r, b, want, m.Optimizer)
				}
			}
		}
	}
	for _, stage := range []int{0, 3} {
		err := dist.Run(2, func(r *dist.Rank) error {
			m := mlp64(sizes, r.Device(), 1)
			_, err := parallel.NewZeRO(m, r, parallel.ZeROConfig{Stage: stage, Offload: true})
			releaseAllTensors(nn.Parameters(m)...) // not left to the GC: later tests measure these devices
			return err
		})
		if err == nil || !strings.Contains(err.Error(), "Offload at stage") {
			t.Errorf("Offload at stage %d: error %v; want one naming the stage and the fix", stage, err)
		}
	}
}

// linkBytes is the payload all links of g carried.
func linkBytes(g *dist.Group) int64 {
	var b int64
	for _, l := range g.LinkTraffic() {
		b += l.Bytes
	}
	return b
}

// stepTraffic returns the bytes moved by one training step (forward,
// backward, optimizer) of DDP (stage < 0) or ZeRO at a stage, with the
// ring all-reduce, so that every collective travels over the links.
func stepTraffic(t *testing.T, stage int) int64 {
	t.Helper()
	sizes := []int{8, 16, 8} // units of 144 and 136 elements: no padding over 4 ranks
	g, err := dist.New(dist.Config{WorldSize: 4, AllReduce: dist.Ring})
	if err != nil {
		t.Fatal(err)
	}
	var bytes int64
	err = g.Run(func(r *dist.Rank) error {
		m := mlp64(sizes, r.Device(), 1)
		var fwd func(*dl.Tensor) *dl.Tensor
		var step func() error
		if stage < 0 {
			d, err := parallel.NewDDP(m, r, parallel.DDPConfig{})
			if err != nil {
				return err
			}
			opt := optim.NewAdam(nn.Parameters(d), optim.AdamConfig{})
			fwd, step = d.Forward, func() error { opt.Step(); return nil }
		} else {
			z, err := parallel.NewZeRO(m, r, parallel.ZeROConfig{Stage: stage})
			if err != nil {
				return err
			}
			fwd, step = z.Forward, z.Step
		}
		x := dl.Options{DType: dl.Float64, Device: r.Device()}.Ones(2, 8)
		if err := r.Barrier(); err != nil {
			return err
		}
		var before int64
		if r.Rank() == 0 {
			before = linkBytes(g)
		}
		if err := r.Barrier(); err != nil { // nobody starts before rank 0 has read the counters
			return err
		}
		fwd(x).Sum().Backward()
		if err := step(); err != nil {
			return err
		}
		if err := r.Barrier(); err != nil {
			return err
		}
		if r.Rank() == 0 {
			bytes = linkBytes(g) - before
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return bytes
}

// TestZeROTraffic checks the ZeRO paper's communication volumes from the
// link records: stages 1 and 2 move what DDP moves (reduce-scatter +
// all-gather = all-reduce), stage 3 moves 1.5×.
func TestZeROTraffic(t *testing.T) {
	ddp := stepTraffic(t, -1)
	psi := 8*16 + 16 + 16*8 + 8
	if want := int64(2 * 3 * psi * 8); ddp != want {
		t.Errorf("DDP moved %d bytes; want 2(n−1)·S = %d for a ring all-reduce of S = %d bytes on 4 ranks", ddp, want, psi*8)
	}
	for stage, ratio := range []float64{1, 1, 1, 1.5} {
		got := stepTraffic(t, stage)
		if r := float64(got) / float64(ddp); r != ratio {
			t.Errorf("ZeRO-%d moved %d bytes = %.3f× DDP's %d; want %.1f×", stage, got, r, ddp, ratio)
		}
	}
}

func TestZeROStage1NeedsNoSyncToAccumulate(t *testing.T) {
	err := dist.Run(2, func(r *dist.Rank) error {
		z, err := parallel.NewZeRO(mlp64([]int{4, 4}, r.Device(), 1), r, parallel.ZeROConfig{Stage: 1})
		if err != nil {
			return err
		}
		x := dl.Options{DType: dl.Float64, Device: r.Device()}.Ones(2, 4)
		z.NoSync(func() { z.Forward(x).Sum().Backward() }) // accumulating under NoSync is fine
		z.Forward(x).Sum().Backward()
		z.Forward(x).Sum().Backward() // a second synchronised backward before Step is not
		return nil
	})
	if err == nil {
		t.Fatal("a second synchronised backward at stage 1 did not fail")
	}
}

func TestFSDPStrategies(t *testing.T) {
	for _, c := range []struct {
		s     parallel.ShardingStrategy
		name  string
		stage int
	}{{parallel.FullShard, "FULL_SHARD", 3}, {parallel.ShardGradOp, "SHARD_GRAD_OP", 2}, {parallel.NoShard, "NO_SHARD", 0}} {
		if c.s.String() != c.name || c.s.ZeROStage() != c.stage {
			t.Errorf("%v: String() = %q, ZeROStage() = %d; want %q, %d", int(c.s), c.s.String(), c.s.ZeROStage(), c.name, c.stage)
		}
	}
	err := dist.Run(2, func(r *dist.Rank) error {
		z, err := parallel.NewFSDP(mlp64([]int{4, 4}, r.Device(), 1), r, parallel.FSDPConfig{})
		if err == nil && z.Stage() != 3 {
			err = fmt.Errorf("the zero FSDPConfig gave stage %d; want FULL_SHARD = 3", z.Stage())
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
