package dl

import (
	"fmt"
	"math"
)

// The ops layer's rules for integer and Bool tensors (see DType): which
// ops they support, comparisons returning Bool masks, and the reductions
// whose result dtype differs from the input's (Sum into Int64, ArgMax
// into Int64), as in PyTorch.

// requireFloat panics with a *DTypeError naming op unless every tensor has
// a floating-point dtype (PyTorch refuses these ops on integer tensors,
// e.g. "mean(): could not infer output dtype").
func requireFloat(op string, ts ...*Tensor) {
	for _, t := range ts {
		if t != nil && !t.dtype.IsFloat() {
			panic(&DTypeError{Op: op, DTypes: []DType{t.dtype},
				Reason: fmt.Sprintf("%s needs floating-point tensors; this one is %v", op, t.dtype),
				Fix:    "convert it with .AsType(dl.Float32)"})
		}
	}
}

// intOnHost panics with a *DTypeError unless integer tensor t is on a
// host device: the CUDA backend stores and copies integers but has no
// integer kernels.
func intOnHost(op string, t *Tensor) {
	if !t.dev.IsHost() {
		panic(&DTypeError{Op: op, DTypes: []DType{t.dtype},
			Reason: fmt.Sprintf("%v tensors compute on host devices (CPU, Sim); this one is on %v", t.dtype, t.dev),
			Fix:    "move it with .To(dl.CPU), or convert it with .AsType(dl.Float32)"})
	}
}

// intUnaryOK, intBinaryOK and intScalarOK are the ops integer kernels
// implement (cpu_int.go); Bool tensors take only the comparisons and
// copies among them.
var (
	intUnaryOK  = map[unaryOp]bool{opNeg: true, opAbs: true, opReLU: true}
	intBinaryOK = map[binaryOp]bool{opAdd: true, opSub: true, opMul: true, opMax: true, opMin: true, opEq: true, opGt: true, opLeft: true}
	intScalarOK = map[scalarOp]bool{opAddS: true, opSubS: true, opRSubS: true, opMulS: true, opMaxS: true, opMinS: true,
		opEqS: true, opGtS: true, opLtS: true, opKeepS: true, opSetS: true}
	boolBinaryOK = map[binaryOp]bool{opEq: true, opGt: true, opLeft: true, opMax: true, opMin: true}
)

// checkInt panics unless op (ok says whether the integer kernels have it)
// may run on t's integer dtype; it does nothing for float tensors.
func checkInt(name string, t *Tensor, ok bool) {
	if !t.dtype.isInt() {
		return
	}
	intOnHost(name, t)
	if !ok {
		panic(&DTypeError{Op: name, DTypes: []DType{t.dtype},
			Reason: fmt.Sprintf("%s is not defined on %v tensors (dl computes integer Add, Sub, Mul, Neg, comparisons, Sum, Max and ArgMax)", name, t.dtype),
			Fix:    "convert with .AsType(dl.Float32) first"})
	}
}

func checkIntBinary(name string, op binaryOp, t *Tensor) {
	checkInt(name, t, intBinaryOK[op] && (t.dtype != Bool || boolBinaryOK[op]))
}

func checkIntUnary(name string, op unaryOp, t *Tensor) {
	checkInt(name, t, intUnaryOK[op] && t.dtype != Bool)
}

// checkIntScalar also refuses a scalar with a fraction (PyTorch would
// promote the result to float; dl keeps dtypes explicit).
func checkIntScalar(name string, op scalarOp, t *Tensor, s float64) {
	checkInt(name, t, intScalarOK[op] && (t.dtype != Bool || op == opKeepS || op == opSetS || op >= opEqS && op <= opLtS))
	if t.dtype.isInt() && (s != math.Trunc(s) || math.IsInf(s, 0)) {
		panic(&DTypeError{Op: name, DTypes: []DType{t.dtype},
			Reason: fmt.Sprintf("the scalar %v is not an integer, and the tensor is %v", s, t.dtype),
			Fix:    "convert the tensor with .AsType(dl.Float32) first"})
	}
}

// compareDType is the dtype two tensors are compared in: the wider of the
// two by PyTorch's promotion order (Bool < Uint8 < Int32 < Int64 < the
// half types < Float32 < Float64; Float16 with BFloat16 gives Float32), so
// Int64 targets compare with Float32 predictions.
func compareDType(a, b DType) DType {
	rank := map[DType]int{Bool: 0, Uint8: 1, Int32: 2, Int64: 3, Float16: 4, BFloat16: 4, Float32: 5, Float64: 6}
	switch {
	case a == b:
		return a
	case rank[a] == rank[b]: // Float16 and BFloat16
		return Float32
	case rank[a] > rank[b]:
		return a
	}
	return b
}

// compare returns the Bool mask op(a, b) (opEq or opGt), with
// broadcasting, in the promoted dtype of a and b.
func compare(name string, op binaryOp, a, b *Tensor) *Tensor {
	a.live(name)
	b.live(name)
	sameDevice(name, a, b)
	dt := compareDType(a.dtype, b.dtype)
	ac, bc := castTo(a, dt), castTo(b, dt)
	r := binaryRaw(name, op, ac, bc)
	for _, c := range []*Tensor{ac, bc} {
		if c != a && c != b {
			c.Release()
		}
	}
	out := castTo(r, Bool)
	if out != r {
		r.Release()
	}
	return out
}

// castTo returns t converted to dt without autograd (castRaw), or t
// itself if it already has dt.
func castTo(t *Tensor, dt DType) *Tensor {
	if t.dtype == dt {
		return t
	}
	if t.dtype.isInt() || dt.isInt() {
		intOnHost("AsType", t)
	}
	return castRaw("AsType", t, dt)
}

// sumInt returns the Sum of an integer or Bool tensor over ax, in Int64
// (PyTorch's sum of integers and bools), so that counts do not overflow a
// narrower type.
func sumInt(name string, t *Tensor, ax []int, keep bool) *Tensor {
	intOnHost(name, t)
	w := castTo(t, Int64)
	out := reduceRaw(name, opSum, w, ax, keep)
	if w != t {
		w.Release()
	}
	return out
}

// argMaxRaw returns the Int64 index of the first maximum of t along axis
// a (a NaN counts as the maximum), like torch.argmax.  Host kernels write
// the indices as Int64; device kernels write float indices (exact below
// 2^24 in float32), which go through the host to become Int64.
func argMaxRaw(name string, t *Tensor, a int, keep bool) *Tensor {
	if t.dtype.isInt() {
		intOnHost(name, t)
	}
	cur := compute32(t)
	defer func() {
		if cur != t {
			cur.Release()
		}
	}()
	outer, n, inner := numel(t.shape[:a]), t.shape[a], numel(t.shape[a+1:])
	dims := reducedShape(t.shape, []int{a}, keep)
	if t.dev.IsHost() {
		out := newTensor(name, t.dev, Int64, dims)
		if out.n > 0 {
			t.k(name).reduce(opArgMax, out.v(name), cur.v(name), outer, n, inner)
		}
		return out
	}
	f := newTensor(name, t.dev, cur.dtype, dims)
	if f.n > 0 {
		t.k(name).reduce(opArgMax, f.v(name), cur.v(name), outer, n, inner)
	}
	h := f.To(CPU)
	f.Release()
	i := castTo(h, Int64)
	h.Release()
	out := i.To(t.dev)
	i.Release()
	return out
}
