package optim

// Optimizer updates parameters from their gradients, like torch.optim.Optimizer.
type Optimizer interface {
	// Step applies one update to every parameter that has a gradient.
	Step()
	// ZeroGrad clears the parameters' gradients.
	ZeroGrad()
	// LR returns the current learning rate.
	LR() float64
	// SetLR sets the learning rate (schedulers call it).
	SetLR(lr float64)
}
