package kernelspec

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ModulePath is the Go module path of this repository.
const ModulePath = "github.com/dlbd/dlbd"

// FindRepo returns the absolute root of the dlbd checkout that contains dir: the closest
// ancestor holding a go.mod whose module line is ModulePath.
func FindRepo(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("kernelspec: find repository from %s: %w", dir, err)
	}
	for d := abs; ; d = filepath.Dir(d) {
		if modulePathOf(filepath.Join(d, "go.mod")) == ModulePath {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("kernelspec: no go.mod with module %s above %s; run this from the dlbd checkout", ModulePath, abs)
		}
	}
}

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
