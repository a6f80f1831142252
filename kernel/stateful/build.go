package stateful

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
)

// buildError is the go command's failure to build a cell's plugin.
type buildError struct{ out string }

func (e *buildError) Error() string { return e.out }

// goBuildPlugin builds the plugin whose main package is in mainDir.
// -ldflags="-s -w" leaves out the symbol table and DWARF, which stack
// traces (pclntab) and plugin.Open (the dynamic symbols) do not need: a
// trivial cell's plugin is 3.3 MB (3.9 MB with -w alone) and links a little faster.
func (s *Session) goBuildPlugin(ctx context.Context, so, mainDir string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-buildmode=plugin", "-ldflags=-s -w", "-o", so, ".")
	cmd.Dir, cmd.Env = mainDir, s.goEnv()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &buildError{out: strings.TrimSpace(out.String())}
	}
	return nil
}

// dynlinkAsm matches the assembler's refusal to build a package's
// assembly for a plugin, naming the package ("# github.com/pierrec/lz4/v4/internal/lz4block" before it).
var dynlinkAsm = regexp.MustCompile(`(?s)# (\S+)\n[^#]*clobbered by a global variable access`)

// cellPosition matches a position in a cell in the go command's output.
var cellPosition = regexp.MustCompile(`^dlbd-cell-(\d+):(\d+)(?::(\d+))?: (.*)$`)

// buildFailed turns a failed plugin build into a cell error: lines that
// name a cell position read "Cell [N] Line L:C: message"; the go command's
// own lines ("# dlbd.cells/cell3") are dropped. The type check before the
// build catches what a student can get wrong, so this is rare.
func buildFailed(num int, err error) Result {
	be, ok := err.(*buildError)
	if !ok {
		return errorResult("compile", err.Error())
	}
	var lines []string
	for _, l := range strings.Split(be.out, "\n") {
		if m := cellPosition.FindStringSubmatch(l); m != nil {
			loc := fmt.Sprintf("Cell [%s] Line %s", m[1], m[2])
			if m[3] != "" {
				loc += ":" + m[3]
			}
			lines = append(lines, loc+": "+m[4])
		} else if strings.HasPrefix(l, "dlbd-generated:") {
			lines = append(lines, "the kernel generated code Go does not accept (a bug of the dlbd kernel; please report it with the cell): "+l)
		} else if !strings.HasPrefix(l, "# ") && strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		lines = []string{fmt.Sprintf("Cell [%d]: the build failed without a message", num)}
	}
	if m := dynlinkAsm.FindStringSubmatch(be.out); m != nil {
		// Some assembly cannot be built position-independent, as plugins are.
		lines = append([]string{fmt.Sprintf("Cell [%d] imports %s, whose assembly Go cannot build as a plugin (-dynlink), which the stateful mode needs. Run this notebook in the process mode: a cell with %%mode process (each cell its own program; values do not live on between cells).", num, m[1])}, lines...)
	}
	return Result{Status: "error", EName: "compile", EValue: lines[0], Traceback: lines}
}
