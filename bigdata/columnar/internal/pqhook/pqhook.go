// Package pqhook is where bigdata/columnar finds its Parquet implementation
// (bigdata/columnar/parquetio registers it): a hook of package
// bigdata/internal/linked, apart from the others so that a cell using Kafka
// or NATS does not link Arrow.
package pqhook

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/dlbd/dlbd/bigdata/internal/linked"
)

// ParquetFile is an open Parquet file.
type ParquetFile interface {
	// Schema is the file's schema as Arrow types.
	Schema() *arrow.Schema
	// NumRows is the number of rows in the file.
	NumRows() int64
	// Records reads the columns (all when nil) as record batches.
	Records(ctx context.Context, columns []int) (array.RecordReader, error)
	// Close closes the file.
	Close() error
}

// ParquetCodec reads and writes Parquet files.
type ParquetCodec interface {
	// Open opens path for reading record batches of batchRows rows (0: whole row groups).
	Open(path string, batchRows int) (ParquetFile, error)
	// Write writes tbl to w as one Parquet file with row groups of rowGroupRows rows,
	// dictionary encoding and the compression ("snappy", "zstd", "gzip" or "none").
	Write(w io.Writer, tbl arrow.Table, rowGroupRows int64, compression string) error
}

// Parquet is the Parquet codec, registered by bigdata/columnar/parquetio.
var Parquet = linked.NewHook[ParquetCodec]("the Parquet codecs", "github.com/dlbd/dlbd/bigdata/columnar/parquetio")
