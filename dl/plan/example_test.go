package plan_test

import (
	"fmt"

	"github.com/dlbd/dlbd/dl/plan"
	"github.com/dlbd/dlbd/facts"
)

func ExampleMemoryPerGPU() {
	h100, _ := facts.AcceleratorByName("H100")
	for _, s := range []plan.Strategy{{DP: 8}, {DP: 8, ZeRO: plan.ZeRO3}} {
		mem, _ := plan.MemoryPerGPU(plan.Llama3_70B, s)
		fmt.Printf("%-30s model states %6.1f GB: %v\n", s, (mem.Weights+mem.Gradients+mem.Optimizer)/1e9, plan.FitsOn(mem, h100).Fits)
	}
	// Output:
	// DP=8 TP=1 PP=1 m=1 b=1         model states 1128.9 GB: false
	// DP=8 TP=1 PP=1 ZeRO-3 m=1 b=1  model states  141.1 GB: false
}

func ExampleDaysOn() {
	// The Llama 3 70B model card: 6.4M H100 GPU-hours.
	fmt.Printf("%.0f days on 2,048 GPUs, %.1f years on one\n", plan.DaysOn(6.4e6, 2048), plan.DaysOn(6.4e6, 1)/365)
	// Output: 130 days on 2,048 GPUs, 730.6 years on one
}

// Calibrating the planner's compute efficiency on Meta's reported
// GPU-hours for Llama 3 70B.
func ExampleRun_CalibrateEfficiency() {
	c, err := plan.NewCluster("H100", 8, "NVLink 4.0", "NDR")
	if err != nil {
		panic(err)
	}
	r := plan.Run{Model: plan.Llama3_70B, Cluster: c, Tokens: 15e12, Overlap: 0.9,
		Strategy: plan.Strategy{DP: 64, TP: 8, PP: 4, ZeRO: plan.ZeRO1, SequenceParallel: true, Recompute: plan.SelectiveRecompute, MicroBatches: 32}}
	e, _ := r.Estimate()
	eff, cal, err := r.CalibrateEfficiency(6.4e6)
	if err != nil {
		panic(err)
	}
	fmt.Printf("assumed 55 %%: %.1fM GPU-hours, MFU %.0f %%\n", e.GPUHours/1e6, 100*e.MFU)
	fmt.Printf("calibrated %.0f %%: %.1fM GPU-hours, MFU %.0f %%\n", 100*eff, cal.GPUHours/1e6, 100*cal.MFU)
	// Output:
	// assumed 55 %: 4.3M GPU-hours, MFU 41 %
	// calibrated 35 %: 6.4M GPU-hours, MFU 28 %
}
