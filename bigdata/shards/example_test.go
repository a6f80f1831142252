package shards_test

import (
	"fmt"
	"os"

	"github.com/dlbd/dlbd/bigdata/columnar"
	"github.com/dlbd/dlbd/bigdata/shards"
)

func ExampleLoader() {
	dir, _ := os.MkdirTemp("", "shards")
	defer os.RemoveAll(dir)
	batches := columnar.Sales(columnar.SalesConfig{Rows: 10_000})
	defer columnar.Release(batches)
	paths, _ := columnar.WriteParquet(dir, batches, columnar.ParquetOptions{ShardRows: 2_500})
	l, err := shards.New(shards.Config{Paths: paths, Features: []string{"unidades", "precio"}, Label: "importe",
		BatchSize: 500, Shuffle: true, Rank: 1, World: 2})
	if err != nil {
		panic(err)
	}
	steps := 0
	for batch := range l.Epoch(0) {
		x, y := batch[0], batch[1]
		if steps == 0 {
			fmt.Println("x", x.Shape(), "y", y.Shape())
		}
		steps++
	}
	fmt.Println("rank 1 of 2 reads shards", len(l.Shards(0)), "of", len(paths), "and takes", steps, "steps")
	// Output:
	// x [500 2] y [500]
	// rank 1 of 2 reads shards 2 of 4 and takes 10 steps
}
