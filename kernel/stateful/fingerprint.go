package stateful

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// sourceFingerprint returns a hash of the names, sizes and modification
// times of the module's Go sources (and go.mod, go.sum): it changes when a
// student edits dl while a notebook runs. Walking the checkout takes a few
// milliseconds. Hidden directories (.git, .venv) and build outputs are
// skipped.
func sourceFingerprint(repo string) string {
	h := sha256.New()
	filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if p != repo && (strings.HasPrefix(name, ".") || name == "build" || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") || name == "go.mod" || name == "go.sum" || strings.HasSuffix(name, ".s") {
			if info, err := d.Info(); err == nil {
				fmt.Fprintf(h, "%s %d %d\n", p, info.Size(), info.ModTime().UnixNano())
			}
		}
		return nil
	})
	return fmt.Sprintf("%x", h.Sum(nil))
}

// fileStamp identifies a file's current content cheaply: its size and
// modification time ("" when it does not exist).
func fileStamp(path string) string {
	st, err := os.Stat(path)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d %d", st.Size(), st.ModTime().UnixNano())
}
