package duck

import "errors"

// ErrNoCgo is returned by Open in a build without cgo: DuckDB is a C++ library.
var ErrNoCgo = errors.New("bigdata/duck: DuckDB needs cgo, and this program was built without it (no C compiler on PATH, or CGO_ENABLED=0): install one (Debian: sudo apt-get install g++) and run scripts/setup.sh again")

// errNotLinked is returned by Open when a program built with the tag
// dlbd_stateful (the stateful kernel's) does not link DuckDB's driver.
var errNotLinked = errors.New(`bigdata/duck: DuckDB's driver is not linked into this program (built with -tags dlbd_stateful, which leaves it to the program's main package): import _ "github.com/duckdb/duckdb-go/v2" there, as kernel/cmd/dlbd-host does, or build without that tag`)
