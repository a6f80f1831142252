package nn_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/nn"
)

func ExampleLinear() {
	l := nn.NewLinear(3, 2, nn.LinearConfig{}) // like torch.nn.Linear(3, 2)
	dl.NoGrad(func() {
		l.Weight.CopyInPlace(dl.FromSlice([]float32{1, 0, -1, 0.5, 0.5, 0.5}, 2, 3))
		l.Bias.CopyInPlace(dl.FromSlice([]float32{0, 1}, 2))
	})
	y := l.Forward(dl.FromSlice([]float32{1, 2, 3}, 1, 3))
	fmt.Println(y.Shape(), y.Float32s())
	for _, p := range l.NamedParameters() {
		fmt.Println(p.Name, p.Tensor.Shape())
	}
	// Output:
	// [1 2] [-2 4]
	// weight [2 3]
	// bias [2]
}

func ExampleSave() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "mlp.safetensors")

	cfg := nn.MLPConfig{InitConfig: nn.InitConfig{Generator: dl.NewGenerator(1)}}
	model := nn.NewMLP([]int{4, 8, 2}, cfg)
	if err := nn.Save(path, model); err != nil {
		panic(err)
	}
	restored := nn.NewMLP([]int{4, 8, 2}, nn.MLPConfig{}) // other random weights
	if err := nn.Load(path, restored); err != nil {
		panic(err)
	}
	w0, w1 := model.NamedParameters()[0], restored.NamedParameters()[0]
	fmt.Println(w1.Name, slices.Equal(w0.Tensor.Float32s(), w1.Tensor.Float32s()))

	wrong := nn.NewMLP([]int{4, 16, 2}, nn.MLPConfig{})
	fmt.Println(nn.Load(path, wrong) != nil)
	// Output:
	// 0.weight true
	// true
}

// A LoRA adapter of rank 8 on a 4096×4096 layer trains 0.4 % of its
// parameters; it starts as the pretrained layer (B = 0).
func ExampleNewLoRA() {
	base := nn.NewLinear(4096, 4096, nn.LinearConfig{InitConfig: nn.InitConfig{Generator: dl.NewGenerator(0)}})
	lora := nn.NewLoRA(base, nn.LoRAConfig{Rank: 8, Alpha: 16})
	trainable := 0
	for _, p := range nn.Parameters(lora) {
		trainable += p.Numel()
	}
	fmt.Printf("trainable: %d of %d (%.2f %%), scale α/r = %g\n", trainable, base.Weight.Numel()+base.Bias.Numel(), 100*lora.TrainableFraction(), lora.Scale)
	// Output: trainable: 65536 of 16781312 (0.39 %), scale α/r = 2
}
