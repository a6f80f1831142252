package columnar_test

import (
	"context"
	"fmt"
	"os"

	"github.com/dlbd/dlbd/bigdata/columnar"
)

func ExampleReadParquet() {
	dir, _ := os.MkdirTemp("", "ventas")
	defer os.RemoveAll(dir)
	batches := columnar.Sales(columnar.SalesConfig{Rows: 10_000})
	defer columnar.Release(batches)
	paths, err := columnar.WriteParquet(dir, batches, columnar.ParquetOptions{ShardRows: 4_000})
	if err != nil {
		panic(err)
	}
	tbl, err := columnar.ReadParquet(context.Background(), paths, "region", "importe")
	if err != nil {
		panic(err)
	}
	defer tbl.Release()
	fmt.Println(len(paths), "shards;", tbl.NumRows(), "rows;", tbl.NumCols(), "columns read")
	// Output: 3 shards; 10000 rows; 2 columns read
}
