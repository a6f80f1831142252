package optim

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
)

// checkParams panics unless every parameter is a Float32 or Float64 tensor
// on a host device: the optimisers update parameter memory in place from
// Go, and half-precision parameters belong to mixed precision (keep float32
// master weights, as torch.amp does).
func checkParams(op string, params []*dl.Tensor) {
	for i, p := range params {
		if p == nil {
			panic(&dl.ValueError{Op: "optim." + op, Reason: fmt.Sprintf("parameter %d is a nil *dl.Tensor", i), Fix: "pass the model's parameters (nn.Parameters(model))"})
		}
		if !p.IsLeaf() { // torch: "can't optimize a non-leaf Tensor"
			panic(&dl.ValueError{Op: "optim." + op, Reason: fmt.Sprintf("parameter %d is not a leaf (it is the result of an op, so updating it would not change the model)", i),
				Fix: "pass the leaf tensors the model computes from (nn.Parameters(model)), or p.Detach().SetRequiresGrad(true)"})
		}
		if p.DType() != dl.Float32 && p.DType() != dl.Float64 {
			panic(&dl.DTypeError{Op: op, DTypes: []dl.DType{p.DType()},
				Reason: fmt.Sprintf("parameter %d is %v; the optimisers update Float32 or Float64 parameters", i, p.DType()),
				Fix:    "keep Float32 master weights and cast copies for the forward pass (mixed precision)"})
		}
		if !p.Device().IsHost() {
			panic(&dl.DeviceError{Op: op, Devices: []dl.Device{p.Device()},
				Reason: fmt.Sprintf("parameter %d is on %v; this optimiser runs on host memory", i, p.Device()),
				Fix:    "train on dl.CPU or a dl.Sim device"})
		}
	}
}

// lazyZeros returns *buf, creating zeros shaped like p on first use.
func lazyZeros(buf **dl.Tensor, p *dl.Tensor) *dl.Tensor {
	if *buf == nil {
		*buf = dl.ZerosLike(p)
	}
	return *buf
}

// data32 and data64 return a tensor's host memory, or nil for a nil tensor.
func data32(t *dl.Tensor) []float32 {
	if t == nil {
		return nil
	}
	return t.Float32Data()
}

func data64(t *dl.Tensor) []float64 {
	if t == nil {
		return nil
	}
	return t.Float64Data()
}
