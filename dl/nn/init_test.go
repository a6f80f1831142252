package nn

import (
	"math"
	"testing"
)

func TestKaimingUniformBound(t *testing.T) {
	for _, fanIn := range []int{1, 3, 784, 1024} {
		// Linear's weights: a = √5 gives 1/√fan_in (PyTorch's comment in
		// torch/nn/modules/linear.py reset_parameters says the same).
		if got, want := kaimingUniformBound(math.Sqrt(5), fanIn), 1/math.Sqrt(float64(fanIn)); math.Abs(got-want) > 1e-15 {
			t.Errorf("kaimingUniformBound(√5, %d) = %v; want %v", fanIn, got, want)
		}
		// He (ReLU, a = 0): √(6/fan_in).
		if got, want := kaimingUniformBound(0, fanIn), math.Sqrt(6/float64(fanIn)); math.Abs(got-want) > 1e-15 {
			t.Errorf("kaimingUniformBound(0, %d) = %v; want %v", fanIn, got, want)
		}
	}
}
