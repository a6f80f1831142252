//go:build !cgo

package duck

import (
	"context"
	"errors"

	"github.com/dlbd/dlbd/bigdata"
)

// ErrNoCgo is returned by Open in a build without cgo: DuckDB is a C++ library.
var ErrNoCgo = errors.New("bigdata/duck: DuckDB needs cgo, and this program was built without it (no C compiler on PATH, or CGO_ENABLED=0): install one (Debian: sudo apt-get install g++) and run scripts/setup.sh again")

// DB is the DuckDB engine; without cgo it cannot be opened.
type DB struct{}

var _ bigdata.Engine = (*DB)(nil)

// Open returns ErrNoCgo.
func Open(threads int) (*DB, error) { return nil, ErrNoCgo }

// Name implements bigdata.Engine.
func (d *DB) Name() string { return "duckdb" }

// RegisterParquet implements bigdata.Engine; it returns ErrNoCgo.
func (d *DB) RegisterParquet(context.Context, string, string) error { return ErrNoCgo }

// Query implements bigdata.Engine; it returns ErrNoCgo.
func (d *DB) Query(context.Context, string) (*bigdata.Result, error) { return nil, ErrNoCgo }

// Close implements bigdata.Engine.
func (d *DB) Close() error { return nil }
