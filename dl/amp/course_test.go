package amp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCourseTags checks that every source file names the course section
// it implements (STYLE rule 4).
func TestCourseTags(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `// Course: "`) {
			t.Errorf("%s has no // Course: tag", f)
		}
	}
}
