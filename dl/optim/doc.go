// Package optim holds the optimisers and learning-rate schedules of dl:
// SGD (momentum, dampening, Nesterov, weight decay), Adam and AdamW
// (AMSGrad optional), gradient-norm clipping, and warmup + cosine decay.
//
// # Overview
//
// The update rules follow PyTorch's documented algorithms and its
// single-tensor implementation step for step (sgd_update.go,
// adam_update.go), including where ε goes in Adam (added to
// √v/√(1−β2ᵗ), not under the root) and that AdamW decays the weights before
// the moment update. Tests check them against float64 reference loops
// written from the documentation and, when Debian's python3-torch is
// installed, against torch.optim itself (agreement to 1e-12 in float64).
// Updates are in place on the parameters' data: autograd does not see them.
//
// A [Schedule] maps a step to a learning rate ([WarmupCosine],
// [ConstantLR]); a [Scheduler] applies one to an [Optimizer] after each
// step, like torch.optim.lr_scheduler.
//
// [SGD], [Adam] and [AdamW] update Float32 or Float64 parameters on host
// devices (CPU, Sim); [ClipGradNorm] clips gradients by their total norm.
// StateDict / LoadStateDict give the optimizer state for checkpoints, with
// torch's names (state.i.exp_avg, ...).
//
// # Errors
//
// Invalid hyper-parameters (negative rates, β ≥ 1, Nesterov without
// momentum, WarmupCosine with Total ≤ Warmup) panic with a message naming the
// fix, as torch raises ValueError. Parameters that are not Float32/Float64
// panic with a *dl.DTypeError; parameters off host memory with a
// *dl.DeviceError.
//
// # Concepts
//
// Course: "Prácticas de eficiencia computacional" (training loops) and
// "Leyes de escala (Scaling Laws)" (warmup + cosine in the scaling runs).
// Paper: Kingma & Ba 2015, Adam (arXiv:1412.6980); Loshchilov & Hutter 2019,
// Decoupled Weight Decay Regularization (arXiv:1711.05101); Reddi et al.
// 2018, On the Convergence of Adam and Beyond (AMSGrad).
package optim
