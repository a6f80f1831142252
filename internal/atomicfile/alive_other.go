//go:build !unix

package atomicfile

// processAlive reports true where dl cannot ask whether a process exists, so that a
// running writer's file is never removed; stale files there stay until removed by hand.
func processAlive(int) bool { return true }
