package shards

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"go.uber.org/goleak"

	"github.com/dlbd/dlbd/bigdata/columnar"
	"github.com/dlbd/dlbd/dl/data"
)

// writeShards writes shards of the given sizes with rows id (float64 feature "id", so
// batches carry it), f = -id (float32) and label = id mod 3 (int32); ids run on across
// shards.
func writeShards(t *testing.T, sizes ...int) []string {
	t.Helper()
	dir := t.TempDir()
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Float64},
		{Name: "f", Type: arrow.PrimitiveTypes.Float32},
		{Name: "label", Type: arrow.PrimitiveTypes.Int32},
	}, nil)
	var paths []string
	id := 0
	for s, n := range sizes {
		b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
		for range n {
			b.Field(0).(*array.Float64Builder).Append(float64(id))
			b.Field(1).(*array.Float32Builder).Append(-float32(id))
			b.Field(2).(*array.Int32Builder).Append(int32(id % 3))
			id++
		}
		rec := b.NewRecordBatch()
		b.Release()
		p, err := columnar.WriteParquet(filepath.Join(dir, fmt.Sprint(s)), []arrow.RecordBatch{rec}, columnar.ParquetOptions{RowGroupRows: 40})
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p...)
	}
	return paths
}

// ids runs one epoch and returns the id of every row, checking f and label on the way.
func ids(t *testing.T, l *Loader, epoch int) []int {
	t.Helper()
	var out []int
	for b := range l.Epoch(epoch) {
		x, y := b[0].Float32s(), b[1].Float32s()
		for i := range y {
			id := int(x[2*i])
			if x[2*i+1] != -float32(id) || y[i] != float32(id%3) {
				t.Fatalf("row %d: x = %v, y = %v; the columns of one row were mixed", id, x[2*i:2*i+2], y[i])
			}
			out = append(out, id)
		}
	}
	if err := l.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func cfg(paths []string) Config {
	return Config{Paths: paths, Features: []string{"id", "f"}, Label: "label", BatchSize: 10, ReadRows: 16}
}

func TestLoaderInOrder(t *testing.T) {
	defer goleak.VerifyNone(t)
	l, err := New(cfg(writeShards(t, 100, 100, 50)))
	if err != nil {
		t.Fatal(err)
	}
	got := ids(t, l, 0)
	if l.Len() != 25 || len(got) != 250 || l.Stats().Batches != 25 {
		t.Fatalf("Len = %d, rows = %d, batches = %d; want 25 batches of 10", l.Len(), len(got), l.Stats().Batches)
	}
	for i, id := range got {
		if id != i {
			t.Fatalf("row %d is id %d; without Shuffle the rows come in shard order", i, id)
		}
	}
	mem, err := LoadAll(cfg(l.cfg.Paths))
	if err != nil {
		t.Fatal(err)
	}
	if mem.Len() != 250 || mem.Get(137)[0].Float32s()[0] != 137 {
		t.Errorf("LoadAll: %d rows, row 137 = %v; want the same 250 rows in order", mem.Len(), mem.Get(137)[0].Float32s())
	}
}

func TestLoaderShufflesAcrossShards(t *testing.T) {
	defer goleak.VerifyNone(t)
	c := cfg(writeShards(t, 100, 100, 100, 100))
	c.Shuffle, c.Seed, c.ShuffleBuffer = true, 5, 64
	l, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	e0, e0again, e1 := ids(t, l, 0), ids(t, l, 0), ids(t, l, 1)
	sorted := slices.Sorted(slices.Values(e0))
	if len(e0) != 400 || slices.Compact(sorted)[len(slices.Compact(sorted))-1] != 399 || len(slices.Compact(slices.Clone(sorted))) != 400 {
		t.Fatalf("epoch 0 yields %d rows; want each of the 400 once", len(e0))
	}
	if !slices.Equal(e0, e0again) {
		t.Error("the same epoch and seed should give the same order")
	}
	if slices.Equal(e0, e1) {
		t.Error("epochs 0 and 1 gave the same order")
	}
	shardsInFirst := map[int]bool{}
	for _, id := range e0[:10] {
		shardsInFirst[id/100] = true
	}
	if len(shardsInFirst) < 2 {
		t.Errorf("first batch %v comes from one shard; Interleave should mix shards", e0[:10])
	}
}

func TestLoaderRanksGetDisjointShards(t *testing.T) {
	defer goleak.VerifyNone(t)
	paths := writeShards(t, 100, 100, 100, 100)
	all := map[int]int{}
	for r := range 2 {
		c := cfg(paths)
		c.Shuffle, c.Rank, c.World = true, r, 2
		l, err := New(c)
		if err != nil {
			t.Fatal(err)
		}
		got := ids(t, l, 3)
		if l.Len() != 20 || len(got) != 200 {
			t.Errorf("rank %d: Len %d, %d rows; want 20 batches, 200 rows", r, l.Len(), len(got))
		}
		for _, id := range got {
			all[id]++
		}
	}
	if len(all) != 400 {
		t.Errorf("the two ranks together saw %d distinct rows; want all 400, each once", len(all))
	}
	for id, n := range all {
		if n != 1 {
			t.Fatalf("row %d seen by %d ranks", id, n)
		}
	}
	// Uneven shards: every rank still takes the same number of steps.
	uneven := writeShards(t, 100, 100, 100, 100, 60)
	var lens []int
	for r := range 2 {
		c := cfg(uneven)
		c.Shuffle, c.Rank, c.World = true, r, 2
		l, _ := New(c)
		for e := range 3 {
			n := len(ids(t, l, e))
			lens = append(lens, n)
		}
	}
	for _, n := range lens {
		if n != lens[0] || n != 260 {
			t.Errorf("rows per rank and epoch = %v; want 260 everywhere (3 shards each, the smallest 60+100+100)", lens)
			break
		}
	}
}

func TestLoaderPrefetches(t *testing.T) {
	defer goleak.VerifyNone(t)
	paths := writeShards(t, 200, 200)
	for _, pf := range []int{3, -1} {
		c := cfg(paths)
		c.Prefetch = pf
		l, _ := New(c)
		var produced int64
		for range l.Epoch(0) {
			time.Sleep(200 * time.Millisecond) // a slow training step
			produced = l.Stats().Produced
			break // stops the producer early
		}
		want := int64(1)
		if pf > 0 {
			want = int64(1 + pf) // the batch in hand and a full channel (one more may wait in send)
		}
		if produced < want || (pf < 0 && produced != 1) {
			t.Errorf("Prefetch %d: %d batches made while the loop held the first; want %d", pf, produced, want)
		}
	}
}

func TestLoaderErrors(t *testing.T) {
	paths := writeShards(t, 50, 50)
	dir := filepath.Dir(filepath.Dir(paths[0]))
	bad := filepath.Join(dir, "bad.parquet")
	os.WriteFile(bad, []byte("PAR1 no es parquet"), 0o644)
	// A shard whose label is float64.
	sc := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Float64}, {Name: "f", Type: arrow.PrimitiveTypes.Float32}, {Name: "label", Type: arrow.PrimitiveTypes.Float64}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	b.Field(0).(*array.Float64Builder).Append(1)
	b.Field(1).(*array.Float32Builder).Append(1)
	b.Field(2).(*array.Float64Builder).Append(1)
	rec := b.NewRecordBatch()
	other, _ := columnar.WriteParquet(filepath.Join(dir, "other"), []arrow.RecordBatch{rec}, columnar.ParquetOptions{})
	rec.Release()
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"malformed", cfg(append(slices.Clone(paths), bad)), "not a valid Parquet file"},
		{"schema-mismatch", cfg(append(slices.Clone(paths), other...)), `column "label" is float64`},
		{"missing-column", Config{Paths: paths, Features: []string{"edad"}, Label: "label"}, `no column "edad"`},
		{"too-few-rows", Config{Paths: paths, Features: []string{"id"}, Label: "label", BatchSize: 1000}, "less than one batch"},
		{"bad-rank", Config{Paths: paths, Features: []string{"id"}, Label: "label", Rank: 2, World: 2}, "Rank < World"},
		{"no-paths", Config{Features: []string{"id"}, Label: "label"}, "Config needs Paths"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := New(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New = %v; want an error containing %q", err, tc.want)
			}
		})
	}
}

func BenchmarkLoader(b *testing.B) {
	batches := columnar.Sales(columnar.SalesConfig{Rows: 200_000})
	defer columnar.Release(batches)
	paths, _ := columnar.WriteParquet(b.TempDir(), batches, columnar.ParquetOptions{ShardRows: 25_000})
	c := Config{Paths: paths, Features: []string{"unidades", "precio"}, Label: "importe", BatchSize: 256}
	mem, err := LoadAll(c)
	if err != nil {
		b.Fatal(err)
	}
	memLoader := data.NewDataLoader(mem, data.DataLoaderConfig{BatchSize: 256, Shuffle: true, DropLast: true})
	for _, mode := range []string{"stream", "stream-shuffle", "memory"} {
		b.Run("loader="+mode, func(b *testing.B) {
			var rows int
			for b.Loop() {
				if mode == "memory" {
					for batch := range memLoader.Epoch(0) {
						rows += batch[0].Size(0)
					}
					continue
				}
				cc := c
				cc.Shuffle = mode == "stream-shuffle"
				l, _ := New(cc)
				for range l.Epoch(0) {
				}
				rows += l.Stats().Rows
			}
			b.ReportMetric(float64(rows)/b.Elapsed().Seconds()/1e6, "Mrows/s")
		})
	}
}
