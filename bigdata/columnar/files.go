package columnar

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/csv"

	"github.com/dlbd/dlbd/bigdata/columnar/internal/pqhook"
	"github.com/dlbd/dlbd/internal/resources"
)

// ParquetOptions configures WriteParquet; the zero value writes shards of 1,000,000 rows
// in row groups of 128 Ki rows, Snappy-compressed with dictionary encoding (Spark's
// defaults, except the row group size, which Spark sets in bytes).
type ParquetOptions struct {
	ShardRows    int    // rows per file; default 1,000,000
	RowGroupRows int    // rows per row group; default 131,072
	Compression  string // "snappy" (default), "zstd", "gzip" or "none"
}

// checkCompression returns an error naming the compressions WriteParquet knows when
// name is not one of them.
func checkCompression(name string) error {
	switch name {
	case "", "snappy", "zstd", "gzip", "none":
		return nil
	}
	return fmt.Errorf("bigdata/columnar: unknown compression %q: use snappy, zstd, gzip or none", name)
}

// WriteParquet writes batches to dir as shards part-00000.parquet, part-00001.parquet, …
// and returns their paths.
func WriteParquet(dir string, batches []arrow.RecordBatch, o ParquetOptions) ([]string, error) {
	if len(batches) == 0 {
		return nil, errors.New("bigdata/columnar: WriteParquet: no batches")
	}
	if o.ShardRows == 0 {
		o.ShardRows = 1_000_000
	}
	if o.RowGroupRows == 0 {
		o.RowGroupRows = 128 << 10
	}
	if err := checkCompression(o.Compression); err != nil {
		return nil, err
	}
	pq, err := pqhook.Parquet.Get()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("bigdata/columnar: %w", err)
	}
	schema := batches[0].Schema()
	tbl := array.NewTableFromRecords(schema, batches)
	defer tbl.Release()
	var paths []string
	for off := int64(0); off < tbl.NumRows(); off += int64(o.ShardRows) {
		n := min(int64(o.ShardRows), tbl.NumRows()-off)
		p := filepath.Join(dir, fmt.Sprintf("part-%05d.parquet", len(paths)))
		slice := sliceTable(tbl, off, off+n)
		err := writeFile(p, func(f *os.File) error {
			bw := bufio.NewWriterSize(f, 1<<20)
			if err := pq.Write(bw, slice, int64(o.RowGroupRows), o.Compression); err != nil {
				return err
			}
			return bw.Flush()
		})
		slice.Release()
		if err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// sliceTable returns rows [i, j) of tbl (views, no copy).
func sliceTable(tbl arrow.Table, i, j int64) arrow.Table {
	cols := make([]arrow.Column, tbl.NumCols())
	for k := range cols {
		c := array.NewChunkedSlice(tbl.Column(k).Data(), i, j)
		cols[k] = *arrow.NewColumn(tbl.Schema().Field(k), c)
		c.Release()
	}
	t := array.NewTable(tbl.Schema(), cols, j-i)
	for k := range cols {
		cols[k].Release()
	}
	return t
}

// writeFile creates path and runs write on it, closing it and wrapping errors.
func writeFile(path string, write func(*os.File) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("bigdata/columnar: %w", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("bigdata/columnar: write %s: %w", path, err)
	}
	return f.Close()
}

// WriteCSV writes batches as one CSV file with a header line.
func WriteCSV(path string, batches []arrow.RecordBatch) error {
	return writeFile(path, func(f *os.File) error {
		bw := bufio.NewWriterSize(f, 1<<20)
		w := csv.NewWriter(bw, batches[0].Schema(), csv.WithHeader(true))
		for _, b := range batches {
			if err := w.Write(b); err != nil {
				return err
			}
		}
		if err := w.Flush(); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// WriteJSON writes batches as JSON lines: one object per row.
func WriteJSON(path string, batches []arrow.RecordBatch) error {
	return writeFile(path, func(f *os.File) error {
		bw := bufio.NewWriterSize(f, 1<<20)
		for _, b := range batches {
			if err := array.RecordToJSON(b, bw); err != nil {
				return err
			}
		}
		return bw.Flush()
	})
}

// ParquetFile is an open Parquet file that reads Arrow record batches.
type ParquetFile struct {
	Path   string
	Schema *arrow.Schema
	Rows   int64
	f      pqhook.ParquetFile
	forget func()
}

// Close closes the file.
func (p *ParquetFile) Close() error {
	defer p.forget()
	return p.f.Close()
}

// Records reads the columns of the given indices (all when nil; see Columns) as record
// batches of the size OpenParquet was given.
func (p *ParquetFile) Records(ctx context.Context, columns []int) (array.RecordReader, error) {
	rr, err := p.f.Records(ctx, columns)
	if err != nil {
		return nil, fmt.Errorf("bigdata/columnar: %s: %w", p.Path, err)
	}
	return rr, nil
}

// OpenParquet opens a Parquet file for reading Arrow record batches of batchRows rows
// (0: whole row groups). A file that is not Parquet, or is truncated, gives an error that
// says so and how to fix it.
func OpenParquet(path string, batchRows int) (*ParquetFile, error) {
	pq, err := pqhook.Parquet.Get()
	if err != nil {
		return nil, err
	}
	f, err := pq.Open(path, batchRows)
	if err != nil {
		if _, serr := os.Stat(path); serr != nil {
			return nil, fmt.Errorf("bigdata/columnar: %w", serr)
		}
		return nil, fmt.Errorf("bigdata/columnar: %s is not a valid Parquet file (%v): it may be truncated (an interrupted write) or another format; write it again (columnar.WriteParquet, or Spark's df.write.parquet)", path, err)
	}
	pf := &ParquetFile{Path: path, Schema: f.Schema(), Rows: f.NumRows(), f: f}
	pf.forget = resources.Track("Parquet file "+path, pf)
	return pf, nil
}

// Columns returns the indices of the named columns in the file (all of them when names is
// empty), or an error naming the columns the file has.
func (p *ParquetFile) Columns(names []string) ([]int, error) {
	if len(names) == 0 {
		return nil, nil
	}
	var idx []int
	for _, n := range names {
		i := p.Schema.FieldIndices(n)
		if len(i) == 0 {
			return nil, fmt.Errorf("bigdata/columnar: %s has no column %q (it has %s)", p.Path, n, fieldNames(p.Schema))
		}
		idx = append(idx, i[0])
	}
	return idx, nil
}

func fieldNames(s *arrow.Schema) string {
	var out []string
	for _, f := range s.Fields() {
		out = append(out, f.Name+" "+f.Type.String())
	}
	return strings.Join(out, ", ")
}

// CheckSchema returns an error naming the file, the column and both types when the file
// lacks one of want's columns or stores it with another type. Extra columns are fine.
func CheckSchema(path string, got, want *arrow.Schema) error {
	for _, f := range want.Fields() {
		i := got.FieldIndices(f.Name)
		if len(i) == 0 {
			return fmt.Errorf("bigdata/columnar: schema mismatch: %s has no column %q (it has %s): write every shard with the same schema, or choose the columns all shards have", path, f.Name, fieldNames(got))
		}
		if g := got.Field(i[0]).Type; !arrow.TypeEqual(g, f.Type) {
			return fmt.Errorf("bigdata/columnar: schema mismatch: column %q is %s in %s but %s in the first shard: cast it when writing (Spark: col(%q).cast(%q)) so every shard agrees", f.Name, g, path, f.Type, f.Name, f.Type)
		}
	}
	return nil
}

// ReadParquet reads the named columns (all when none) of the shards into one table. The
// shards must agree on those columns' types.
func ReadParquet(ctx context.Context, paths []string, columns ...string) (arrow.Table, error) {
	var batches []arrow.RecordBatch
	defer func() { Release(batches) }()
	var schema *arrow.Schema
	for _, p := range paths {
		f, err := OpenParquet(p, 1<<16)
		if err != nil {
			return nil, err
		}
		err = func() error {
			defer f.Close()
			idx, err := f.Columns(columns)
			if err != nil {
				return err
			}
			rr, err := f.Records(ctx, idx)
			if err != nil {
				return err
			}
			defer rr.Release()
			if schema == nil {
				schema = rr.Schema()
			} else if err := CheckSchema(p, rr.Schema(), schema); err != nil {
				return err
			}
			for rr.Next() {
				rec := rr.RecordBatch()
				rec.Retain()
				batches = append(batches, rec)
			}
			if err := rr.Err(); err != nil && !errors.Is(err, context.Canceled) {
				return fmt.Errorf("bigdata/columnar: %s is damaged (%v): write it again", p, err)
			}
			return ctx.Err()
		}()
		if err != nil {
			return nil, err
		}
	}
	if schema == nil {
		return nil, errors.New("bigdata/columnar: ReadParquet: no files")
	}
	return array.NewTableFromRecords(schema, batches), nil
}

// ReadCSV parses a CSV file with a header line written for schema, keeping the named
// columns (all when none): every byte of every row is still read and split.
func ReadCSV(path string, schema *arrow.Schema, columns ...string) (arrow.Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("bigdata/columnar: %w", err)
	}
	defer f.Close()
	opts := []csv.Option{csv.WithHeader(true), csv.WithChunk(1 << 16)}
	in := bufio.NewReaderSize(f, 1<<20)
	if len(columns) == 0 {
		return readAll(path, csv.NewReader(in, schema, opts...))
	}
	// A column subset is only possible with the header-driven reader: give it the types.
	types := map[string]arrow.DataType{}
	for _, c := range columns {
		i := schema.FieldIndices(c)
		if len(i) == 0 {
			return nil, fmt.Errorf("bigdata/columnar: no column %q in the schema (it has %s)", c, fieldNames(schema))
		}
		types[c] = schema.Field(i[0]).Type
	}
	opts = append(opts, csv.WithIncludeColumns(columns), csv.WithColumnTypes(types))
	return readAll(path, csv.NewInferringReader(in, opts...))
}

// ReadJSON parses a JSON-lines file written for schema.
func ReadJSON(path string, schema *arrow.Schema) (arrow.Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("bigdata/columnar: %w", err)
	}
	defer f.Close()
	return readAll(path, array.NewJSONReader(bufio.NewReaderSize(f, 1<<20), schema, array.WithChunk(1<<16)))
}

// recordReader is what the CSV and JSON readers have in common.
type recordReader interface {
	Next() bool
	RecordBatch() arrow.RecordBatch
	Err() error
	Release()
	Schema() *arrow.Schema
}

func readAll(path string, rr recordReader) (arrow.Table, error) {
	defer rr.Release()
	var batches []arrow.RecordBatch
	defer func() { Release(batches) }()
	for rr.Next() {
		rec := rr.RecordBatch()
		rec.Retain()
		batches = append(batches, rec)
	}
	if err := rr.Err(); err != nil {
		return nil, fmt.Errorf("bigdata/columnar: parse %s: %w", path, err)
	}
	return array.NewTableFromRecords(rr.Schema(), batches), nil
}

// Size returns the total size in bytes of the files.
func Size(paths ...string) (int64, error) {
	var n int64
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return 0, fmt.Errorf("bigdata/columnar: %w", err)
		}
		n += fi.Size()
	}
	return n, nil
}

// Shards returns the Parquet files of a dataset directory (such as Spark writes: part-*
// files, skipping _SUCCESS and .crc files), sorted.
func Shards(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("bigdata/columnar: %w", err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".parquet") && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	slices.Sort(out)
	if len(out) == 0 {
		return nil, fmt.Errorf("bigdata/columnar: no .parquet files in %s: write the dataset first", dir)
	}
	return out, nil
}
