package docker_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const (
	edited    = "00-bienvenida.ipynb" // the student edits it
	untouched = "01-big-data.ipynb"   // the student leaves it alone
	course    = "/home/student/work/curso/"
)

// testRestartAndUpdate: a student's edit in the volume survives a restart (no .nuevo copy: the
// image did not change) and an image update that changes that notebook (the new version comes
// beside it as .nuevo, once); a notebook the student did not touch is updated in place.
func testRestartAndUpdate(t *testing.T, e engine, img, volume string, c *container) {
	// The edit: a blank line after the JSON, as an editor's save might add; still a notebook.
	c.exec("sh", "-c", "printf '\\n' >> "+course+edited)
	mine := c.exec("cat", course+edited)

	since := time.Now()
	e.run("restart", c.name)
	c.waitAPI(since)
	if got := c.exec("cat", course+edited); got != mine {
		t.Fatal("the student's edit did not survive a restart")
	}
	if out := c.exec("ls", course); strings.Contains(out, ".nuevo") {
		t.Errorf("a restart with the same image wrote a .nuevo copy:\n%s", out)
	}

	// An image update: the same image with both notebooks changed, as a new course version.
	dir := t.TempDir()
	var newer = map[string]string{}
	for _, nb := range []string{edited, untouched} {
		orig := e.run("run", "--rm", "--entrypoint", "cat", img, "/opt/dlbd/notebooks/"+nb)
		i := strings.Index(orig, `"cells": [`)
		if i < 0 {
			t.Fatalf("%s: no cells list", nb)
		}
		i += len(`"cells": [`)
		newer[nb] = orig[:i] + `{"cell_type": "markdown", "metadata": {}, "source": ["Nueva versión del curso."]}, ` + orig[i:]
		if err := os.WriteFile(filepath.Join(dir, nb), []byte(newer[nb]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	df := "FROM " + img + "\nCOPY " + edited + " " + untouched + " /opt/dlbd/notebooks/\n"
	if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte(df), 0o644); err != nil {
		t.Fatal(err)
	}
	updated := img + "-update"
	e.run("build", "-q", "-t", updated, dir)
	t.Cleanup(func() { e.try("rmi", updated) })

	e.run("rm", "-f", c.name)
	c2, _ := start(e, updated, volume)
	if got := c2.exec("cat", course+edited); got != mine {
		t.Error("the student's edit did not survive the image update")
	}
	nuevo := course + strings.TrimSuffix(edited, ".ipynb") + ".nuevo.ipynb"
	if got, err := e.try("exec", c2.name, "cat", nuevo); err != nil || got != newer[edited] {
		t.Errorf("after the update, %s: err %v; want the image's new version", nuevo, err)
	}
	if got := c2.exec("cat", course+untouched); got != newer[untouched] {
		t.Errorf("%s, which the student did not edit, was not updated in place", untouched)
	}
	if !strings.Contains(c2.logs(), edited+" has your changes") {
		t.Errorf("the entry point did not say where the new version is:\n%s", c2.logs())
	}

	// Once: deleted by the student, the .nuevo copy does not come back at the next start.
	c2.exec("rm", nuevo)
	since = time.Now()
	e.run("restart", c2.name)
	c2.waitAPI(since)
	if out := c2.exec("ls", course); strings.Contains(out, ".nuevo") {
		t.Errorf("a restart after the update wrote the .nuevo copy again:\n%s", out)
	}
}
