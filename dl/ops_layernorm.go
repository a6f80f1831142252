package dl

import "fmt"

// LayerNorm normalises t over its last axis to mean 0 and variance 1 and
// applies the affine map weight·x̂ + bias (weight and bias are [d] or nil),
// like torch.nn.functional.layer_norm with normalized_shape = [d]:
// x̂ = (x − mean) / √(var + eps), with the biased variance.  Backward uses
// the closed form dx = rstd·(dx̂ − mean(dx̂) − x̂·mean(dx̂·x̂)), dx̂ = g·weight.
// Paper: Ba, Kiros and Hinton 2016, Layer Normalization (arXiv:1607.06450).
func LayerNorm(t, weight, bias *Tensor, eps float64) *Tensor {
	const op = "LayerNorm"
	t = autocastFloat32(t)
	t.live(op)
	requireFloat(op, t, weight, bias)
	if len(t.shape) == 0 {
		panic(shapeErr(op, [][]int{t.shape}, "normalise a tensor with at least one axis", "cannot normalise a scalar"))
	}
	d := t.shape[len(t.shape)-1]
	for _, p := range []*Tensor{weight, bias} {
		if p == nil {
			continue
		}
		p.live(op)
		sameDevice(op, t, p)
		sameDType(op, t, p)
		if len(p.shape) != 1 || p.shape[0] != d {
			panic(shapeErr(op, [][]int{t.shape, p.shape}, fmt.Sprintf("weight and bias must be [%d]", d),
				"parameter of shape %v for input of shape %v", p.shape, t.shape))
		}
	}
	last := []int{len(t.shape) - 1}
	mean := reduceRaw(op, opSum, t, last, true)
	mean.scalarInPlace(op, opMulS, 1/float64(d))
	xc := binaryRaw(op, opSub, t, mean)
	mean.Release()
	sq := binaryRaw(op, opMul, xc, xc)
	v := reduceRaw(op, opSum, sq, last, true)
	sq.Release()
	v.scalarInPlace(op, opMulS, 1/float64(d))
	v.scalarInPlace(op, opAddS, eps)
	rstd := unaryRaw(op, opRsqrt, v)
	v.Release()
	xhat := binaryRaw(op, opMul, xc, rstd)
	xc.Release()
	out := xhat
	if weight != nil {
		out = binaryRaw(op, opMul, xhat, weight)
	}
	if bias != nil {
		if out == xhat {
			out = binaryRaw(op, opAdd, xhat, bias)
		} else {
			out.inPlace(op, opAdd, bias)
		}
	}
	if !needsGrad(t, weight, bias) {
		if out != xhat {
			xhat.Release()
		}
		rstd.Release()
		return out
	}
	if out == xhat {
		xhat = xhat.alias() // out is released with the graph; keep our own handle
	}
	record(op, out, []*Tensor{t, weight, bias}, []*Tensor{xhat, rstd}, func(g *Tensor) []*Tensor {
		var gx, gw, gb *Tensor
		rows := make([]int, len(t.shape)-1)
		for i := range rows {
			rows[i] = i
		}
		if bias != nil && bias.requiresGrad {
			gb = reduceRaw(op, opSum, g, rows, false)
		}
		if weight != nil && weight.requiresGrad {
			gxh := binaryRaw(op, opMul, g, xhat)
			gw = reduceRaw(op, opSum, gxh, rows, false)
			gxh.Release()
		}
		if t.requiresGrad {
			dxhat := g.alias()
			if weight != nil {
				dxhat.Release()
				dxhat = binaryRaw(op, opMul, g, weight)
			}
			m1 := reduceRaw(op, opSum, dxhat, last, true)
			m1.scalarInPlace(op, opMulS, 1/float64(d))
			p := binaryRaw(op, opMul, dxhat, xhat)
			m2 := reduceRaw(op, opSum, p, last, true)
			p.Release()
			m2.scalarInPlace(op, opMulS, 1/float64(d))
			gx = binaryRaw(op, opSub, dxhat, m1)
			dxhat.Release()
			m1.Release()
			q := binaryRaw(op, opMul, xhat, m2)
			m2.Release()
			gx.inPlace(op, opSub, q)
			q.Release()
			gx.inPlace(op, opMul, rstd)
		}
		return []*Tensor{gx, gw, gb}
	})
	return out
}
