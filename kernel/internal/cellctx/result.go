package cellctx

import "sync"

// The running cell's result (the value of its last expression) goes from
// package kernel, where the cell's code reports it, to the stateful host,
// which sends it to the kernel with the cell's reply.
var (
	resultMu   sync.Mutex
	keep       bool           // set by the host: results wait for TakeResult
	lastResult map[string]any // MIME type -> representation
)

// KeepResults makes SetResult keep each result for TakeResult; the
// stateful host calls it once, before it runs cells.
func KeepResults() {
	resultMu.Lock()
	defer resultMu.Unlock()
	keep = true
}

// SetResult records data (MIME type -> representation) as the running
// cell's result, replacing an earlier one. It reports false, and keeps
// nothing, outside the stateful host (a cell run as a process of its own):
// the caller shows the result itself then.
func SetResult(data map[string]any) bool {
	resultMu.Lock()
	defer resultMu.Unlock()
	if !keep {
		return false
	}
	lastResult = data
	return true
}

// TakeResult returns the result SetResult recorded since the last call,
// or nil, and forgets it.
func TakeResult() map[string]any {
	resultMu.Lock()
	defer resultMu.Unlock()
	r := lastResult
	lastResult = nil
	return r
}
