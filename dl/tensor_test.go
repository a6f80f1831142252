package dl_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dltest"
)

func TestTensorBasics(t *testing.T) {
	dltest.ForEachDevice(t, func(t *testing.T, dev dl.Device) {
		x := dl.Options{Device: dev}.Arange(0, 6, 1).Reshape(2, 3)
		if got := x.Shape(); !slices.Equal(got, []int{2, 3}) || x.Dims() != 2 || x.Numel() != 6 || x.Device() != dev || x.DType() != dl.Float32 {
			t.Fatalf("Arange(0,6,1).Reshape(2,3): shape %v dims %d numel %d dev %v dtype %v", got, x.Dims(), x.Numel(), x.Device(), x.DType())
		}
		y := x.Add(dl.Options{Device: dev}.FromFloat64s([]float64{10, 20, 30}))
		if got, want := y.Float64s(), []float64{10, 21, 32, 13, 24, 35}; !slices.Equal(got, want) {
			t.Errorf("Add with row broadcast = %v; want %v", got, want)
		}
		z := x.Mul(dl.Options{Device: dev}.FromFloat64s([]float64{2, -1}, 2, 1))
		if got, want := z.Float64s(), []float64{0, 2, 4, -3, -4, -5}; !slices.Equal(got, want) {
			t.Errorf("Mul with column broadcast = %v; want %v", got, want)
		}
		if got, want := x.Transpose(0, 1).Float64s(), []float64{0, 3, 1, 4, 2, 5}; !slices.Equal(got, want) {
			t.Errorf("Transpose = %v; want %v", got, want)
		}
		if got, want := x.Sum(0).Float64s(), []float64{3, 5, 7}; !slices.Equal(got, want) {
			t.Errorf("Sum(0) = %v; want %v", got, want)
		}
		if got := x.Mean().Item(); got != 2.5 {
			t.Errorf("Mean() = %v; want 2.5", got)
		}
	})
}

func TestMatMulDTypesAndKernels(t *testing.T) {
	a := dl.Options{Generator: dl.NewGenerator(1)}.Randn(17, 33)
	b := dl.Options{Generator: dl.NewGenerator(2)}.Randn(33, 9)
	want := a.AsType(dl.Float64).MatMul(b.AsType(dl.Float64)).Float64s()
	for _, k := range dl.MatMulKernels() {
		got := dl.MatMulWith(k, a, b).Float64s()
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-4 {
				t.Fatalf("MatMulWith(%v) [%d] = %v; want %v", k, i, got[i], want[i])
			}
		}
	}
	for _, dt := range []dl.DType{dl.Float16, dl.BFloat16} {
		got := a.AsType(dt).MatMul(b.AsType(dt))
		if got.DType() != dt {
			t.Errorf("MatMul of %v gives dtype %v", dt, got.DType())
		}
		for i, v := range got.Float64s() {
			if math.Abs(v-want[i]) > 0.05*math.Max(1, math.Abs(want[i])) {
				t.Fatalf("MatMul in %v [%d] = %v; want %v", dt, i, v, want[i])
			}
		}
	}
}

func TestErrorMessages(t *testing.T) {
	a, b := dl.Zeros(2, 3), dl.Zeros(4, 3)
	cases := []struct {
		name string
		fn   func()
		is   error
		want string
	}{
		{"broadcast", func() { a.Add(b) }, dl.ErrShape, "dl: Add: shape mismatch: shapes [2 3] and [4 3] cannot be broadcast: axis -2 has sizes 2 and 4"},
		{"device", func() { a.Mul(dl.Zeros(2, 3).To(dl.Sim(2))) }, dl.ErrDevice, "dl: Mul: device mismatch: expected all tensors on the same device, got cpu and sim:2; move one with .To(dev), e.g. b.To(dl.CPU)"},
		{"dtype", func() { a.Sub(a.AsType(dl.Float64)) }, dl.ErrDType, "dl: Sub: dtype mismatch: expected tensors of the same dtype, got float32 and float64; convert one with .AsType(dl.Float32)"},
		{"reshape", func() { a.Reshape(4, -1) }, dl.ErrShape, "cannot reshape [2 3] (6 elements) to [4 -1]"},
		{"item", func() { a.Item() }, dl.ErrShape, "Item needs a tensor with one element, got shape [2 3]"},
		{"no-cuda", func() { a.To(dl.CUDA(7)) }, dl.ErrDevice, "cuda:7"},
		{"backward", func() { a.Sum().Backward() }, dl.ErrAutograd, "does not require grad"},
		{"float64data", func() { a.Float64Data() }, dl.ErrDType, "the tensor has dtype float32, not float64"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := dl.Catch(c.fn)
			if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error = %v; want %v containing %q", err, c.is, c.want)
			}
		})
	}
	defer func() {
		if r := recover(); r != "not a dl error" {
			t.Errorf("Catch re-panicked with %v; want the original panic", r)
		}
	}()
	_ = dl.Catch(func() { panic("not a dl error") })
}

func TestSimOutOfMemory(t *testing.T) {
	dev := dl.Sim(5)
	if err := dl.ConfigureSim(5, dl.SimConfig{Capacity: 1 << 30, Profile: "H100 SXM"}); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = dl.ConfigureSim(5, dl.SimConfig{}) }()
	if p, ok := dl.SimProfileName(dev); !ok || p != "H100 SXM" {
		t.Errorf("SimProfileName(sim:5) = %q, %v; want \"H100 SXM\", true", p, ok)
	}
	big := dl.Options{Device: dev}.Zeros(245, 1<<20) // 980 MiB
	defer big.Release()
	err := dl.Catch(func() { dl.Options{Device: dev}.Zeros(16, 1<<20) }) // 64 MiB
	want := "dl: out of memory on sim:5: tried to allocate 64.00 MiB (capacity 1.00 GiB; 980.00 MiB allocated; 44.00 MiB free)"
	if !errors.Is(err, dl.ErrOutOfMemory) || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("allocation beyond capacity: %v; want prefix %q", err, want)
	}
	if err := dl.ConfigureSim(5, dl.SimConfig{Capacity: -1}); err == nil {
		t.Error("ConfigureSim with a negative capacity succeeded")
	}
	if err := dl.ConfigureSim(5, dl.SimConfig{}); err != nil {
		t.Fatal(err)
	}
	if p, ok := dl.SimProfileName(dev); ok {
		t.Errorf("SimProfileName(sim:5) after ConfigureSim without a profile = %q, true; want false", p)
	}
}

func TestMemoryRelease(t *testing.T) {
	dltest.HoldGC(t) // figures below are exact only without GC cleanups of other tests' tensors
	dev := dl.Sim(3)
	base := dl.MemoryStats(dev).Allocated
	w := dl.Options{Device: dev}.Ones(64, 64).SetRequiresGrad(true)
	x := dl.Options{Device: dev}.Ones(8, 64)
	h := x.MatMul(w)
	kept := h.ReLU().Retain()
	loss := kept.Sum()
	loss.Backward()
	if !h.Released() || kept.Released() || loss.Released() {
		t.Errorf("after Backward: h released %v (want true), retained released %v, root released %v (want false)", h.Released(), kept.Released(), loss.Released())
	}
	err := dl.Catch(func() { h.Float32s() })
	if !errors.Is(err, dl.ErrReleased) || !strings.Contains(err.Error(), "Retain()") {
		t.Errorf("use after release: %v; want ErrReleased naming Retain()", err)
	}
	for _, tt := range []*dl.Tensor{kept, loss, x, w} {
		tt.Release()
	}
	w.ZeroGrad()
	if got := dl.MemoryStats(dev).Allocated; got != base {
		t.Errorf("Allocated = %d after releasing everything; want %d", got, base)
	}
	before := dl.MemoryStats(dev)
	y := dl.Options{Device: dev}.Zeros(64, 64)
	y.Release()
	if after := dl.MemoryStats(dev); after.CacheHits != before.CacheHits+1 || after.Reserved != before.Reserved {
		t.Errorf("a second 16 KiB allocation: cache hits %d -> %d, reserved %d -> %d; want a cache hit and no new memory",
			before.CacheHits, after.CacheHits, before.Reserved, after.Reserved)
	}
}

// TestCollectGarbage drops tensors without Release on a simulated device
// and checks that CollectGarbage returns when the collector has freed
// them: Allocated back to where it was.
func TestCollectGarbage(t *testing.T) {
	dev := dl.Sim(6)
	dl.CollectGarbage()
	base := dl.MemoryStats(dev).Allocated
	for range 20 {
		_ = dl.Options{Device: dev}.Ones(128, 128).Tanh() // two tensors dropped
	}
	if got := dl.MemoryStats(dev).Allocated; got < base+40*128*128*4 {
		t.Fatalf("Allocated = %d after dropping 40 tensors of 64 KiB; want at least %d", got, base+40*128*128*4)
	}
	dl.CollectGarbage()
	if got := dl.MemoryStats(dev).Allocated; got != base {
		t.Errorf("Allocated = %d after CollectGarbage; want %d (the dropped tensors freed)", got, base)
	}
}

func TestBackwardAccumulatesAndHooks(t *testing.T) {
	w := dl.FromSlice([]float64{1, 2}).SetRequiresGrad(true)
	var fired []float64
	w.RegisterPostAccumulateGradHook(func(l *dl.Tensor) { fired = append(fired, l.Grad().Float64s()...) })
	for range 2 {
		w.Mul(w).Sum().Backward() // d/dw Σw² = 2w
	}
	if got, want := w.Grad().Float64s(), []float64{4, 8}; !slices.Equal(got, want) {
		t.Errorf("Grad after two Backward = %v; want %v", got, want)
	}
	if want := []float64{2, 4, 4, 8}; !slices.Equal(fired, want) {
		t.Errorf("hook saw %v; want %v (once per Backward, with the final gradient)", fired, want)
	}
	loss := w.Sum()
	loss.Backward()
	if err := dl.Catch(loss.Backward); !errors.Is(err, dl.ErrAutograd) {
		t.Errorf("second Backward through a freed graph: %v; want ErrAutograd", err)
	}
}

func TestNoGradIsGoroutineLocal(t *testing.T) {
	w := dl.Ones(2).SetRequiresGrad(true)
	var wg sync.WaitGroup
	results := make([]bool, 2)
	inside := make(chan struct{})
	release := make(chan struct{})
	wg.Add(2)
	go func() {
		defer wg.Done()
		dl.NoGrad(func() {
			close(inside)
			<-release
			results[0] = w.MulScalar(2).RequiresGrad()
		})
	}()
	go func() {
		defer wg.Done()
		<-inside // the other goroutine is inside NoGrad now
		results[1] = w.MulScalar(2).RequiresGrad()
		close(release)
	}()
	wg.Wait()
	if results[0] || !results[1] {
		t.Errorf("RequiresGrad inside NoGrad = %v (want false), on another goroutine = %v (want true)", results[0], results[1])
	}
}

func TestRandomDeterministic(t *testing.T) {
	a := dl.Options{Generator: dl.NewGenerator(42)}.Randn(1000).Float64s()
	g := dl.NewGenerator(42)
	b := dl.Options{Generator: g}.Randn(1000).Float64s()
	if !slices.Equal(a, b) {
		t.Fatal("two generators with seed 42 gave different numbers")
	}
	var mean, sq float64
	for _, v := range a {
		mean += v / 1000
		sq += v * v / 1000
	}
	if math.Abs(mean) > 0.1 || math.Abs(sq-1) > 0.1 {
		t.Errorf("Randn(1000): mean %v, mean square %v; want about 0 and 1", mean, sq)
	}
	st := g.State()
	c := dl.Options{Generator: g}.Rand(5).Float64s()
	g.SetState(st)
	if d := (dl.Options{Generator: g}).Rand(5).Float64s(); !slices.Equal(c, d) {
		t.Errorf("after SetState: %v; want the replayed %v", d, c)
	}
	// Pinned values: these must not change across machines or versions.
	first := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(0)}.Rand(2).Float64s()
	if want := pinnedRand0; !slices.Equal(first, want) {
		t.Errorf("Rand with seed 0 = %v; want %v", first, want)
	}
	normals := dl.Options{DType: dl.Float64, Generator: dl.NewGenerator(0)}.Randn(3).Float64s()
	if want := pinnedRandn0; !slices.Equal(normals, want) {
		t.Errorf("Randn with seed 0 = %v; want %v", normals, want)
	}
}

func TestString(t *testing.T) {
	cases := []struct {
		t    *dl.Tensor
		want string
	}{
		{dl.FromSlice([]float32{1.5, -2, 3.25}), "tensor([ 1.5000, -2.0000,  3.2500], device=cpu, dtype=float32)"},
		{dl.Options{DType: dl.Float64}.Scalar(3), "tensor(3., device=cpu, dtype=float64)"},
		{dl.FromSlice([]float32{1e-5, 1}), "tensor([1.0000e-05, 1.0000e+00], device=cpu, dtype=float32)"},
		{dl.Zeros(0, 3), "tensor([], size=[0 3], device=cpu, dtype=float32)"},
		{dl.FromSlice([]float32{float32(math.Inf(1)), 2}), "tensor([inf, 2.], device=cpu, dtype=float32)"},
		{dl.Zeros(2).SetRequiresGrad(true), "tensor([0., 0.], device=cpu, dtype=float32, requires_grad=true)"},
	}
	for _, c := range cases {
		if got := c.t.String(); got != c.want {
			t.Errorf("String() = %q; want %q", got, c.want)
		}
	}
	big := dl.Arange(0, 2000, 1).String()
	if !strings.Contains(big, "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n        1.9990e+03], device=cpu, dtype=float32)") {
		t.Errorf("summarised String() = %q", big)
	}
}

func TestHTML(t *testing.T) {
	got := dl.FromSlice([]float32{1, 2}).HTML()
	for _, want := range []string{"Tensor [2] · float32 · cpu · 8 bytes", "<pre", "tensor([1., 2.], device=cpu, dtype=float32)"} {
		if !strings.Contains(got, want) {
			t.Errorf("HTML() = %q; want it to contain %q", got, want)
		}
	}
}
