package dl

import "slices"

// Raw elementwise ops: checks, output allocation, the half-precision
// round trip and the kernel call, without autograd.  The public ops in
// ops_arith.go and ops_activation.go add the recording.

// binaryRaw computes op(a, b) with broadcasting.
func binaryRaw(name string, op binaryOp, a, b *Tensor) *Tensor {
	a.live(name)
	b.live(name)
	sameDevice(name, a, b)
	sameDType(name, a, b)
	checkIntBinary(name, op, a)
	shape := broadcastShapes(name, a.shape, b.shape)
	if op.sameShapeOnly() && (a.n != b.n || numel(shape) != a.n) {
		panic("dl: internal error: " + name + " kernel needs equal shapes")
	}
	if halfStreams(a) && a.n == b.n && numel(shape) == a.n && slices.Equal(a.shape, b.shape) {
		return binaryHalf(name, op, a, b)
	}
	a32, b32 := compute32(a), compute32(b)
	out := newTensor(name, a.dev, a32.dtype, shape)
	if out.n > 0 {
		binaryChunked(name, op, out.v(name), a32.v(name), b32.v(name), newBroadcast(shape, a.shape, b.shape))
	}
	return finish(out, a.dtype, []*Tensor{a, b}, a32, b32)
}

// unaryRaw computes op(x) elementwise.
func unaryRaw(name string, op unaryOp, x *Tensor) *Tensor {
	x.live(name)
	checkIntUnary(name, op, x)
	if halfStreams(x) {
		return unaryHalf(name, op, x)
	}
	x32 := compute32(x)
	out := newTensor(name, x.dev, x32.dtype, x.shape)
	if out.n > 0 {
		k, o, v := x.k(name), out.v(name), x32.v(name)
		chunked(name, x.dev, out.n, func(i, m int) { k.unary(op, o.sub(i, m), v.sub(i, m)) })
	}
	return finish(out, x.dtype, []*Tensor{x}, x32)
}

// scalarRaw computes op(x, s) elementwise.
func scalarRaw(name string, op scalarOp, x *Tensor, s float64) *Tensor {
	x.live(name)
	checkIntScalar(name, op, x, s)
	if halfStreams(x) {
		return scalarHalf(name, op, x, s)
	}
	x32 := compute32(x)
	out := newTensor(name, x.dev, x32.dtype, x.shape)
	if out.n > 0 {
		scalarChunked(name, op, out.v(name), x32.v(name), s)
	}
	return finish(out, x.dtype, []*Tensor{x}, x32)
}

// inPlace runs a same-shape kernel into t's own memory: t = op(t, u),
// broadcasting u to t's shape.
func (t *Tensor) inPlace(name string, op binaryOp, u *Tensor) {
	t.live(name)
	u.live(name)
	sameDevice(name, t, u)
	sameDType(name, t, u)
	checkIntBinary(name, op, t)
	if shape := broadcastShapes(name, t.shape, u.shape); numel(shape) != t.n || len(shape) > len(t.shape) {
		panic(shapeErr(name, [][]int{t.shape, u.shape}, "the argument must broadcast to the receiver's shape",
			"cannot update a tensor of shape %v in place with one of shape %v", t.shape, u.shape))
	}
	if t.n == 0 {
		return
	}
	if t.dtype.IsHalf() {
		r := binaryRaw(name, op, t, u)
		copyView(t.v(name), r.v(name))
		r.Release()
		return
	}
	binaryChunked(name, op, t.v(name), t.v(name), u.v(name), newBroadcast(t.shape, t.shape, u.shape))
}

// scalarInPlace runs t = op(t, s).
func (t *Tensor) scalarInPlace(name string, op scalarOp, s float64) {
	t.live(name)
	checkIntScalar(name, op, t, s)
	if t.n == 0 {
		return
	}
	if t.dtype.IsHalf() {
		r := scalarRaw(name, op, t, s)
		copyView(t.v(name), r.v(name))
		r.Release()
		return
	}
	scalarChunked(name, op, t.v(name), t.v(name), s)
}

// binaryChunked runs the binary kernel in chunks (see chunked) when no
// broadcasting is involved, else in one call.
func binaryChunked(name string, op binaryOp, dst, a, b view, bc *broadcast) {
	k := kernelsOf(name, dst.st.dev)
	if bc != nil {
		CheckCancel(name)
		k.binary(op, dst, a, b, bc)
		return
	}
	chunked(name, dst.st.dev, dst.n, func(i, m int) { k.binary(op, dst.sub(i, m), a.sub(i, m), b.sub(i, m), nil) })
}

// scalarChunked runs the scalar kernel in chunks (see chunked).
func scalarChunked(name string, op scalarOp, dst, src view, s float64) {
	k := kernelsOf(name, dst.st.dev)
	chunked(name, dst.st.dev, dst.n, func(i, m int) { k.scalar(op, dst.sub(i, m), src.sub(i, m), s) })
}

// AddInPlace adds u (broadcast to t's shape) to t in place, like
// torch.Tensor.add_.  Autograd does not see it.
func (t *Tensor) AddInPlace(u *Tensor) { t.inPlace("AddInPlace", opAdd, u) }

// SubInPlace subtracts u from t in place.  Autograd does not see it.
func (t *Tensor) SubInPlace(u *Tensor) { t.inPlace("SubInPlace", opSub, u) }

// MulInPlace multiplies t by u elementwise in place.  Autograd does not
// see it.
func (t *Tensor) MulInPlace(u *Tensor) { t.inPlace("MulInPlace", opMul, u) }

// ScaleInPlace multiplies t by s in place, like torch.Tensor.mul_(s).
// Autograd does not see it.
func (t *Tensor) ScaleInPlace(s float64) { t.scalarInPlace("ScaleInPlace", opMulS, s) }

// AddScalarInPlace adds s to every element of t.  Autograd does not see it.
func (t *Tensor) AddScalarInPlace(s float64) { t.scalarInPlace("AddScalarInPlace", opAddS, s) }

// FillInPlace sets every element of t to v, like torch.Tensor.fill_.
// Autograd does not see it.
func (t *Tensor) FillInPlace(v float64) {
	t.live("FillInPlace")
	if t.n > 0 {
		t.k("FillInPlace").fill(t.v("FillInPlace"), v)
	}
}

// ZeroInPlace sets t to zero, like torch.Tensor.zero_.  Autograd does not
// see it.
func (t *Tensor) ZeroInPlace() { t.FillInPlace(0) }

// CopyInPlace copies u's elements into t (same shape and dtype; u may be on
// another device), like torch.Tensor.copy_.  Autograd does not see it.
func (t *Tensor) CopyInPlace(u *Tensor) {
	t.live("CopyInPlace")
	u.live("CopyInPlace")
	sameDType("CopyInPlace", t, u)
	if t.n != u.n {
		panic(shapeErr("CopyInPlace", [][]int{t.shape, u.shape}, "copy between tensors with the same number of elements",
			"cannot copy %v into %v", u.shape, t.shape))
	}
	copyAcross(t, u)
}
