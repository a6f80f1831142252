package doctor

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dlbd/dlbd/internal/checkout"
	"github.com/dlbd/dlbd/kernel/jupyter"
)

// Options configures [Run]. The zero value checks the kernelspec "dlbd" of
// the checkout that holds the current directory.
type Options struct {
	// KernelName is the kernelspec to check; "" means "dlbd".
	KernelName string
	// RepoDir is the dlbd checkout; "" means the one holding the current
	// directory (none is fine when Path and Packages are given).
	RepoDir string
	// Path lists the Jupyter data directories searched for the kernelspec;
	// nil means <RepoDir>/.jupyter followed by jupyter.DataPath().
	Path []string
	// Packages are imported by the import cell; nil means those of
	// github.com/dlbd/dlbd/kernel, /dl and /viz that exist in RepoDir.
	Packages []string
	// Runs is the number of timed runs per cell after the first; 0 means 3.
	Runs int
	// CellTimeout bounds each cell, the first (cold build cache) included;
	// 0 means 3 minutes.
	CellTimeout time.Duration
	// Progress, when not nil, receives each check's lines as soon as it is
	// known (Run may take a minute on a cold build cache).
	Progress io.Writer
}

// Check names, in the order Run makes them.
const (
	CheckKernelspec = "kernelspec"
	CheckStart      = "kernel start"
	CheckHeartbeat  = "heartbeat"
	CheckKernelInfo = "kernel info"
	CheckCell       = "trivial cell"
	CheckImports    = "import cell"
	CheckState      = "values between cells"
	CheckInterrupt  = "interrupt"
	CheckShutdown   = "shutdown"
)

// doctor holds the state of one Run.
type doctor struct {
	o      Options
	report Report
	spec   *jupyter.KernelSpec
	c      *jupyter.Client
}

// Run makes every check and returns the report, with a non-nil error
// ([Report.Err]) when any check failed. A check that cannot run because an
// earlier one failed is reported as skipped.
func Run(ctx context.Context, o Options) (Report, error) {
	d := &doctor{o: o.withDefaults()}
	d.run(ctx)
	return d.report, d.report.Err()
}

// withDefaults fills the zero fields of o.
func (o Options) withDefaults() Options {
	if o.KernelName == "" {
		o.KernelName = "dlbd"
	}
	if o.RepoDir == "" {
		o.RepoDir, _ = checkout.Find(".") // no checkout: defaults below use none
	}
	if o.Path == nil {
		if o.RepoDir != "" {
			o.Path = append(o.Path, filepath.Join(o.RepoDir, ".jupyter"))
		}
		o.Path = append(o.Path, jupyter.DataPath()...)
	}
	if o.Packages == nil {
		o.Packages = []string{checkout.ModulePath + "/kernel"}
		for _, dir := range []string{"dl", "viz"} {
			if o.RepoDir != "" && hasGoFiles(filepath.Join(o.RepoDir, dir)) {
				o.Packages = append(o.Packages, checkout.ModulePath+"/"+dir)
			}
		}
	}
	if o.Runs <= 0 {
		o.Runs = 3
	}
	if o.CellTimeout <= 0 {
		o.CellTimeout = 3 * time.Minute
	}
	return o
}

// hasGoFiles reports whether dir holds a non-test .go file.
func hasGoFiles(dir string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			return true
		}
	}
	return false
}

// run makes the checks in order; each needs the ones it builds on.
func (d *doctor) run(ctx context.Context) {
	later := []string{CheckStart, CheckHeartbeat, CheckKernelInfo, CheckCell, CheckImports, CheckState, CheckInterrupt, CheckShutdown}
	if !d.step(CheckKernelspec, d.findSpec) {
		d.skip(CheckKernelspec, later...)
		return
	}
	if !d.step(CheckStart, func() (string, string, error) { return d.start(ctx) }) {
		d.skip(CheckStart, later[1:]...)
		return
	}
	defer d.c.Close() // after a successful shutdown this only cleans up
	d.step(CheckHeartbeat, func() (string, string, error) { return d.heartbeat(ctx) })
	cellsOK := d.step(CheckKernelInfo, func() (string, string, error) { return d.kernelInfo(ctx) })
	cellsOK = cellsOK && d.step(CheckCell, func() (string, string, error) { return d.trivialCell(ctx) })
	if cellsOK {
		d.step(CheckImports, func() (string, string, error) { return d.importCell(ctx) })
		d.step(CheckState, func() (string, string, error) { return d.state(ctx) })
		d.step(CheckInterrupt, func() (string, string, error) { return d.interrupt(ctx) })
	} else {
		d.skip(d.report.Checks[len(d.report.Checks)-1].Name, CheckCell, CheckImports, CheckState, CheckInterrupt)
	}
	d.step(CheckShutdown, func() (string, string, error) { return d.shutdown(ctx) })
}

// step runs fn as the check name and records it. fn returns what it found,
// and on failure the advice and the error.
func (d *doctor) step(name string, fn func() (detail, fix string, err error)) bool {
	start := time.Now()
	detail, fix, err := fn()
	c := Check{Name: name, OK: err == nil, Detail: detail, Elapsed: time.Since(start)}
	if err != nil {
		c.Fix = fix
		if c.Detail == "" {
			c.Detail = err.Error()
		} else {
			c.Detail += ": " + err.Error()
		}
	}
	d.add(c)
	return c.OK
}

// skip records names as not run because the check failed was needed.
func (d *doctor) skip(failed string, names ...string) {
	for _, n := range names {
		if n == failed {
			continue
		}
		d.add(Check{Name: n, Skipped: true, Detail: fmt.Sprintf("not run: needs %q, which failed", failed)})
	}
}

// add records c and prints it to Progress.
func (d *doctor) add(c Check) {
	d.report.Checks = append(d.report.Checks, c)
	if d.o.Progress != nil {
		fmt.Fprintln(d.o.Progress, c)
	}
}

// makeKernel is the advice for an installation problem.
func (d *doctor) makeKernel() string {
	if d.o.RepoDir == "" {
		return "run `make kernel` in the dlbd checkout"
	}
	return fmt.Sprintf("run `make kernel` in %s (it builds bin/ and installs %s)", d.o.RepoDir,
		filepath.Join(d.o.RepoDir, ".jupyter", "kernels", d.o.KernelName))
}

// findSpec checks that the kernelspec exists and that its program does.
func (d *doctor) findSpec() (string, string, error) {
	spec, err := jupyter.FindKernelSpec(d.o.KernelName, d.o.Path)
	if err != nil {
		fix := d.makeKernel()
		if d.o.RepoDir != "" {
			fix += fmt.Sprintf("; if you start Jupyter yourself, set JUPYTER_PATH=%s", filepath.Join(d.o.RepoDir, ".jupyter"))
		}
		return "", fix, err
	}
	d.spec = spec
	if _, err := os.Stat(spec.Argv[0]); err != nil {
		return fmt.Sprintf("kernelspec %s starts %s", spec.Dir, spec.Argv[0]), d.makeKernel(), fmt.Errorf("program missing: %w", err)
	}
	return fmt.Sprintf("%s in %s (%q)", spec.Name, spec.Dir, spec.DisplayName), "", nil
}
