package docker_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// notebook is the part of an executed .ipynb the checks read.
type notebook struct {
	Cells []struct {
		CellType string `json:"cell_type"`
		Source   any    `json:"source"`
		Outputs  []struct {
			OutputType string          `json:"output_type"`
			Name       string          `json:"name"`
			Text       any             `json:"text"`
			Data       json.RawMessage `json:"data"`
			EName      string          `json:"ename"`
			EValue     string          `json:"evalue"`
		} `json:"outputs"`
	} `json:"cells"`
}

// joined returns a notebook string field, which is a string or a list of lines.
func joined(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var sb strings.Builder
		for _, l := range x {
			s, _ := l.(string)
			sb.WriteString(s)
		}
		return sb.String()
	}
	return ""
}

// TestImageRunsACourseNotebookOffline executes notebook 00 inside the container with nbconvert
// on the dlbd kernel, with no network at all, and checks from its outputs that the cells ran in
// the stateful mode: a variable one cell changed is seen changed by the next, and a model
// trained in one cell is used, trained, by a later one.
func TestImageRunsACourseNotebookOffline(t *testing.T) {
	e, img := requireImage(t, "DLBD_IMAGE")
	t0 := time.Now()
	out, err := e.try("run", "--rm", "--network", "none", img,
		"jupyter", "nbconvert", "--to", "notebook", "--execute", "--stdout",
		"--ExecutePreprocessor.kernel_name=dlbd", "--ExecutePreprocessor.timeout=600", "--allow-errors",
		"/opt/dlbd/notebooks/00-bienvenida.ipynb")
	if err != nil {
		msg := err.Error()
		if len(msg) > 3000 {
			msg = "…" + msg[len(msg)-3000:]
		}
		t.Fatalf("nbconvert --execute 00-bienvenida.ipynb in the container (--network none): %s", msg)
	}
	t.Logf("notebook 00 executed offline in %.1f s (docker run to exit)", time.Since(t0).Seconds())
	var nb notebook
	if err := json.Unmarshal([]byte(out), &nb); err != nil {
		t.Fatalf("nbconvert's output is not a notebook: %v\n%.500s", err, out)
	}
	var all strings.Builder
	code := 0
	for _, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		code++
		for _, o := range c.Outputs {
			if o.OutputType == "error" {
				t.Errorf("cell %q failed: %s: %s", firstLines(joined(c.Source), 2), o.EName, o.EValue)
			}
			all.WriteString(joined(o.Text))
			all.Write(o.Data)
		}
	}
	text := all.String()
	if strings.Contains(text, "stateful mode is unavailable") {
		t.Errorf("the kernel fell back to a process per cell (no cgo or C compiler in the image?):\n%s", text)
	}
	// Cells 6 and 7 of notebook 00 each add one to contador; 9 trains modelo, 10 prints its w (and
	// checks it: in a process per cell it would not even compile); 18 shows %mode process.
	for _, want := range []string{"contador = 2", "w = ", "en modo proceso, contador = 1"} {
		if !strings.Contains(text, want) {
			t.Errorf("the executed notebook lacks %q: values did not live on between cells", want)
		}
	}
	if code < 10 {
		t.Errorf("only %d code cells executed", code)
	}
}
