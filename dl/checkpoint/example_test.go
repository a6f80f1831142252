package checkpoint_test

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/checkpoint"
	"github.com/dlbd/dlbd/dl/nn"
)

// ExampleCheckpointSequential checkpoints a 16-layer MLP in 4 segments:
// the same gradients as the plain run, with less memory at the peak.
func ExampleCheckpointSequential() {
	dev := dl.Sim(1)
	cfg := nn.LinearConfig{InitConfig: nn.InitConfig{Device: dev, Generator: dl.NewGenerator(0)}}
	var layers []nn.Module
	for range 16 {
		layers = append(layers, nn.NewSequential(nn.NewLinear(64, 64, cfg), nn.ReLU()))
	}
	x := dl.Options{Device: dev, Generator: dl.NewGenerator(1)}.Randn(128, 64)
	step := func(segments int) (peak int64, grad float32) {
		for _, l := range layers { // zero the gradients, keeping their memory
			for _, p := range nn.Parameters(l) {
				if p.Grad() != nil {
					p.Grad().FillInPlace(0)
				}
			}
		}
		before := dl.MemoryStats(dev).Allocated
		dl.ResetPeakMemory(dev)
		var y *dl.Tensor
		if segments == 0 {
			y = nn.NewSequential(layers...).Forward(x)
		} else {
			y = checkpoint.CheckpointSequential(layers, segments, x)
		}
		loss := y.Sum()
		loss.Backward()
		loss.Release()
		return dl.MemoryStats(dev).Peak - before, nn.Parameters(layers[0])[0].Grad().Float32s()[0]
	}
	step(4) // allocates the parameter gradients
	plainPeak, plainGrad := step(0)
	ckptPeak, ckptGrad := step(4)
	fmt.Println("same gradient:", plainGrad == ckptGrad)
	fmt.Printf("peak: %s plain, %s with 4 segments\n", dl.FormatBytes(plainPeak), dl.FormatBytes(ckptPeak))
	// Output:
	// same gradient: true
	// peak: 592.25 KiB plain, 336.26 KiB with 4 segments
}
