package docker_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/nbexec"
)

// executeOffline executes a course notebook inside a container of img with nbconvert on the
// dlbd kernel, with no network at all and the README's --shm-size, and returns the text of its
// outputs; a failed cell fails the test.
func executeOffline(t *testing.T, e engine, img, name string) string {
	t.Helper()
	t0 := time.Now()
	out, err := e.try("run", "--rm", "--network", "none", "--shm-size=1g", img,
		"jupyter", "nbconvert", "--to", "notebook", "--execute", "--stdout",
		"--ExecutePreprocessor.kernel_name=dlbd", "--ExecutePreprocessor.timeout=600", "--allow-errors",
		"/opt/dlbd/notebooks/"+name)
	if err != nil {
		msg := err.Error()
		if len(msg) > 3000 {
			msg = "…" + msg[len(msg)-3000:]
		}
		t.Fatalf("nbconvert --execute %s in the container (--network none): %s", name, msg)
	}
	t.Logf("%s executed offline in %.1f s (docker run to exit)", name, time.Since(t0).Seconds())
	nb, err := nbexec.Parse([]byte(out))
	if err != nil {
		t.Fatalf("nbconvert's output is not a notebook: %v\n%.500s", err, out)
	}
	for _, f := range nb.Failures() {
		t.Errorf("%s: cell %q failed: %s: %s", name, firstLines(f.Source, 2), f.EName, f.EValue)
	}
	var all strings.Builder
	code := 0
	for _, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		code++
		for _, o := range c.Outputs {
			all.WriteString(string(o.Text))
			all.Write(o.Data)
		}
	}
	if code < 5 {
		t.Errorf("%s: only %d code cells executed", name, code)
	}
	return all.String()
}

// TestImageRunsACourseNotebookOffline executes notebook 00 and checks from its outputs that the
// cells ran in the stateful mode: a variable one cell changed is seen changed by the next, and a
// model trained in one cell is used, trained, by a later one.
func TestImageRunsACourseNotebookOffline(t *testing.T) {
	t.Parallel()
	e, img := requireImage(t, "DLBD_IMAGE")
	text := executeOffline(t, e, img, "00-bienvenida.ipynb")
	if strings.Contains(text, "stateful mode is unavailable") {
		t.Errorf("the kernel fell back to a process per cell (no cgo or C compiler in the image?):\n%s", text)
	}
	// Cells 6 and 7 of notebook 00 each add one to contador; 9 trains modelo, 10 prints its w (and
	// checks it: in a process per cell it would not even compile); 20 shows %mode process.
	for _, want := range []string{"contador = 2", "w = ", "en modo proceso, contador = 1"} {
		if !strings.Contains(text, want) {
			t.Errorf("the executed notebook lacks %q: values did not live on between cells", want)
		}
	}
}

// TestImageRunsTheMPINotebookOffline executes notebook 11, whose DDP training runs on 4 Open MPI
// processes (mpirun, libmpi) and must equal the in-process run; without Open MPI in the image
// the notebook skips that part, which fails here.
func TestImageRunsTheMPINotebookOffline(t *testing.T) {
	t.Parallel()
	e, img := requireImage(t, "DLBD_IMAGE")
	text := executeOffline(t, e, img, "11-mas-alla-de-una-maquina.ipynb")
	if strings.Contains(text, "Open MPI no está instalado") || !strings.Contains(text, "4 procesos MPI") {
		t.Errorf("notebook 11 did not train on 4 MPI processes in the container:\n%s", firstLines(text, 30))
	}
}

// TestImageRunsTheDuckDBAndSparkNotebookOffline executes notebook 01b: DuckDB (cgo and C++ in
// the process mode) and a local Spark Connect server (Java, pyspark's jars in .venv) answer the
// same query.
func TestImageRunsTheDuckDBAndSparkNotebookOffline(t *testing.T) {
	t.Parallel()
	e, img := requireImage(t, "DLBD_IMAGE")
	executeOffline(t, e, img, "01b-formatos-columnares-y-sql.ipynb")
}
