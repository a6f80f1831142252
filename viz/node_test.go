package viz

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// nodeResult is what testdata/nodecheck.js prints.
type nodeResult struct {
	Errors   []string `json:"errors"`
	Elements map[string]struct {
		State string `json:"state"`
		Text  string `json:"text"`
		HTML  string `json:"html"`
	} `json:"elements"`
	// Early is each element as the scripts left it, before any timer ran.
	Early map[string]struct {
		State string `json:"state"`
		HTML  string `json:"html"`
	} `json:"early"`
	Charts map[string]struct {
		Theme    string            `json:"theme"`
		Renderer string            `json:"renderer"`
		Series   []string          `json:"series"`
		Calls    map[string]string `json:"calls"`
		Option   map[string]any    `json:"option"`
	} `json:"charts"`
	AMD            []string `json:"amd"`
	EChartsVersion *string  `json:"echartsVersion"`
}

// runNode runs the <script>s of html under node with stubs (see
// testdata/nodecheck.js); mode is "stub", "none" or "real". It skips the test
// when node is not installed.
func runNode(t *testing.T, html, mode string) nodeResult {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed: cannot run the fragment's JavaScript")
	}
	file := filepath.Join(t.TempDir(), "fragment.html")
	if err := os.WriteFile(file, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, "testdata/nodecheck.js", file, mode).Output()
	if err != nil {
		t.Fatalf("node nodecheck.js: %v\n%s", err, out)
	}
	var r nodeResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("decode node output: %v\n%.2000s", err, out)
	}
	return r
}
