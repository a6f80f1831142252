package parallel

// oneFOneBOps is the 1F1B schedule of stage s of p, with m micro-batches
// (PipeDream-Flush, the default of Megatron-LM):
//
//	warm-up:   min(p − s − 1, m) forwards, to fill the pipeline
//	steady:    one forward, one backward, … (1F1B)
//	cool-down: the remaining backwards
//
//	stage 0 (p = 4, m = 6):  F0 F1 F2 F3 B0 F4 B1 F5 B2 B3 B4 B5
//	stage 3:                 F0 B0 F1 B1 F2 B2 F3 B3 F4 B4 F5 B5
//
// The bubble is GPipe's, (p−1)/(m+p−1) of the time, but a micro-batch's
// backward starts as soon as possible, so stage s never holds more than
// p − s micro-batches of activations (the first stage: p, whatever m is).
//
// Course: "Pipeline Parallelism (PP)".
// Paper: Narayanan et al. 2019, PipeDream: Generalized Pipeline Parallelism for DNN Training (SOSP '19); Narayanan et al. 2021, Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM (arXiv:2104.04473), Section 2.2.1.
func oneFOneBOps(p, s, m int) []ppOp {
	warm := min(p-s-1, m)
	ops := make([]ppOp, 0, 2*m)
	for i := range warm {
		ops = append(ops, ppOp{forward: true, mb: i})
	}
	for i := range m - warm {
		ops = append(ops, ppOp{forward: true, mb: warm + i}, ppOp{mb: i})
	}
	for i := m - warm; i < m; i++ {
		ops = append(ops, ppOp{mb: i})
	}
	return ops
}
