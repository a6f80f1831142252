package bigdata

import (
	"context"
	"fmt"
	"strings"
)

// Engine runs SQL. The DuckDB engine (bigdata/duck) and a Spark session (bigdata/spark)
// implement it, so a notebook query runs unchanged on the embedded engine and on a
// cluster.
type Engine interface {
	// Name says which engine this is ("duckdb", "spark").
	Name() string
	// RegisterParquet makes the Parquet files under path (a file, a directory of shards, or
	// a glob) queryable as the view name, replacing a view of that name.
	RegisterParquet(ctx context.Context, name, path string) error
	// Query runs one SQL statement and returns all its rows.
	Query(ctx context.Context, query string) (*Result, error)
	// Close releases the engine's connection (not the server: see spark.Stop).
	Close() error
}

// Result is the whole answer of a query: column names and rows of Go values (int64,
// float64, string, bool, time.Time or nil).
type Result struct {
	Columns []string
	Rows    [][]any
}

// Column returns the values of the named column. It returns an error naming the columns
// there are when there is none of that name.
func (r *Result) Column(name string) ([]any, error) {
	for j, c := range r.Columns {
		if c == name {
			out := make([]any, len(r.Rows))
			for i, row := range r.Rows {
				out[i] = row[j]
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("bigdata: no column %q in the result (columns: %s)", name, strings.Join(r.Columns, ", "))
}

// Strings returns every value formatted for display, row by row (for viz.TableHTML).
func (r *Result) Strings() [][]string {
	out := make([][]string, len(r.Rows))
	for i, row := range r.Rows {
		out[i] = make([]string, len(row))
		for j, v := range row {
			switch x := v.(type) {
			case nil:
				out[i][j] = "NULL"
			case float64:
				out[i][j] = fmt.Sprintf("%.6g", x)
			default:
				out[i][j] = fmt.Sprint(x)
			}
		}
	}
	return out
}

// Normalize converts a driver's integer and float types to the Result types: int64 and
// float64. Other values are returned unchanged.
func Normalize(v any) any {
	switch x := v.(type) {
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case int:
		return int64(x)
	case uint8:
		return int64(x)
	case uint16:
		return int64(x)
	case uint32:
		return int64(x)
	case uint64:
		return int64(x)
	case float32:
		return float64(x)
	}
	return v
}
