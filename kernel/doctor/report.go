package doctor

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Check is the result of one step of [Run].
type Check struct {
	// Name is the step, like "kernelspec" or "trivial cell".
	Name string
	// OK says the step passed.
	OK bool
	// Skipped says the step did not run because an earlier one failed;
	// OK is then false.
	Skipped bool
	// Detail is what was found, or what went wrong.
	Detail string
	// Fix says what to do when the step failed; empty when OK.
	Fix string
	// Elapsed is how long the step took.
	Elapsed time.Duration
}

// String returns the check as the lines `dlbd doctor` prints: "✓ name:
// detail" or "✗ name: detail" followed by an indented "what to do:" line.
func (c Check) String() string {
	mark := "✓"
	if !c.OK {
		mark = "✗"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s %s: %s", mark, c.Name, indent(c.Detail))
	if !c.OK && c.Fix != "" {
		fmt.Fprintf(&sb, "\n    what to do: %s", indent(c.Fix))
	}
	return sb.String()
}

// indent indents continuation lines of a multi-line text under its check.
func indent(s string) string {
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n      ")
}

// Report is the list of checks [Run] made, in order.
type Report struct {
	// Checks are the steps in the order they ran.
	Checks []Check
}

// Failed returns the checks that did not pass (skipped ones included).
func (r Report) Failed() []Check {
	var out []Check
	for _, c := range r.Checks {
		if !c.OK {
			out = append(out, c)
		}
	}
	return out
}

// Err returns nil when every check passed, else an error naming the
// failed checks.
func (r Report) Err() error {
	failed := r.Failed()
	if len(failed) == 0 {
		return nil
	}
	names := make([]string, len(failed))
	for i, c := range failed {
		names[i] = c.Name
	}
	return fmt.Errorf("doctor: %d of %d checks failed: %s", len(failed), len(r.Checks), strings.Join(names, ", "))
}

// WriteTo writes every check's lines and a summary line to w.
func (r Report) WriteTo(w io.Writer) (int64, error) {
	var sb strings.Builder
	for _, c := range r.Checks {
		sb.WriteString(c.String() + "\n")
	}
	sb.WriteString(r.Summary() + "\n")
	n, err := io.WriteString(w, sb.String())
	return int64(n), err
}

// Summary returns "all 8 checks passed" or "2 of 8 checks failed".
func (r Report) Summary() string {
	if n := len(r.Failed()); n > 0 {
		return fmt.Sprintf("%d of %d checks failed", n, len(r.Checks))
	}
	return fmt.Sprintf("all %d checks passed", len(r.Checks))
}
