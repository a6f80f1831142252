package nn

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
)

// MLPConfig configures NewMLP; the zero value uses ReLU between layers.
type MLPConfig struct {
	InitConfig
	Activation func() Module // between layers (not after the last); default ReLU
}

// MLP is a stack of Linear layers with an activation between them, stored
// as a Sequential so its state dict matches torch's
// nn.Sequential(Linear, ReLU, Linear, ...): "0.weight", "2.weight", ...
type MLP struct {
	Sequential
}

// NewMLP returns an MLP with layer sizes sizes[0] → sizes[1] → ... → the
// last. It panics with a *dl.ValueError with fewer than two sizes.
func NewMLP(sizes []int, cfg MLPConfig) *MLP {
	if len(sizes) < 2 {
		panic(&dl.ValueError{Op: "nn.NewMLP", Reason: fmt.Sprintf("sizes %v", sizes), Fix: "pass at least an input and an output size, e.g. []int{784, 10}"})
	}
	act := cfg.Activation
	if act == nil {
		act = ReLU
	}
	m := &MLP{}
	for i := 0; i+1 < len(sizes); i++ {
		m.Modules = append(m.Modules, NewLinear(sizes[i], sizes[i+1], LinearConfig{InitConfig: cfg.InitConfig}))
		if i+2 < len(sizes) {
			m.Modules = append(m.Modules, act())
		}
	}
	return m
}

var _ Module = (*MLP)(nil)
