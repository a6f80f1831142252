package spark_test

import (
	"context"
	"fmt"

	"github.com/dlbd/dlbd/bigdata/spark"
)

// A notebook cell: connect to $SPARK_REMOTE, or the local server, or start one.
// (Not run by go test: it needs Java and pyspark.)
func ExampleEnsure() {
	ctx := context.Background()
	s, err := spark.Ensure(ctx, spark.Config{})
	if err != nil {
		panic(err) // e.g. "Java is not installed … run scripts/setup.sh"
	}
	defer s.Close()
	df, _ := s.WordCount(ctx, "corpus.txt")
	counts, _ := spark.Counts(ctx, df)
	fmt.Println(counts["datos"])
}
