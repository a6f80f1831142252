// Package duck is the embedded analytical engine: DuckDB (github.com/duckdb/duckdb-go/v2,
// cgo, with its prebuilt static library) running inside the cell's own process, so a
// notebook queries Parquet, CSV and JSON with SQL in milliseconds and nothing to start. It
// implements bigdata.Engine, the API that bigdata/spark implements too.
//
// DuckDB is columnar and vectorized: a query reads only the columns it names, in batches
// of values processed by tight loops, with every core. That is what "bases de datos para
// Big Data" means at the scale of one machine; Spark SQL does the same across a cluster.
//
// The package itself uses database/sql; DuckDB's driver (cgo, with its 80 MB static
// library) is linked by driver.go, except in the stateful kernel's builds (tag
// dlbd_stateful), whose host program links it once: a notebook cell that queries a
// database made earlier links a small plugin, not DuckDB. In the kernel's process mode
// every cell that imports this package links DuckDB again (seconds; `dlbd cell-latency`).
//
// A database is open until Close; in a notebook, the kernel closes the ones left open when
// it shuts down or restarts, and on %reset.
//
// Course: "Bases de datos para Big Data".
// Paper: Raasveldt & Mühleisen 2019, DuckDB: an Embeddable Analytical Database
// (SIGMOD'19); Boncz, Zukowski & Nes 2005, MonetDB/X100: Hyper-Pipelining Query Execution
// (CIDR'05), vectorized execution.
package duck
