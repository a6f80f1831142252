package dl

// Float16 and BFloat16 tensors are stored in 2 bytes but computed in
// float32: kernels see Float32 and Float64, except the matrix products,
// whose kernels read half A and B directly (decoding while they pack) and
// on host devices round each tile of C into a half result as they store
// it (gemm.Args.CH).  On host devices elementwise ops and row sums of half
// tensors decode band by band into float32 scratch (cpu_half.go);
// elsewhere, and for the other ops, compute32 gives float32 copies of half
// inputs and finish converts a float32 result back, releasing the
// temporaries at once (they never reach the user).

// compute32 returns t, or a float32 copy of t if it is a half tensor.
func compute32(t *Tensor) *Tensor {
	if !t.dtype.IsHalf() {
		return t
	}
	out := newTensor("AsType", t.dev, Float32, t.shape)
	if t.n > 0 {
		t.k("AsType").cast(out.v("AsType"), t.v("AsType"))
	}
	return out
}

// finish converts a float32 result to dt (a half dtype of the inputs) and
// releases the float32 temporaries among tmps that are not originals.
func finish(out *Tensor, dt DType, originals []*Tensor, tmps ...*Tensor) *Tensor {
	for i, tmp := range tmps {
		if tmp != originals[i] {
			tmp.Release()
		}
	}
	if out.dtype == dt {
		return out
	}
	h := newTensor("AsType", out.dev, dt, out.shape)
	if out.n > 0 {
		out.k("AsType").cast(h.v("AsType"), out.v("AsType"))
	}
	out.Release()
	return h
}

// sameDType panics with a *DTypeError unless a and b have the same dtype.
func sameDType(op string, a, b *Tensor) {
	if a.dtype != b.dtype {
		panic(&DTypeError{Op: op, DTypes: []DType{a.dtype, b.dtype},
			Reason: "expected tensors of the same dtype, got " + a.dtype.String() + " and " + b.dtype.String(),
			Fix:    "convert one with .AsType(dl." + dtGo(a.dtype) + ")"})
	}
}
