//go:build !cgo

package duck

// errNoDriver is Open's error when DuckDB's driver is not registered.
var errNoDriver = ErrNoCgo
