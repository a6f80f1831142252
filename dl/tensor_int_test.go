package dl_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

func TestIntDTypes(t *testing.T) {
	for _, tc := range []struct {
		dt   dl.DType
		name string
		size int
	}{{dl.Int64, "int64", 8}, {dl.Int32, "int32", 4}, {dl.Uint8, "uint8", 1}, {dl.Bool, "bool", 1}} {
		if tc.dt.String() != tc.name || tc.dt.Size() != tc.size || tc.dt.IsFloat() {
			t.Errorf("%v: String %q, Size %d, IsFloat %v; want %q, %d, false", tc.dt, tc.dt.String(), tc.dt.Size(), tc.dt.IsFloat(), tc.name, tc.size)
		}
	}
	if !dl.Float16.IsFloat() || dl.DType(8).String() != "DType(8)" {
		t.Error("Float16 must be a float and DType(8) unknown")
	}
}

func TestIntCreation(t *testing.T) {
	big := int64(1)<<53 + 1 // not a float64: must stay exact
	x := dl.FromSlice([]int64{3, -1, big})
	if x.DType() != dl.Int64 || !slices.Equal(x.Int64s(), []int64{3, -1, big}) {
		t.Errorf("FromSlice(int64) = %v %v; want Int64 [3 -1 %d]", x.DType(), x.Int64s(), big)
	}
	if got := dl.FromSlice([]bool{true, false}).Bools(); !slices.Equal(got, []bool{true, false}) {
		t.Errorf("FromSlice(bool).Bools() = %v", got)
	}
	o := dl.Options{DType: dl.Int32}
	if got := o.Full(7.9, 2).Int64s(); !slices.Equal(got, []int64{7, 7}) {
		t.Errorf("Int32 Full(7.9) = %v; want [7 7] (truncated)", got)
	}
	if got := o.Arange(0, 5, 2).Int64s(); !slices.Equal(got, []int64{0, 2, 4}) {
		t.Errorf("Int32 Arange(0, 5, 2) = %v", got)
	}
	if got := (dl.Options{DType: dl.Uint8}).FromInt64s([]int64{255, 256, -1}).Int64s(); !slices.Equal(got, []int64{255, 0, 255}) {
		t.Errorf("Uint8 FromInt64s(255, 256, -1) = %v; want [255 0 255] (wrapping, as torch.uint8)", got)
	}
	r := dl.Options{DType: dl.Int64, Generator: dl.NewGenerator(3)}.Randint(-2, 3, 1000)
	seen := map[int64]int{}
	for _, v := range r.Int64s() {
		seen[v]++
	}
	if len(seen) != 5 || seen[-3] != 0 || seen[3] != 0 {
		t.Errorf("Randint(-2, 3) hit %v; want exactly -2..2", seen)
	}
	if err := dl.Catch(func() { dl.Options{DType: dl.Int64}.Rand(2) }); !errors.Is(err, dl.ErrDType) {
		t.Errorf("Int64 Rand: %v; want a *DTypeError", err)
	}
}

func TestIntConversions(t *testing.T) {
	f := dl.FromSlice([]float32{-1.7, 0, 2.9, float32(math.NaN())})
	if got := f.AsType(dl.Int64).Int64s()[:3]; !slices.Equal(got, []int64{-1, 0, 2}) {
		t.Errorf("AsType(Int64) of (-1.7, 0, 2.9) = %v; want [-1 0 2] (toward zero, as .long())", got)
	}
	if got := f.AsType(dl.Bool).Bools(); !slices.Equal(got, []bool{true, false, true, true}) {
		t.Errorf("AsType(Bool) = %v; want nonzero (NaN included) true", got)
	}
	i := dl.FromSlice([]int64{1, 2, 3}).To(dl.Sim(1)).AsType(dl.Float16).AsType(dl.Int32).To(dl.CPU)
	if got := i.Int64s(); i.DType() != dl.Int32 || !slices.Equal(got, []int64{1, 2, 3}) {
		t.Errorf("round trip through Sim and Float16 = %v %v", i.DType(), got)
	}
	if got := dl.FromSlice([]int64{5}).Item(); got != 5 {
		t.Errorf("Item = %v", got)
	}
}

func TestIntOps(t *testing.T) {
	a := dl.FromSlice([]int64{1, 2, 3, 4}, 2, 2)
	b := dl.FromSlice([]int64{10, 20}, 2)
	if got := a.Add(b).Int64s(); !slices.Equal(got, []int64{11, 22, 13, 24}) {
		t.Errorf("Add with broadcasting = %v", got)
	}
	if got := a.Mul(a).Sub(a).Neg().Int64s(); !slices.Equal(got, []int64{0, -2, -6, -12}) {
		t.Errorf("-(a*a - a) = %v", got)
	}
	if got := a.MulScalar(3).AddScalar(-1).Int64s(); !slices.Equal(got, []int64{2, 5, 8, 11}) {
		t.Errorf("3a - 1 = %v", got)
	}
	if s := a.Sum(); s.DType() != dl.Int64 || s.Item() != 10 {
		t.Errorf("Sum = %v (%v); want Int64 10", s.Item(), s.DType())
	}
	if got := a.Sum(0).Int64s(); !slices.Equal(got, []int64{4, 6}) {
		t.Errorf("Sum(0) = %v", got)
	}
	if got := dl.FromSlice([]int32{5, 9, 9, 1}).ArgMax(0); got.DType() != dl.Int64 || got.Item() != 1 {
		t.Errorf("ArgMax of int32 = %v %v; want Int64 1 (the first maximum)", got.DType(), got.Item())
	}
	if got := a.Max(1).Int64s(); !slices.Equal(got, []int64{2, 4}) {
		t.Errorf("Max(1) = %v", got)
	}
	m := dl.FromSlice([]bool{true, false, true})
	if c := m.Sum(); c.DType() != dl.Int64 || c.Item() != 2 {
		t.Errorf("Sum of a Bool mask = %v %v; want Int64 2", c.DType(), c.Item())
	}
	for name, fn := range map[string]func(){
		"Div":           func() { a.Div(a) },
		"Mean":          func() { a.Mean() },
		"Exp":           func() { a.Exp() },
		"MulScalar 0.5": func() { a.MulScalar(0.5) },
		"MatMul":        func() { a.MatMul(a) },
		"Softmax":       func() { a.Softmax(1) },
		"Add of Bool":   func() { m.Add(m) },
	} {
		if err := dl.Catch(fn); !errors.Is(err, dl.ErrDType) {
			t.Errorf("%s on an integer tensor: %v; want a *DTypeError", name, err)
		}
	}
	if err := dl.Catch(func() { a.SetRequiresGrad(true) }); !errors.Is(err, dl.ErrAutograd) {
		t.Errorf("SetRequiresGrad on Int64: %v; want a *AutogradError", err)
	}
}

func TestCompareReturnsBool(t *testing.T) {
	logits := dl.FromSlice([]float32{0.1, 0.9, 0.8, 0.2, 0.3, 0.7}, 3, 2)
	pred := logits.ArgMax(1)
	labels := dl.FromSlice([]int64{1, 1, 1})
	eq := pred.Eq(labels)
	if eq.DType() != dl.Bool || !slices.Equal(eq.Bools(), []bool{true, false, true}) {
		t.Fatalf("pred.Eq(labels) = %v %v; want Bool [true false true]", eq.DType(), eq.Bools())
	}
	if acc := eq.AsType(dl.Float32).Mean().Item(); math.Abs(acc-2.0/3) > 1e-6 {
		t.Errorf("accuracy = %v; want 2/3", acc)
	}
	mixed := labels.Eq(dl.FromSlice([]float32{1, 0.5, 1})) // Int64 against Float32 compares as Float32
	if !slices.Equal(mixed.Bools(), []bool{true, false, true}) {
		t.Errorf("Int64.Eq(Float32) = %v", mixed.Bools())
	}
	x := dl.FromSlice([]float64{-1, 2, 0.5})
	if got := x.Gt(dl.Scalar(0).AsType(dl.Float64)).Bools(); !slices.Equal(got, []bool{false, true, true}) {
		t.Errorf("Gt = %v", got)
	}
	if got := x.Lt(dl.FromSlice([]float64{0})).Bools(); !slices.Equal(got, []bool{true, false, false}) {
		t.Errorf("Lt = %v", got)
	}
	w := dl.Where(x.Gt(dl.FromSlice([]float64{0})), x, dl.ZerosLike(x))
	if got := w.Float64s(); !slices.Equal(got, []float64{0, 2, 0.5}) {
		t.Errorf("Where(Bool mask) = %v", got)
	}
	if got := x.MaskedFill(x.Lt(dl.FromSlice([]float64{0})), 9).Float64s(); !slices.Equal(got, []float64{9, 2, 0.5}) {
		t.Errorf("MaskedFill(Bool mask) = %v", got)
	}
	ids := dl.Where(dl.FromSlice([]bool{true, false}), dl.FromSlice([]int64{7, 7}), dl.FromSlice([]int64{1, 2}))
	if got := ids.Int64s(); !slices.Equal(got, []int64{7, 2}) {
		t.Errorf("Where on Int64 = %v", got)
	}
}

func TestIntIndexing(t *testing.T) {
	emb := dl.FromSlice([]float32{0, 0, 1, 1, 2, 2}, 3, 2).SetRequiresGrad(true)
	ids := dl.FromSlice([]int64{2, 0, 2})
	rows := emb.IndexSelect(ids)
	if got := rows.Float32s(); !slices.Equal(got, []float32{2, 2, 0, 0, 2, 2}) {
		t.Errorf("IndexSelect(Int64 ids) = %v", got)
	}
	rows.Sum().Backward()
	if got := emb.Grad().Float32s(); !slices.Equal(got, []float32{1, 1, 0, 0, 2, 2}) {
		t.Errorf("gradient through Int64 ids = %v", got)
	}
	tok := dl.FromSlice([]int64{5, 6, 7, 8, 9, 10}, 2, 3)
	if got := tok.Index(1).Narrow(0, 1, 2).Int64s(); !slices.Equal(got, []int64{9, 10}) {
		t.Errorf("Index/Narrow = %v", got)
	}
	if got := tok.T().Int64s(); !slices.Equal(got, []int64{5, 8, 6, 9, 7, 10}) {
		t.Errorf("T = %v", got)
	}
	if got := dl.Cat([]*dl.Tensor{tok, tok}, 1).Shape(); !slices.Equal(got, []int{2, 6}) {
		t.Errorf("Cat shape = %v", got)
	}
	if got := tok.IndexSelect(dl.FromSlice([]int32{1})).Int64s(); !slices.Equal(got, []int64{8, 9, 10}) {
		t.Errorf("IndexSelect of Int64 rows = %v", got)
	}
	oh := dl.OneHot(dl.FromSlice([]int64{1, 0}), 3)
	if oh.DType() != dl.Int64 || !slices.Equal(oh.Int64s(), []int64{0, 1, 0, 1, 0, 0}) {
		t.Errorf("OneHot(Int64) = %v %v", oh.DType(), oh.Int64s())
	}
}

func TestCrossEntropyIntTargets(t *testing.T) {
	g := dl.NewGenerator(1)
	logits := dl.Options{Generator: g, DType: dl.Float64}.Randn(4, 5)
	lf := logits.Detach().SetRequiresGrad(true)
	li := logits.Detach().SetRequiresGrad(true)
	floatLoss := dl.CrossEntropy(lf, dl.FromSlice([]float64{0, 4, 2, 1}))
	intLoss := dl.CrossEntropy(li, dl.FromSlice([]int64{0, 4, 2, 1}))
	if floatLoss.Item() != intLoss.Item() {
		t.Errorf("CrossEntropy with Int64 targets = %v; with float targets %v", intLoss.Item(), floatLoss.Item())
	}
	floatLoss.Backward()
	intLoss.Backward()
	if !dl.AllClose(lf.Grad(), li.Grad(), 0, 0) {
		t.Error("gradients differ between Int64 and float targets")
	}
	big := dl.Options{DType: dl.Float16}
	if err := dl.Catch(func() { dl.CrossEntropy(big.Zeros(1, 4096), dl.FromSlice([]int64{2049})) }); err != nil {
		t.Errorf("float16 logits with Int64 target 2049: %v; want it accepted (the target is exact)", err)
	}
}

func TestIntString(t *testing.T) {
	for _, tc := range []struct {
		x    *dl.Tensor
		want string
	}{
		{dl.FromSlice([]int64{1, -20, 300}), "tensor([  1, -20, 300], device=cpu, dtype=int64)"},
		{dl.FromSlice([]int64{1<<53 + 1}), "tensor([9007199254740993], device=cpu, dtype=int64)"},
		{dl.FromSlice([]bool{true, false}, 1, 2), "tensor([[ True, False]], device=cpu, dtype=bool)"},
		{dl.Options{DType: dl.Int32}.Scalar(4), "tensor(4, device=cpu, dtype=int32)"},
	} {
		if got := tc.x.String(); got != tc.want {
			t.Errorf("String() = %q; want %q", got, tc.want)
		}
	}
}
