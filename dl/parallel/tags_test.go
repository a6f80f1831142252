package parallel_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFilesCarryCourseAndPaperTags checks STYLE rule 4: every source file
// names its course section and its paper, greppable.
func TestFilesCarryCourseAndPaperTags(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, tag := range []string{`// Course: "`, "// Paper: "} {
			if !strings.Contains(string(b), tag) {
				t.Errorf("%s has no %q tag", f, tag)
			}
		}
	}
}
