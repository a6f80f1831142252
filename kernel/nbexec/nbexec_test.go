package nbexec

import (
	"context"
	"os"
	"strings"
	"testing"
)

func TestFailuresFromExecutedNotebook(t *testing.T) {
	// testdata/executed-with-errors.ipynb was executed by nbconvert --allow-errors on
	// GoNB: cell 1 panics, cell 2 does not compile, cell 3 runs a failing shell command
	// (which GoNB does not report as an error).
	data, err := os.ReadFile("testdata/executed-with-errors.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	nb, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	fs := nb.Failures()
	if len(fs) != 2 {
		t.Fatalf("Failures() = %d failures; want 2: %+v", len(fs), fs)
	}
	if fs[0].Cell != 1 || !strings.Contains(fs[0].Stderr, "panic: boom") || !strings.Contains(fs[0].String(), "Cell [1] Line 3") {
		t.Errorf("failure 1 = %q; want cell 1 with the panic message and its cell line", fs[0].String())
	}
	if fs[1].Cell != 2 || !strings.Contains(fs[1].EValue, "undefined: y") {
		t.Errorf("failure 2 = %+v; want cell 2 with the compiler error", fs[1])
	}
}

func TestMultilineString(t *testing.T) {
	nb, err := Parse([]byte(`{"cells":[{"cell_type":"code","source":["a\n","b"],"outputs":[]},{"cell_type":"markdown","source":"x"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if nb.Cells[0].Source != "a\nb" || nb.Cells[1].Source != "x" {
		t.Errorf("sources = %q, %q", nb.Cells[0].Source, nb.Cells[1].Source)
	}
	if _, err := Parse([]byte(`{"cells":[{"source":3}]}`)); err == nil {
		t.Error("Parse accepted a numeric source")
	}
}

func TestExecuteNeedsOptions(t *testing.T) {
	if _, err := Execute(context.Background(), "x.ipynb", Options{}); err == nil || !strings.Contains(err.Error(), "Jupyter") {
		t.Errorf("Execute with empty options: err = %v", err)
	}
}
