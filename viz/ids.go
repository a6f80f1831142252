package viz

import (
	"crypto/rand"
	"encoding/hex"
)

// newID returns prefix + "-" + 16 random hex digits. Each GoNB cell runs in
// a new process, so ids must be unique across processes, not just within one:
// they come from crypto/rand, not from a counter.
func newID(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go ≥ 1.24)
	return prefix + "-" + hex.EncodeToString(b[:])
}
