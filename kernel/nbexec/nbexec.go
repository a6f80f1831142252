package nbexec

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Options configures Execute. Jupyter and KernelName are required.
type Options struct {
	// Jupyter is the jupyter executable (e.g. <repo>/.venv/bin/jupyter).
	Jupyter string
	// KernelName overrides the notebook's kernelspec, e.g. "dlbd".
	KernelName string
	// OutDir receives the executed copy, <OutDir>/<name>.ipynb. It is created if needed.
	OutDir string
	// CellTimeout bounds each cell; zero means 10 minutes.
	CellTimeout time.Duration
	// Env is the environment of nbconvert (and so of the kernel); nil means os.Environ().
	Env []string
}

// Result is the outcome of executing one notebook.
type Result struct {
	Notebook string        // source path
	Executed string        // path of the executed copy
	Duration time.Duration // wall time of nbconvert
	Failures []Failure     // cells with an error output, in order
	Cells    []CellTiming  // execution time of each code cell
}

// CellTiming is how long one code cell ran, from nbclient's recorded timestamps.
type CellTiming struct {
	Cell     int // 1-based index among all cells
	Duration time.Duration
}

// Failure describes one failed cell.
type Failure struct {
	Cell   int    // 1-based index among all cells of the notebook
	Source string // the cell's code
	EName  string // error name, e.g. "ERROR"
	EValue string // error value, e.g. a compiler message or "exit status 2"
	Stderr string // what the cell wrote to stderr (a panic message, for instance)
}

// String formats a failure as "cell N: message", with the stderr tail when it helps.
func (f Failure) String() string {
	msg := strings.TrimSpace(f.EValue)
	if tail := lastLines(f.Stderr, 12); tail != "" {
		msg += "\n" + tail
	}
	return fmt.Sprintf("cell %d: %s: %s", f.Cell, f.EName, msg)
}

// Execute runs nbPath through nbconvert and inspects the executed copy.
func Execute(ctx context.Context, nbPath string, o Options) (*Result, error) {
	if o.Jupyter == "" || o.KernelName == "" || o.OutDir == "" {
		return nil, fmt.Errorf("nbexec: Options need Jupyter, KernelName and OutDir (got %+v)", o)
	}
	timeout := o.CellTimeout
	if timeout == 0 {
		timeout = 10 * time.Minute
	}
	if err := os.MkdirAll(o.OutDir, 0o755); err != nil {
		return nil, fmt.Errorf("nbexec: %w", err)
	}
	name := strings.TrimSuffix(filepath.Base(nbPath), ".ipynb")
	args := []string{"nbconvert", "--to", "notebook", "--execute", "--allow-errors",
		"--ExecutePreprocessor.kernel_name=" + o.KernelName,
		fmt.Sprintf("--ExecutePreprocessor.timeout=%d", int(timeout.Seconds())),
		"--output-dir", o.OutDir, "--output", name, nbPath}
	cmd := exec.CommandContext(ctx, o.Jupyter, args...)
	cmd.Env = o.Env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	res := &Result{Notebook: nbPath, Executed: filepath.Join(o.OutDir, name+".ipynb"), Duration: time.Since(start)}
	if err != nil {
		return res, fmt.Errorf("nbexec: %s: nbconvert failed (%v):\n%s", nbPath, err, lastLines(stderr.String(), 30))
	}
	data, err := os.ReadFile(res.Executed)
	if err != nil {
		return res, fmt.Errorf("nbexec: %s: executed copy missing: %w", nbPath, err)
	}
	nb, err := Parse(data)
	if err != nil {
		return res, fmt.Errorf("nbexec: %s: %w", res.Executed, err)
	}
	res.Failures = nb.Failures()
	res.Cells = nb.Timings()
	return res, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// Notebook is the part of the nbformat v4 structure that nbexec reads.
type Notebook struct {
	Cells    []Cell         `json:"cells"`
	Metadata map[string]any `json:"metadata"`
}

// Cell is one notebook cell. Source is a string or a list of strings in nbformat.
type Cell struct {
	CellType       string          `json:"cell_type"`
	Source         MultilineString `json:"source"`
	Outputs        []Output        `json:"outputs"`
	ExecutionCount *int            `json:"execution_count"`
	Metadata       map[string]any  `json:"metadata"`
}

// Output is one cell output.
type Output struct {
	OutputType string          `json:"output_type"`
	Name       string          `json:"name"`
	Text       MultilineString `json:"text"`
	EName      string          `json:"ename"`
	EValue     string          `json:"evalue"`
	Traceback  []string        `json:"traceback"`
	Data       json.RawMessage `json:"data"` // display data by MIME type, undecoded
}

// MultilineString decodes nbformat's "string or list of strings".
type MultilineString string

// UnmarshalJSON accepts a JSON string or a list of strings.
func (m *MultilineString) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*m = MultilineString(s)
		return nil
	}
	var parts []string
	if err := json.Unmarshal(b, &parts); err != nil {
		return fmt.Errorf("nbexec: want a string or a list of strings, got %s", b)
	}
	*m = MultilineString(strings.Join(parts, ""))
	return nil
}

// Parse decodes a notebook.
func Parse(data []byte) (*Notebook, error) {
	var nb Notebook
	if err := json.Unmarshal(data, &nb); err != nil {
		return nil, fmt.Errorf("not a valid notebook: %w", err)
	}
	return &nb, nil
}

// Failures lists the cells that have an error output.
func (nb *Notebook) Failures() []Failure {
	var out []Failure
	for i, c := range nb.Cells {
		var stderr strings.Builder
		for _, o := range c.Outputs {
			switch {
			case o.OutputType == "stream" && o.Name == "stderr":
				stderr.WriteString(string(o.Text))
			case o.OutputType == "error":
				out = append(out, Failure{Cell: i + 1, Source: string(c.Source), EName: o.EName, EValue: o.EValue, Stderr: stderr.String()})
			}
		}
	}
	return out
}

// Timings returns each executed code cell's duration (from the execute_input and
// execute_reply timestamps nbclient records in the cell metadata).
func (nb *Notebook) Timings() []CellTiming {
	var out []CellTiming
	for i, c := range nb.Cells {
		ex, _ := c.Metadata["execution"].(map[string]any)
		start, ok1 := parseTime(ex["iopub.execute_input"])
		end, ok2 := parseTime(ex["shell.execute_reply"])
		if ok1 && ok2 {
			out = append(out, CellTiming{Cell: i + 1, Duration: end.Sub(start)})
		}
	}
	return out
}

func parseTime(v any) (time.Time, bool) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}
