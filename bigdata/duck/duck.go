package duck

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/dlbd/dlbd/bigdata"
	"github.com/dlbd/dlbd/internal/resources"
)

// DB is an in-memory DuckDB database. It is open until Close: in a notebook, until a
// cell closes it or the kernel shuts down or restarts (internal/resources).
type DB struct {
	*sql.DB
	forget func()
}

var _ bigdata.Engine = (*DB)(nil)

// Open opens an in-memory database using threads threads (0: one per core).
func Open(threads int) (*DB, error) {
	dsn := ""
	if threads > 0 {
		dsn = fmt.Sprintf("?threads=%d", threads)
	}
	if !slices.Contains(sql.Drivers(), driverName) {
		return nil, errNoDriver
	}
	// The driver opens one connector per sql.Open: the pool's connections
	// share one in-memory database.
	db, err := sql.Open(driverName, dsn)
	if err == nil {
		err = db.Ping()
	}
	if err != nil {
		return nil, fmt.Errorf("bigdata/duck: open DuckDB (threads=%d): %w", threads, err)
	}
	d := &DB{DB: db}
	d.forget = resources.Track(fmt.Sprintf("DuckDB database (threads=%d)", threads), d)
	return d, nil
}

// Close implements bigdata.Engine: it closes the database.
func (d *DB) Close() error {
	defer d.forget()
	return d.DB.Close()
}

// driverName is the name DuckDB's database/sql driver registers.
const driverName = "duckdb"

// Name implements bigdata.Engine.
func (d *DB) Name() string { return "duckdb" }

// RegisterParquet implements bigdata.Engine: path may be a file, a directory (all its
// *.parquet files) or a glob.
func (d *DB) RegisterParquet(ctx context.Context, name, path string) error {
	if !strings.ContainsAny(path, "*?[") && !strings.HasSuffix(path, ".parquet") {
		path = strings.TrimSuffix(path, "/") + "/*.parquet"
	}
	q := fmt.Sprintf("CREATE OR REPLACE VIEW %s AS SELECT * FROM read_parquet('%s')", name, strings.ReplaceAll(path, "'", "''"))
	if _, err := d.ExecContext(ctx, q); err != nil {
		return fmt.Errorf("bigdata/duck: register %s as %s: %w", path, name, err)
	}
	return nil
}

// Query implements bigdata.Engine.
func (d *DB) Query(ctx context.Context, query string) (*bigdata.Result, error) {
	rows, err := d.QueryContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("bigdata/duck: %w", err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, fmt.Errorf("bigdata/duck: %w", err)
	}
	res := &bigdata.Result{Columns: cols}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("bigdata/duck: %w", err)
		}
		for i, v := range vals {
			vals[i] = normalize(v)
		}
		res.Rows = append(res.Rows, vals)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("bigdata/duck: %w", err)
	}
	return res, nil
}

// normalize converts DuckDB's Go values to the bigdata.Result types.
func normalize(v any) any {
	switch x := v.(type) {
	case *big.Int: // HUGEINT, e.g. sum of BIGINT
		if x.IsInt64() {
			return x.Int64()
		}
		f, _ := new(big.Float).SetInt(x).Float64()
		return f
	case interface{ Float64() float64 }: // DuckDB's Decimal (DECIMAL columns)
		return x.Float64()
	}
	return bigdata.Normalize(v)
}
