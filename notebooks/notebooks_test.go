// Package notebooks_test checks the course notebooks as files: they are committed without
// outputs, run on the dlbd kernel, and import only this module's packages (so a cell
// never makes GoNB fetch a module from the network). Executing them is `make notebooks`.
package notebooks_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/kernel/nbexec"
)

func notebooks(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no notebooks found in notebooks/")
	}
	return files
}

func load(t *testing.T, path string) *nbexec.Notebook {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	nb, err := nbexec.Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return nb
}

func TestNotebooksHaveNoOutputs(t *testing.T) {
	for _, f := range notebooks(t) {
		nb := load(t, f)
		for i, c := range nb.Cells {
			if len(c.Outputs) > 0 || c.ExecutionCount != nil {
				t.Errorf("%s cell %d has outputs or an execution count; commit notebooks without outputs (Jupyter: Edit > Clear Outputs of All Cells)", f, i+1)
			}
		}
	}
}

func TestNotebooksUseTheDlbdKernel(t *testing.T) {
	for _, f := range notebooks(t) {
		nb := load(t, f)
		ks, _ := nb.Metadata["kernelspec"].(map[string]any)
		if ks["name"] != "dlbd" {
			t.Errorf("%s: kernelspec name = %v; want dlbd", f, ks["name"])
		}
		if !regexp.MustCompile(`^\d\d[a-z]?-[a-z0-9-]+\.ipynb$`).MatchString(f) {
			t.Errorf("%s: name notebooks NN-topic.ipynb (NNx-topic.ipynb for one inserted after NN)", f)
		}
	}
}

var importRE = regexp.MustCompile(`(?m)^\s*(?:import\s+)?(?:[A-Za-z_.]+\s+)?"([^"]+)"\s*$`)

func TestNotebooksImportOnlyThisModule(t *testing.T) {
	for _, f := range notebooks(t) {
		nb := load(t, f)
		for i, c := range nb.Cells {
			if c.CellType != "code" {
				continue
			}
			for _, block := range importBlocks(string(c.Source)) {
				for _, m := range importRE.FindAllStringSubmatch(block, -1) {
					path := m[1]
					first, _, _ := strings.Cut(path, "/")
					if strings.HasPrefix(path, "github.com/dlbd/dlbd") || !strings.Contains(first, ".") {
						continue // this module, or the standard library
					}
					t.Errorf("%s cell %d imports %s: notebooks import only github.com/dlbd/dlbd/... and the standard library (GoNB would fetch anything else from the network)", f, i+1, path)
				}
			}
		}
	}
}

// importBlocks returns the import declarations of a cell: single-line imports and the
// bodies of parenthesised import blocks.
func importBlocks(src string) []string {
	var out []string
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		switch {
		case l == "import (":
			var b strings.Builder
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != ")"; i++ {
				b.WriteString(lines[i] + "\n")
			}
			out = append(out, b.String())
		case strings.HasPrefix(l, "import "):
			out = append(out, l)
		}
	}
	return out
}

func TestImportBlocks(t *testing.T) {
	src := "import \"github.com/dlbd/dlbd/dl\"\nimport (\n\t\"fmt\"\n\tv \"example.com/x\"\n)\n%%\nfmt.Println(\"a\")"
	var got []string
	for _, b := range importBlocks(src) {
		for _, m := range importRE.FindAllStringSubmatch(b, -1) {
			got = append(got, m[1])
		}
	}
	want := []string{"github.com/dlbd/dlbd/dl", "fmt", "example.com/x"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("imports = %q; want %q", got, want)
	}
}
