package optim

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"testing"
)

// torchPython is $TORCH_PYTHON, else Debian's /usr/bin/python3 (where
// python3-torch installs), else python3 on PATH.
func torchPython() string {
	if py := os.Getenv("TORCH_PYTHON"); py != "" {
		return py
	}
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		return "/usr/bin/python3"
	}
	return "python3"
}

// TestKernelsMatchPyTorch runs the same float64 problem through torch.optim
// (Debian's python3-torch) and through our kernels. Skipped when torch is
// not importable or with -short.
func TestKernelsMatchPyTorch(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Python")
	}
	py := torchPython()
	if err := exec.Command(py, "-c", "import torch").Run(); err != nil {
		t.Skipf("%s cannot import torch (apt-get install python3-torch, or set TORCH_PYTHON): %v", py, err)
	}
	const n, steps = 7, 6
	type tc struct {
		name   string
		opt    string
		kwargs map[string]any
		run    func(p, g []float64, s int)
	}
	buf := make([]float64, n)
	m, v, vmax := make([]float64, n), make([]float64, n), make([]float64, n)
	adam := func(c adamCoeffs) func(p, g []float64, s int) {
		return func(p, g []float64, s int) { c.step = s + 1; adamUpdate(p, g, m, v, vmax, c) }
	}
	cases := []tc{
		{"sgd/nesterov", "sgd", map[string]any{"lr": 0.05, "momentum": 0.9, "nesterov": true, "weight_decay": 0.1},
			func(p, g []float64, s int) {
				sgdUpdate(p, g, buf, SGDConfig{LR: 0.05, Momentum: 0.9, Nesterov: true, WeightDecay: 0.1}, s == 0)
			}},
		{"sgd/dampening", "sgd", map[string]any{"lr": 0.05, "momentum": 0.8, "dampening": 0.3},
			func(p, g []float64, s int) {
				sgdUpdate(p, g, buf, SGDConfig{LR: 0.05, Momentum: 0.8, Dampening: 0.3}, s == 0)
			}},
		{"adam/wd/amsgrad", "adam", map[string]any{"lr": 0.1, "betas": []float64{0.8, 0.99}, "eps": 1e-6, "weight_decay": 0.1, "amsgrad": true},
			adam(adamCoeffs{lr: 0.1, beta1: 0.8, beta2: 0.99, eps: 1e-6, weightDecay: 0.1, amsgrad: true})},
		{"adamw", "adamw", map[string]any{"lr": 0.1, "weight_decay": 0.05},
			adam(adamCoeffs{lr: 0.1, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.05, decoupled: true})},
	}
	var reqs []map[string]any
	for _, c := range cases {
		reqs = append(reqs, map[string]any{"opt": c.opt, "kwargs": c.kwargs, "theta": initTheta(n), "steps": steps})
	}
	in, _ := json.Marshal(reqs)
	cmd := exec.Command(py, "testdata/torch_optim.py")
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("torch_optim.py: %v", err)
	}
	var thetas [][]float64
	if err := json.Unmarshal(out, &thetas); err != nil || len(thetas) != len(cases) {
		t.Fatalf("torch_optim.py reply %q: %v", out, err)
	}
	for k, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clear(buf)
			clear(m)
			clear(v)
			clear(vmax)
			p := initTheta(n)
			for s := range steps {
				c.run(p, quadGrad(p, s), s)
			}
			for i := range p {
				if !closeRel(p[i], thetas[k][i], 1e-12) {
					t.Errorf("θ[%d] = %v; torch.optim gives %v", i, p[i], thetas[k][i])
				}
			}
		})
	}
}
