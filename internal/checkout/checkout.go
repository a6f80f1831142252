// Package checkout finds the dlbd checkout: the Go module path of this repository and
// the directory that holds its go.mod. The installer, the kernel's commands and the Big
// Data servers (Spark's and Kafka's files live under the checkout) all ask here.
package checkout

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ModulePath is the Go module path of this repository.
const ModulePath = "github.com/dlbd/dlbd"

// EnvVar names the environment variable that gives the checkout's root to processes
// started away from it: the kernelspec sets it for notebook cells.
const EnvVar = "DLBD_REPO"

// Find returns the absolute root of the dlbd checkout that contains dir: the closest
// ancestor holding a go.mod whose module line is ModulePath.
func Find(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("checkout: find repository from %s: %w", dir, err)
	}
	for d := abs; ; d = filepath.Dir(d) {
		if modulePathOf(filepath.Join(d, "go.mod")) == ModulePath {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("checkout: no go.mod with module %s above %s; run this from the dlbd checkout", ModulePath, abs)
		}
	}
}

// Root returns the checkout of the running process: $DLBD_REPO ([EnvVar]) when set,
// else Find of the working directory.
func Root() (string, error) {
	if r := os.Getenv(EnvVar); r != "" {
		return r, nil
	}
	return Find(".")
}

// modulePathOf returns the module path declared by the go.mod file goMod, or "" when
// it cannot be read or declares none.
func modulePathOf(goMod string) string {
	f, err := os.Open(goMod)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
