package parallel

// gpipeOps is GPipe's schedule, All-Forward-All-Backward (AFAB): the
// forward passes of all m micro-batches, then their backward passes.
//
//	stage 0:  F0 F1 F2 F3 · · · · · · B0 B1 B2 B3
//	stage 1:     F0 F1 F2 F3 · · · B0 B1 B2 B3
//
// Simple, and every stage ends with the same bubble of p − 1 op slots at
// each end; but a stage keeps the activations of all m micro-batches until
// their backward, so memory grows with m — which GPipe offsets by
// recomputing activations (rematerialisation).
//
// Course: "Pipeline Parallelism (PP)".
// Paper: Huang et al. 2019, GPipe: Efficient Training of Giant Neural Networks using Pipeline Parallelism (arXiv:1811.06965).
func gpipeOps(m int) []ppOp {
	ops := make([]ppOp, 0, 2*m)
	for i := range m {
		ops = append(ops, ppOp{forward: true, mb: i})
	}
	for i := range m {
		ops = append(ops, ppOp{mb: i})
	}
	return ops
}
