package facts_test

import (
	"fmt"

	"github.com/dlbd/dlbd/facts"
)

func ExampleAcceleratorByName() {
	h100, err := facts.AcceleratorByName("H100")
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: %.0f GB, %.2f TB/s, %.1f BF16 TFLOPS (%s)\n",
		h100.FullName(), h100.MemoryGB, h100.MemBandwidthTBs, h100.BF16DenseTFLOPS, h100.Status)
	// Output: H100 SXM5 80GB: 80 GB, 3.35 TB/s, 989.4 BF16 TFLOPS (secondary)
}

func ExampleParametricLoss_Optimal() {
	fit := facts.Chinchilla()
	n, d := fit.Optimal(5.76e23) // Chinchilla's compute budget, FLOP
	fmt.Printf("N = %.3g, D = %.3g, D/N = %.0f tokens per parameter\n", n, d, d/n)
	// Output: N = 3.22e+10, D = 2.98e+12, D/N = 93 tokens per parameter
}

func ExampleSources() {
	var series []facts.DatasphereEstimate
	for _, d := range facts.Datasphere() {
		if d.Year == 2020 {
			series = append(series, d)
		}
	}
	for _, ref := range facts.Sources(series) {
		fmt.Println(ref.Rows, ref.Statuses)
	}
	// Output:
	// 1 [verified]
	// 1 [secondary]
	// 1 [verified]
	// 1 [verified]
	// 1 [verified]
}
