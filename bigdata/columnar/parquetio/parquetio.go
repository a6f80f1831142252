// Package parquetio is the Parquet implementation of bigdata/columnar
// (arrow-go's parquet, pqarrow and compression codecs). Linking it (a blank
// import) registers it; bigdata/columnar links it itself except in the
// stateful kernel's builds (tag dlbd_stateful), whose host links it once
// for every cell (see bigdata/internal/linked).
package parquetio

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/dlbd/dlbd/bigdata/columnar/internal/pqhook"
)

func init() { pqhook.Parquet.Set(codec{}) }

// codec implements pqhook.ParquetCodec with arrow-go.
type codec struct{}

// compression maps the names bigdata/columnar accepts to arrow-go's codecs.
func compression(name string) (compress.Compression, error) {
	switch name {
	case "", "snappy":
		return compress.Codecs.Snappy, nil
	case "zstd":
		return compress.Codecs.Zstd, nil
	case "gzip":
		return compress.Codecs.Gzip, nil
	case "none":
		return compress.Codecs.Uncompressed, nil
	}
	return 0, fmt.Errorf("unknown compression %q: use snappy, zstd, gzip or none", name)
}

func (codec) Write(w io.Writer, tbl arrow.Table, rowGroupRows int64, name string) error {
	c, err := compression(name)
	if err != nil {
		return err
	}
	props := parquet.NewWriterProperties(parquet.WithCompression(c), parquet.WithDictionaryDefault(true),
		parquet.WithMaxRowGroupLength(rowGroupRows))
	// WriteTable closes its sink when it is an io.Closer: hide w's Close.
	return pqarrow.WriteTable(tbl, struct{ io.Writer }{w}, rowGroupRows, props, pqarrow.DefaultWriterProps())
}

func (codec) Open(path string, batchRows int) (pqhook.ParquetFile, error) {
	raw, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, err
	}
	rd, err := pqarrow.NewFileReader(raw, pqarrow.ArrowReadProperties{BatchSize: int64(batchRows)}, memory.DefaultAllocator)
	if err != nil {
		raw.Close()
		return nil, err
	}
	sc, err := rd.Schema()
	if err != nil {
		raw.Close()
		return nil, fmt.Errorf("schema: %w", err)
	}
	return &parquetFile{raw: raw, rd: rd, schema: sc}, nil
}

// parquetFile implements pqhook.ParquetFile.
type parquetFile struct {
	raw    *file.Reader
	rd     *pqarrow.FileReader
	schema *arrow.Schema
}

func (f *parquetFile) Schema() *arrow.Schema { return f.schema }
func (f *parquetFile) NumRows() int64        { return f.raw.NumRows() }
func (f *parquetFile) Close() error          { return f.raw.Close() }

func (f *parquetFile) Records(ctx context.Context, columns []int) (array.RecordReader, error) {
	return f.rd.GetRecordReader(ctx, columns, nil)
}
