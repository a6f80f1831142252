package exercises

import (
	"testing"

	"github.com/dlbd/dlbd/bigdata/columnar"
	"github.com/dlbd/dlbd/bigdata/shards"
)

func TestStepsPerRank(t *testing.T) {
	b := columnar.Sales(columnar.SalesConfig{Rows: 10_000})
	defer columnar.Release(b)
	// 7 shards of 1,300 rows and one of 900: uneven, as Spark's.
	paths, err := columnar.WriteParquet(t.TempDir(), b, columnar.ParquetOptions{ShardRows: 1_300})
	if err != nil {
		t.Fatal(err)
	}
	const world, batch = 4, 128
	l, err := shards.New(shards.Config{Paths: paths, Features: []string{"unidades", "precio"}, Label: "importe", BatchSize: batch, World: world})
	if err != nil {
		t.Fatal(err)
	}
	// The reference solution: each rank gets 8/4 shards; the two smallest
	// bound the rows of any rank, and an incomplete batch is dropped.
	reference := (900 + 1300) / batch
	if l.Len() != reference {
		t.Fatalf("loader: %d steps; the reference solution says %d", l.Len(), reference)
	}
	nb01Expect(t, "reference", StepsPerRank(reference, l, world, batch), "right", "")
	nb01Expect(t, "mean rank", StepsPerRank(10_000/world/batch, l, world, batch), "wrong", "la media")
	nb01Expect(t, "last batch kept", StepsPerRank(reference+1, l, world, batch), "wrong", "redondea hacia abajo")
	nb01Expect(t, "one rank", StepsPerRank(10_000/batch, l, world, batch), "wrong", "un solo rank")
	nb01Expect(t, "other", StepsPerRank(5, l, world, batch), "wrong", "Ordena las filas")
	nb01Expect(t, "blank", StepsPerRank(-1, l, world, batch), "blank", "Ordena las filas")
	nb01Expect(t, "no batch", StepsPerRank(reference, l, world, 0), "wrong", "positivos")
}
