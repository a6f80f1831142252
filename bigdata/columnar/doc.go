// Package columnar writes and reads the same table as Parquet shards, CSV and JSON lines,
// with Apache Arrow (github.com/apache/arrow-go) as the in-memory format, so notebooks can
// measure what a columnar format changes: bytes on disk, and the time to read all columns
// or only a few.
//
// # Overview
//
// [Sales] generates a deterministic sales table (one row per ticket line: date, store,
// region, product, units, price, amount) as Arrow record batches. [WriteParquet] cuts it
// into shards (part-00000.parquet, …) of row groups, compressed (Snappy, as Spark writes by
// default, or Zstd); [WriteCSV] and [WriteJSON] write it as text. [ReadParquet] reads a
// subset of columns from a set of shards: Parquet stores each column of a row group
// contiguously, so the other columns are never read nor decoded. [ReadCSV] and [ReadJSON]
// must parse every byte of every row whatever columns are asked for.
//
// [OpenParquet] opens one shard with errors that name the problem (not Parquet, truncated)
// and [CheckSchema] compares a shard's schema with the expected one (a missing column, a
// column of another type): bigdata/shards uses both.
//
// # Errors
//
// Every function that touches files returns an error naming the file, the problem and the
// fix.
//
// # Concepts
//
// Course: "Almacenamiento distribuido" (formatos columnares: Parquet, ORC) and
// "Almacenamiento para pipelines de DL".
// Paper: Melnik et al. 2010, Dremel: Interactive Analysis of Web-Scale Datasets (VLDB'10),
// the record shredding that Parquet implements; the Apache Parquet format specification.
package columnar
