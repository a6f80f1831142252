package dl_test

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/dlbd/dlbd"

// goList runs `go list args...` in this directory and returns its output,
// skipping the test where there is no go command.
func goList(t *testing.T, args ...string) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	out, err := exec.Command(goCmd, append([]string{"list"}, args...)...).Output()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		t.Fatalf("go list %v: %v\n%s", args, err, ee.Stderr)
	} else if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	return string(out)
}

// TestImportsPointDown checks STYLE.md rule 1 with go list: dl itself
// depends on no dlbd package but its own dl/internal ones, and no package
// under dl/ depends on the notebook layer (viz, kernel).
func TestImportsPointDown(t *testing.T) {
	for dep := range strings.FieldsSeq(goList(t, "-deps", ".")) {
		if strings.HasPrefix(dep, module+"/") && dep != module+"/dl" && !strings.HasPrefix(dep, module+"/dl/internal/") {
			t.Errorf("dl depends on %s; dl imports no dlbd package outside dl/internal", dep)
		}
	}
	for line := range strings.Lines(goList(t, "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}", "./...")) {
		pkg, deps, _ := strings.Cut(strings.TrimSpace(line), " ")
		for dep := range strings.FieldsSeq(deps) {
			for _, banned := range []string{module + "/viz", module + "/kernel"} {
				if dep == banned || strings.HasPrefix(dep, banned+"/") {
					t.Errorf("%s depends on %s; packages under dl/ must not import the notebook layer", pkg, dep)
				}
			}
		}
	}
}
