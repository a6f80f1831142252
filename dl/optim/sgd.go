package optim

// SGDConfig configures SGD; the zero value is torch.optim.SGD's defaults
// (apart from LR, see below).
type SGDConfig struct {
	LR          float64 // learning rate γ (torch lr); default 1e-3, torch ≥ 2.2's default
	Momentum    float64 // momentum μ (torch momentum); default 0
	Dampening   float64 // dampening τ of the momentum (torch dampening); default 0
	WeightDecay float64 // L2 penalty λ added to the gradient (torch weight_decay); default 0
	Nesterov    bool    // Nesterov momentum (torch nesterov); needs Momentum > 0 and Dampening = 0
}
