package layering

import (
	"errors"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/internal/checkout"
)

// rules are the module's import rules. Package paths are relative to the module; "p/..."
// means p and every package below it, as in `go list`.
var rules = []struct {
	pkgs string   // the packages the rule covers
	only []string // when set, the only dlbd packages they may depend on
	not  []string // dlbd packages they must not depend on
	why  string
}{
	{pkgs: "internal/...", only: []string{"internal/..."},
		why: "internal/ holds the leaves every layer shares"},
	{pkgs: "facts/...", only: []string{"facts/..."},
		why: "facts are cited data at the bottom: they import no dlbd package"},
	{pkgs: "dl", only: []string{"dl/internal/...", "internal/cpuload"},
		why: "dl imports no dlbd package outside dl/internal but the leaf that measures other programs' load, shared with the kernel"},
	{pkgs: "dl/...", not: []string{"kernel/...", "viz/...", "bigdata/...", "internal/checkout"},
		why: "dl is the bottom of the course's code: it imports neither the notebook layer nor the Big Data engines, and never knows where the checkout is"},
	{pkgs: "bigdata/...", not: []string{"kernel/...", "viz/..."},
		why: "bigdata feeds dl and notebook cells; the kernel and viz sit above it"},
	{pkgs: "viz/...", not: []string{"kernel/...", "bigdata/..."},
		why: "viz draws the same in every kernel mode and for every engine"},
}

// matches reports whether the module-relative package path rel is pattern or, for
// "p/...", p or a package below it.
func matches(pattern, rel string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return rel == base || strings.HasPrefix(rel, base+"/")
	}
	return rel == pattern
}

func matchesAny(patterns []string, rel string) bool {
	for _, p := range patterns {
		if matches(p, rel) {
			return true
		}
	}
	return false
}

// moduleDeps returns every package of the module with its dlbd dependencies, all as
// paths relative to the module, skipping the test where there is no go command.
func moduleDeps(t *testing.T) map[string][]string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	args := []string{"list", "-f", "{{.ImportPath}} {{.Dir}}{{range .Deps}} {{.}}{{end}}", checkout.ModulePath + "/..."}
	out, err := exec.Command(goCmd, args...).Output()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		t.Fatalf("go %v: %v\n%s", args, err, ee.Stderr)
	} else if err != nil {
		t.Fatalf("go %v: %v", args, err)
	}
	deps := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		pkg, ok := strings.CutPrefix(fields[0], checkout.ModulePath+"/")
		if !ok {
			continue
		}
		// go test caches a pass by the files and directories the test opened; go list's
		// reads are not among them. Listing each package's directory here makes an
		// edited or added file invalidate the cached result.
		if _, err := os.ReadDir(fields[1]); err != nil {
			t.Fatal(err)
		}
		deps[pkg] = []string{}
		for _, dep := range fields[2:] {
			if rel, ok := strings.CutPrefix(dep, checkout.ModulePath+"/"); ok {
				deps[pkg] = append(deps[pkg], rel)
			}
		}
	}
	return deps
}

// TestImportsPointDown checks STYLE.md rule 1 with go list: every package of the module
// against each rule that covers it.
func TestImportsPointDown(t *testing.T) {
	deps := moduleDeps(t)
	for _, r := range rules {
		covered := 0
		for _, pkg := range slices.Sorted(maps.Keys(deps)) {
			if !matches(r.pkgs, pkg) {
				continue
			}
			covered++
			for _, dep := range deps[pkg] {
				if (r.only != nil && !matchesAny(r.only, dep)) || matchesAny(r.not, dep) {
					t.Errorf("%s depends on %s; %s", pkg, dep, r.why)
				}
			}
		}
		if covered == 0 {
			t.Errorf("rule for %s covers no package; update the rules table", r.pkgs)
		}
	}
}
