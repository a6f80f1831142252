//go:build cgo

package duck_test

import (
	"context"
	"fmt"

	"github.com/dlbd/dlbd/bigdata/duck"
)

func ExampleDB_Query() {
	db, err := duck.Open(1)
	if err != nil {
		panic(err)
	}
	defer db.Close()
	res, err := db.Query(context.Background(), "SELECT i % 3 AS k, count(*) AS n FROM range(10) t(i) GROUP BY k ORDER BY k")
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Columns, res.Rows)
	// Output: [k n] [[0 4] [1 3] [2 3]]
}
