package dl

import "math"

// Eq returns the Bool mask of a == b, with broadcasting, like torch.eq.
// Tensors of different dtypes are compared in the wider one (Int64
// targets against Float32 predictions compare as Float32), as PyTorch
// promotes.  The accuracy of Int64 predictions:
// pred.Eq(labels).Sum().Item() / n, or .AsType(dl.Float32).Mean().  It is
// not differentiable.
func (a *Tensor) Eq(b *Tensor) *Tensor { return compare("Eq", opEq, a, b) }

// Gt returns the Bool mask of a > b, with broadcasting and promotion as
// Eq, like torch.gt.  It is not differentiable.
func (a *Tensor) Gt(b *Tensor) *Tensor { return compare("Gt", opGt, a, b) }

// Lt returns the Bool mask of a < b, with broadcasting and promotion as
// Eq, like torch.lt.  It is not differentiable.
func (a *Tensor) Lt(b *Tensor) *Tensor { return compare("Lt", opGt, b, a) }

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
