package nn

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dlbd/dlbd/dl/safetensors"
)

// entrySpec is what a module expects of one state-dict entry.
type entrySpec struct {
	Name  string
	DType safetensors.DType
	Shape []int
}

// StateDictError lists every way a checkpoint does not fit a module, like
// the RuntimeError of torch's load_state_dict(strict=True): missing keys,
// unexpected keys, and shape or dtype mismatches. Nothing is loaded when it
// is returned.
type StateDictError struct {
	Path       string   // checkpoint file; empty for an in-memory state dict
	Missing    []string // in the module, not in the checkpoint
	Unexpected []string // in the checkpoint, not in the module
	Mismatched []string // one line per entry whose shape or dtype differs
}

// Error implements error.
func (e *StateDictError) Error() string {
	var b strings.Builder
	b.WriteString("nn: load state dict")
	if e.Path != "" {
		b.WriteString(" from " + e.Path)
	}
	b.WriteString(": checkpoint does not match the module (nothing was loaded)")
	if len(e.Missing) > 0 {
		fmt.Fprintf(&b, "; missing key(s): %s", quoteAll(e.Missing))
	}
	if len(e.Unexpected) > 0 {
		fmt.Fprintf(&b, "; unexpected key(s): %s", quoteAll(e.Unexpected))
	}
	for _, m := range e.Mismatched {
		b.WriteString("; " + m)
	}
	return b.String()
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// checkStateDict compares a checkpoint with what the module expects and
// returns a *StateDictError listing every difference, or nil when each
// expected entry is present with the same dtype and shape and nothing else
// is there.
func checkStateDict(path string, want []entrySpec, got map[string]safetensors.Tensor) error {
	e := &StateDictError{Path: path}
	seen := make(map[string]bool, len(want))
	for _, w := range want {
		seen[w.Name] = true
		g, ok := got[w.Name]
		switch {
		case !ok:
			e.Missing = append(e.Missing, w.Name)
		case !slices.Equal(g.Shape, w.Shape):
			e.Mismatched = append(e.Mismatched, fmt.Sprintf("size mismatch for %q: the checkpoint has shape %v, the module %v", w.Name, g.Shape, w.Shape))
		case g.DType != w.DType:
			e.Mismatched = append(e.Mismatched, fmt.Sprintf("dtype mismatch for %q: the checkpoint has %s, the module %s (convert the module, or save it again)", w.Name, g.DType, w.DType))
		}
	}
	for name := range got {
		if !seen[name] {
			e.Unexpected = append(e.Unexpected, name)
		}
	}
	slices.Sort(e.Unexpected)
	if len(e.Missing)+len(e.Unexpected)+len(e.Mismatched) == 0 {
		return nil
	}
	return e
}
