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
