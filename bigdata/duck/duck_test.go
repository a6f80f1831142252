//go:build cgo

package duck

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/bigdata/columnar"
)

func TestQueryParquetMatchesArrow(t *testing.T) {
	batches := columnar.Sales(columnar.SalesConfig{Rows: 30000, Seed: 2})
	defer columnar.Release(batches)
	dir := t.TempDir()
	if _, err := columnar.WriteParquet(dir, batches, columnar.ParquetOptions{ShardRows: 10000}); err != nil {
		t.Fatal(err)
	}
	db, err := Open(2)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := db.RegisterParquet(ctx, "ventas", dir); err != nil {
		t.Fatal(err)
	}
	res, err := db.Query(ctx, "SELECT region, count(*) AS n, sum(importe) AS total FROM ventas GROUP BY region ORDER BY region")
	if err != nil {
		t.Fatal(err)
	}
	// The reference: the same sums over the Arrow batches in Go.
	want := map[string]float64{}
	count := map[string]int64{}
	for _, b := range batches {
		reg, imp := b.Column(3), b.Column(7)
		for i := range int(b.NumRows()) {
			r := reg.ValueStr(i)
			want[r] += imp.GetOneForMarshal(i).(float64)
			count[r]++
		}
	}
	if len(res.Rows) != len(want) {
		t.Fatalf("rows = %v; want one per region %v", res.Rows, want)
	}
	for _, row := range res.Rows {
		r := row[0].(string)
		if row[1].(int64) != count[r] || math.Abs(row[2].(float64)-want[r]) > 1e-6*want[r] {
			t.Errorf("%s: n=%v total=%v; want %d, %v", r, row[1], row[2], count[r], want[r])
		}
	}
	if _, err := db.Query(ctx, "SELECT nope FROM ventas"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("bad column: err = %v", err)
	}
	if err := db.RegisterParquet(ctx, "vacio", filepath.Join(t.TempDir(), "x.parquet")); err == nil {
		t.Error("RegisterParquet of a missing file: want an error")
	}
}
