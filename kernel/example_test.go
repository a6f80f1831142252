package kernel_test

import (
	"fmt"
	"os"

	"github.com/dlbd/dlbd/kernel"
)

func ExampleCache() {
	dir, _ := os.MkdirTemp("", "cache-example")
	defer os.RemoveAll(dir)
	os.Setenv(kernel.CacheDirEnv, dir) // inside a notebook, GoNB's session directory is used
	defer os.Unsetenv(kernel.CacheDirEnv)

	train := func() ([]float64, error) {
		fmt.Println("training...")
		return []float64{0.9, 0.5, 0.3}, nil
	}
	first := kernel.Must(kernel.Cache("curva-de-perdida", train))
	again := kernel.Must(kernel.Cache("curva-de-perdida", train)) // a later cell: no retraining
	fmt.Println(first, again)
	// Output:
	// training...
	// [0.9 0.5 0.3] [0.9 0.5 0.3]
}
