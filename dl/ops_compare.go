package dl

import "math"

// Eq returns 1 where a == b and 0 elsewhere, with broadcasting, in a's
// dtype, like torch.eq (which returns booleans; dl has no bool dtype, so
// pred.Eq(labels).Mean() is the accuracy).  It is not differentiable.
func (a *Tensor) Eq(b *Tensor) *Tensor { return binaryRaw("Eq", opEq, a, b) }

// Gt returns 1 where a > b and 0 elsewhere, with broadcasting, like
// torch.gt.  It is not differentiable.
func (a *Tensor) Gt(b *Tensor) *Tensor { return binaryRaw("Gt", opGt, a, b) }

// Lt returns 1 where a < b and 0 elsewhere, with broadcasting, like
// torch.lt.  It is not differentiable.
func (a *Tensor) Lt(b *Tensor) *Tensor { return binaryRaw("Lt", opGt, b, a) }

// AllClose reports whether a and b have the same shape and
// |a − b| <= atol + rtol·|b| elementwise (NaNs are never close), like
// torch.allclose.  The values are compared on the host in float64.
func AllClose(a, b *Tensor, rtol, atol float64) bool {
	a.live("AllClose")
	b.live("AllClose")
	if len(a.shape) != len(b.shape) {
		return false
	}
	for i := range a.shape {
		if a.shape[i] != b.shape[i] {
			return false
		}
	}
	x, y := a.Float64s(), b.Float64s()
	for i := range x {
		if !(math.Abs(x[i]-y[i]) <= atol+rtol*math.Abs(y[i])) {
			return false
		}
	}
	return true
}

// AddScaledInPlace adds alpha·u (broadcast to t's shape) to t in place,
// like torch.Tensor.add_(u, alpha=alpha): the update of SGD.  Autograd
// does not see it.
func (t *Tensor) AddScaledInPlace(alpha float64, u *Tensor) {
	if alpha == 1 {
		t.AddInPlace(u)
		return
	}
	s := scalarRaw("AddScaledInPlace", opMulS, u, alpha)
	t.AddInPlace(s)
	s.Release()
}
