package nn

import "math"

// kaimingUniformBound returns the bound b of torch.nn.init.kaiming_uniform_
// (mode "fan_in", nonlinearity "leaky_relu" with slope a), which draws
// U(−b, b): b = gain·√(3/fan_in) with gain = √(2/(1+a²)).
//
// nn.Linear's default a = √5 gives gain = √(1/3), so b = 1/√fan_in: the
// same bound as its bias's U(−1/√fan_in, 1/√fan_in).
func kaimingUniformBound(a float64, fanIn int) float64 {
	gain := math.Sqrt(2 / (1 + a*a))
	return gain * math.Sqrt(3/float64(fanIn))
}
