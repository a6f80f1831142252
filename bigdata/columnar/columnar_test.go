package columnar

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// sumBy returns the sum of the float64 column val grouped by the string column key.
func sumBy(t *testing.T, tbl arrow.Table, key, val string) map[string]float64 {
	t.Helper()
	ki, vi := tbl.Schema().FieldIndices(key), tbl.Schema().FieldIndices(val)
	if len(ki) == 0 || len(vi) == 0 {
		t.Fatalf("table lacks %s or %s: %v", key, val, tbl.Schema())
	}
	out := map[string]float64{}
	kc, vc := tbl.Column(ki[0]).Data().Chunks(), tbl.Column(vi[0]).Data().Chunks()
	for c := range kc {
		k, v := kc[c].(*array.String), vc[c].(*array.Float64)
		for i := range k.Len() {
			out[k.Value(i)] += v.Value(i)
		}
	}
	return out
}

// sameData compares names, types and values, ignoring field metadata (Parquet adds field ids).
func sameData(a, b arrow.Table) bool {
	if a.NumRows() != b.NumRows() || a.NumCols() != b.NumCols() {
		return false
	}
	for i := range int(a.NumCols()) {
		fa, fb := a.Schema().Field(i), b.Schema().Field(i)
		if fa.Name != fb.Name || !arrow.TypeEqual(fa.Type, fb.Type) || !array.ChunkedEqual(a.Column(i).Data(), b.Column(i).Data()) {
			return false
		}
	}
	return true
}

func salesTable(t *testing.T, rows int) (arrow.Table, []arrow.RecordBatch) {
	t.Helper()
	b := Sales(SalesConfig{Rows: rows, BatchRows: 4096, Seed: 1})
	t.Cleanup(func() { Release(b) })
	tbl := array.NewTableFromRecords(SalesSchema(), b)
	t.Cleanup(tbl.Release)
	return tbl, b
}

func TestParquetRoundTrip(t *testing.T) {
	want, batches := salesTable(t, 20000)
	for _, comp := range []string{"snappy", "zstd", "none"} {
		t.Run("compression="+comp, func(t *testing.T) {
			paths, err := WriteParquet(t.TempDir(), batches, ParquetOptions{ShardRows: 7000, RowGroupRows: 3000, Compression: comp})
			if err != nil {
				t.Fatal(err)
			}
			if len(paths) != 3 {
				t.Errorf("20000 rows in shards of 7000: %d shards; want 3", len(paths))
			}
			got, err := ReadParquet(context.Background(), paths)
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			if !sameData(got, want) {
				t.Errorf("Parquet round trip changed the table: %d rows, schema %v", got.NumRows(), got.Schema())
			}
		})
	}
}

func TestReadParquetColumnSubset(t *testing.T) {
	want, batches := salesTable(t, 10000)
	paths, err := WriteParquet(t.TempDir(), batches, ParquetOptions{ShardRows: 4000})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadParquet(context.Background(), paths, "region", "importe")
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	if got.NumCols() != 2 || got.NumRows() != 10000 {
		t.Fatalf("subset = %d columns × %d rows; want 2 × 10000", got.NumCols(), got.NumRows())
	}
	g, w := sumBy(t, got, "region", "importe"), sumBy(t, want, "region", "importe")
	for r, v := range w {
		if g[r] != v {
			t.Errorf("sum(importe) of %s = %v; want %v", r, g[r], v)
		}
	}
	if _, err := ReadParquet(context.Background(), paths, "nope"); err == nil || !strings.Contains(err.Error(), `no column "nope"`) {
		t.Errorf("unknown column: err = %v", err)
	}
}

func TestTextRoundTrips(t *testing.T) {
	want, batches := salesTable(t, 5000)
	dir := t.TempDir()
	csvPath, jsonPath := filepath.Join(dir, "v.csv"), filepath.Join(dir, "v.jsonl")
	if err := WriteCSV(csvPath, batches); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(jsonPath, batches); err != nil {
		t.Fatal(err)
	}
	for name, read := range map[string]func() (arrow.Table, error){
		"csv":  func() (arrow.Table, error) { return ReadCSV(csvPath, SalesSchema()) },
		"json": func() (arrow.Table, error) { return ReadJSON(jsonPath, SalesSchema()) },
	} {
		got, err := read()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !array.TableApproxEqual(got, want, array.WithAbsTolerance(1e-9)) {
			t.Errorf("%s round trip changed the table (%d rows)", name, got.NumRows())
		}
		got.Release()
	}
	sub, err := ReadCSV(csvPath, SalesSchema(), "region", "importe")
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Release()
	g, w := sumBy(t, sub, "region", "importe"), sumBy(t, want, "region", "importe")
	for r, v := range w {
		if math.Abs(g[r]-v) > 1e-6*v {
			t.Errorf("CSV subset: sum(importe) of %s = %v; want %v", r, g[r], v)
		}
	}
}

func TestParquetIsSmallerThanText(t *testing.T) {
	_, batches := salesTable(t, 50000)
	dir := t.TempDir()
	paths, err := WriteParquet(filepath.Join(dir, "pq"), batches, ParquetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	WriteCSV(filepath.Join(dir, "v.csv"), batches)
	WriteJSON(filepath.Join(dir, "v.jsonl"), batches)
	pq, _ := Size(paths...)
	csv, _ := Size(filepath.Join(dir, "v.csv"))
	js, _ := Size(filepath.Join(dir, "v.jsonl"))
	// Dictionary encoding of the repeated strings and compression: several times smaller.
	if !(pq*2 < csv && csv < js) {
		t.Errorf("sizes: Parquet %d, CSV %d, JSON %d bytes; want Parquet < CSV/2 < JSON/2", pq, csv, js)
	}
}

func TestBadParquet(t *testing.T) {
	_, batches := salesTable(t, 3000)
	dir := t.TempDir()
	paths, err := WriteParquet(dir, batches, ParquetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(paths[0])
	cut := filepath.Join(dir, "truncated.parquet")
	os.WriteFile(cut, data[:len(data)/2], 0o644)
	notPq := filepath.Join(dir, "text.parquet")
	os.WriteFile(notPq, []byte("id,fecha\n1,2024-01-01\n"), 0o644)
	for _, p := range []string{cut, notPq} {
		_, err := ReadParquet(context.Background(), []string{p})
		if err == nil || !strings.Contains(err.Error(), "not a valid Parquet file") || !strings.Contains(err.Error(), "write it again") {
			t.Errorf("ReadParquet(%s) = %v; want an error saying it is not valid Parquet and how to fix it", filepath.Base(p), err)
		}
	}
	_, err = ReadParquet(context.Background(), []string{filepath.Join(dir, "missing.parquet")})
	if !os.IsNotExist(unwrapAll(err)) {
		t.Errorf("missing file: err = %v; want a not-exist error", err)
	}
}

func unwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		err = u.Unwrap()
	}
}

func TestSchemaMismatchBetweenShards(t *testing.T) {
	_, batches := salesTable(t, 2000)
	dir := t.TempDir()
	paths, err := WriteParquet(dir, batches, ParquetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A second shard whose "importe" is float32.
	sc := arrow.NewSchema([]arrow.Field{{Name: "region", Type: arrow.BinaryTypes.String}, {Name: "importe", Type: arrow.PrimitiveTypes.Float32}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	b.Field(0).(*array.StringBuilder).Append("Sur")
	b.Field(1).(*array.Float32Builder).Append(1)
	rec := b.NewRecordBatch()
	defer rec.Release()
	other, err := WriteParquet(filepath.Join(dir, "b"), []arrow.RecordBatch{rec}, ParquetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadParquet(context.Background(), append(paths, other...), "region", "importe")
	if err == nil || !strings.Contains(err.Error(), `column "importe" is float32`) || !strings.Contains(err.Error(), "cast") {
		t.Errorf("mixed shards: err = %v; want a schema mismatch naming the column, both types and the fix", err)
	}
}

func BenchmarkRead(b *testing.B) {
	batches := Sales(SalesConfig{Rows: 200_000})
	defer Release(batches)
	dir := b.TempDir()
	paths, _ := WriteParquet(filepath.Join(dir, "pq"), batches, ParquetOptions{ShardRows: 50_000})
	csvPath, jsonPath := filepath.Join(dir, "v.csv"), filepath.Join(dir, "v.jsonl")
	WriteCSV(csvPath, batches)
	WriteJSON(jsonPath, batches)
	cases := []struct {
		name  string
		files []string
		read  func() (arrow.Table, error)
	}{
		{"format=parquet/cols=all", paths, func() (arrow.Table, error) { return ReadParquet(context.Background(), paths) }},
		{"format=parquet/cols=2", paths, func() (arrow.Table, error) { return ReadParquet(context.Background(), paths, "region", "importe") }},
		{"format=csv/cols=all", []string{csvPath}, func() (arrow.Table, error) { return ReadCSV(csvPath, SalesSchema()) }},
		{"format=csv/cols=2", []string{csvPath}, func() (arrow.Table, error) { return ReadCSV(csvPath, SalesSchema(), "region", "importe") }},
		{"format=json/cols=all", []string{jsonPath}, func() (arrow.Table, error) { return ReadJSON(jsonPath, SalesSchema()) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			size, _ := Size(c.files...)
			b.SetBytes(size)
			for b.Loop() {
				tbl, err := c.read()
				if err != nil {
					b.Fatal(err)
				}
				tbl.Release()
			}
			b.ReportMetric(float64(200_000)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
		})
	}
	_ = fmt.Sprint()
}
