package scaling_test

import (
	"fmt"

	"github.com/dlbd/dlbd/dl/scaling"
)

func ExampleFitPowerLaw() {
	n := []float64{1e2, 1e3, 1e4, 1e5, 1e6}
	loss := make([]float64, len(n))
	for i := range n {
		loss[i] = 3*1/(n[i]) + 0.05 // α = 1
	}
	law, err := scaling.FitPowerLaw(n, loss)
	if err != nil {
		panic(err)
	}
	fmt.Printf("α = %.3f, c = %.3f\n", law.Alpha, law.C)
	fmt.Printf("L(N) at N=10⁷: %.4f\n", law.Loss(1e7))
	// Output:
	// α = 1.000, c = 0.050
	// L(N) at N=10⁷: 0.0500
}

func ExampleRun() {
	res, err := scaling.Run(scaling.ExperimentConfig{Widths: []int{4, 16, 64}, Samples: 4096, Steps: 800})
	if err != nil {
		panic(err)
	}
	for _, p := range res.Points {
		fmt.Printf("width %2d: N = %4d parameters\n", p.Width, p.Params)
	}
	l := res.TestLoss()
	fmt.Println("loss falls with N:", l[0] > l[1] && l[1] > l[2])
	// Output:
	// width  4: N =   45 parameters
	// width 16: N =  369 parameters
	// width 64: N = 4545 parameters
	// loss falls with N: true
}
