//go:build cgo && !dlbd_stateful

package duck

// DuckDB's database/sql driver (cgo, with its prebuilt static library). The
// stateful kernel's session builds with the tag dlbd_stateful and links
// the driver into its host program only (kernel/cmd/dlbd-host), so that a
// cell that uses this package does not link DuckDB's library again.
import _ "github.com/duckdb/duckdb-go/v2"
