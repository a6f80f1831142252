package doctor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
)

func TestRunKernelspecMissing(t *testing.T) {
	var progress strings.Builder
	r, err := Run(context.Background(), Options{RepoDir: "/repo", Path: []string{t.TempDir()}, Progress: &progress})
	if err == nil || !strings.Contains(err.Error(), "9 of 9 checks failed") {
		t.Fatalf("Run = %v; want all 9 checks failed", err)
	}
	first := r.Checks[0]
	if first.Name != CheckKernelspec || first.OK || !strings.Contains(first.Detail, "kernels/dlbd/kernel.json") ||
		!strings.Contains(first.Fix, "run `make kernel` in /repo") || !strings.Contains(first.Fix, "JUPYTER_PATH=/repo/.jupyter") {
		t.Errorf("first check = %+v; want the missing kernelspec and `make kernel` advice", first)
	}
	for _, c := range r.Checks[1:] {
		if !c.Skipped || !strings.Contains(c.Detail, `needs "kernelspec"`) {
			t.Errorf("check %+v; want skipped because the kernelspec failed", c)
		}
	}
	if !strings.HasPrefix(progress.String(), "✗ kernelspec: ") || strings.Count(progress.String(), "✗") != 9 {
		t.Errorf("progress output:\n%s\nwant eight ✗ lines starting with the kernelspec", progress.String())
	}
}

func TestRunProgramMissing(t *testing.T) {
	dir := kerneltest.WriteSpec(t, "dlbd", `{"argv": ["/nonexistent/bin/dlbd", "launch", "{connection_file}"]}`)
	r, err := Run(context.Background(), Options{RepoDir: "/repo", Path: []string{dir}})
	if err == nil || r.Checks[0].OK || !strings.Contains(r.Checks[0].Detail, "/nonexistent/bin/dlbd") ||
		!strings.Contains(r.Checks[0].Fix, "make kernel") {
		t.Errorf("Run = %v, first check %+v; want the missing program named and `make kernel` advice", err, r.Checks[0])
	}
}

func TestRunKernelExits(t *testing.T) {
	dir := kerneltest.WriteSpec(t, "dlbd", `{"argv": ["/bin/sh", "-c", "echo cannot find go >&2; exit 1"]}`)
	r, err := Run(context.Background(), Options{RepoDir: "/repo", Path: []string{dir}})
	if err == nil {
		t.Fatal("Run = nil error; want a failure")
	}
	start := r.Checks[1]
	if start.Name != CheckStart || start.OK || !strings.Contains(start.Detail, "cannot find go") || !strings.Contains(start.Fix, "go version") {
		t.Errorf("start check = %+v; want the kernel's output and advice", start)
	}
	if len(r.Checks) != 9 || !r.Checks[8].Skipped {
		t.Errorf("checks = %+v; want 9 with the later ones skipped", r.Checks)
	}
}

func TestRunWrongLanguage(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Python kernel: skipped with -short")
	}
	py := filepath.Join(kerneltest.RepoRoot(t), ".venv", "bin", "python")
	if _, err := os.Stat(py); err != nil {
		kerneltest.Missing(t, "no Python at %s (run `make kernel`)", py)
	}
	dir := kerneltest.WriteSpec(t, "dlbd", `{"argv": ["`+py+`", "-m", "ipykernel_launcher", "-f", "{connection_file}"], "language": "python"}`)
	r, err := Run(context.Background(), Options{RepoDir: "/repo", Path: []string{dir}, CellTimeout: time.Minute})
	if err == nil {
		t.Fatal("Run(python kernel) = nil error; want the language check to fail")
	}
	byName := map[string]Check{}
	for _, c := range r.Checks {
		byName[c.Name] = c
	}
	info := byName[CheckKernelInfo]
	if info.OK || !strings.Contains(info.Detail, `language "python", want go`) || !strings.Contains(info.Fix, "make kernel") {
		t.Errorf("kernel info check = %+v; want the wrong language named", info)
	}
	for _, name := range []string{CheckStart, CheckHeartbeat, CheckShutdown} {
		if !byName[name].OK {
			t.Errorf("check %s = %+v; want it to pass on ipykernel", name, byName[name])
		}
	}
	if !byName[CheckCell].Skipped {
		t.Errorf("trivial cell check = %+v; want skipped", byName[CheckCell])
	}
}

func TestRunDLBD(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the dlbd kernel and compiles cells: skipped with -short")
	}
	root := kerneltest.RepoRoot(t)
	if _, err := os.Stat(filepath.Join(root, ".jupyter", "kernels", "dlbd", "kernel.json")); err != nil {
		kerneltest.Missing(t, "no dlbd kernelspec in %s/.jupyter (run `make kernel`)", root)
	}
	r, err := Run(context.Background(), Options{RepoDir: root, Runs: 2})
	var sb strings.Builder
	r.WriteTo(&sb)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, sb.String())
	}
	t.Logf("report:\n%s", sb.String())
	if len(r.Checks) != 9 || !strings.Contains(r.Checks[5].Detail, "github.com/dlbd/dlbd/kernel") || !strings.Contains(r.Checks[6].Detail, "stateful mode") {
		t.Errorf("report has %d checks, import cell %q, values %q; want 9, the kernel package imported and the stateful mode", len(r.Checks), r.Checks[5].Detail, r.Checks[6].Detail)
	}
}
