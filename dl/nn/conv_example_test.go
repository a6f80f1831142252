package nn_test

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/nn"
)

// A LeNet-like network for 28×28 grey images (MNIST): two convolutions
// with ReLU and max pooling, flattened into a linear classifier.
func ExampleConv2d() {
	cfg := nn.InitConfig{Generator: dl.NewGenerator(1)}
	model := nn.NewSequential(
		nn.NewConv2d(1, 6, [2]int{5, 5}, nn.Conv2dConfig{InitConfig: cfg, Padding: [2]int{2, 2}}), // [N, 6, 28, 28]
		nn.ReLU(),
		nn.NewMaxPool2d([2]int{2, 2}, dl.Pool2dOptions{}),                   // [N, 6, 14, 14]
		nn.NewConv2d(6, 16, [2]int{5, 5}, nn.Conv2dConfig{InitConfig: cfg}), // [N, 16, 10, 10]
		nn.ReLU(),
		nn.NewMaxPool2d([2]int{2, 2}, dl.Pool2dOptions{}), // [N, 16, 5, 5]
		nn.Flatten{}, // [N, 400]
		nn.NewLinear(16*5*5, 10, nn.LinearConfig{InitConfig: cfg}),
	)
	x := dl.Options{Generator: dl.NewGenerator(2)}.Randn(8, 1, 28, 28) // a batch of 8 images
	logits := model.Forward(x)
	fmt.Println("logits:", logits.Shape())
	fmt.Println("parameters:", nn.NumParams(model))
	loss := dl.CrossEntropy(logits, dl.Zeros(8))
	loss.Backward()
	fmt.Println("conv1 weight gradient:", model.Modules[0].(*nn.Conv2d).Weight.Grad().Shape())
	// Output:
	// logits: [8 10]
	// parameters: 6582
	// conv1 weight gradient: [6 1 5 5]
}
