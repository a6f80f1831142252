// Package duck is the embedded analytical engine: DuckDB (github.com/duckdb/duckdb-go/v2,
// cgo, with its prebuilt static library) running inside the cell's own process, so a
// notebook queries Parquet, CSV and JSON with SQL in milliseconds and nothing to start. It
// implements bigdata.Engine, the API that bigdata/spark implements too.
//
// DuckDB is columnar and vectorized: a query reads only the columns it names, in batches
// of values processed by tight loops, with every core. That is what "bases de datos para
// Big Data" means at the scale of one machine; Spark SQL does the same across a cluster.
//
// Cost: linking DuckDB's C++ library makes a cell's binary ~70 MB and adds about 2–3 s to
// every cell that imports this package in the kernel's process-per-cell mode (measured:
// `dlbd cell-latency`). Only cells that run SQL should import it.
//
// Course: "Bases de datos para Big Data".
// Paper: Raasveldt & Mühleisen 2019, DuckDB: an Embeddable Analytical Database
// (SIGMOD'19); Boncz, Zukowski & Nes 2005, MonetDB/X100: Hyper-Pipelining Query Execution
// (CIDR'05), vectorized execution.
package duck
