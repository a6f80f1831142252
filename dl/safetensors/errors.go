package safetensors

import (
	"errors"
	"fmt"
)

// ErrFormat is wrapped by every error about a malformed file or an invalid
// tensor description: errors.Is(err, safetensors.ErrFormat).
var ErrFormat = errors.New("safetensors: invalid format")

// FormatError describes why a file (or a set of tensors about to be written)
// breaks the safetensors format. Its message names the operation, the file,
// the tensor when there is one, and what is wrong.
type FormatError struct {
	Op     string // "read", "unmarshal", "write" or "marshal"
	Path   string // file path; empty for in-memory operations
	Tensor string // tensor name; empty when the problem is not one tensor's
	Reason string // what is wrong, in lowercase
}

// Error implements error.
func (e *FormatError) Error() string {
	s := "safetensors: " + e.Op
	if e.Path != "" {
		s += " " + e.Path
	}
	if e.Tensor != "" {
		s += fmt.Sprintf(": tensor %q", e.Tensor)
	}
	return s + ": " + e.Reason
}

// Unwrap returns ErrFormat.
func (e *FormatError) Unwrap() error { return ErrFormat }
