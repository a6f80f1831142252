package browser

import (
	"os"
	"testing"
)

// TestLiveJupyterLabAssist opens testdata/assist.ipynb in JupyterLab (as
// TestLiveJupyterLab does) and checks with live/assist.mjs, by the keys a
// student presses, what the dlbd kernel answers while a cell is written:
// the kernel shows "Idle" before the first cell runs; the notebook's cells
// run and the last one, an expression, shows its Out[N] result; in a new
// cell "dl." and Tab open the completer popup with FromSlice, shown as a
// function; in another, "%%", "dl.MatMulWith(" and Shift+Tab open the
// tooltip with its signature and doc comment. Screenshots of failures go to
// $DLBD_SCREENSHOTS (live-jupyterlab-assist-<check>.png); with
// DLBD_SCREENSHOTS_STEPS=1 the popup's and the tooltip's are saved too
// (assist-completer-list.png, assist-completer.png, assist-tooltip.png).
func TestLiveJupyterLabAssist(t *testing.T) {
	lab := startLab(t, "testdata/assist.ipynb")
	args := []string{"--timeout-ms", "420000"}
	if os.Getenv("DLBD_SCREENSHOTS_STEPS") == "1" {
		args = append(args, "--steps", "1")
	}
	lab.run(t, "live/assist.mjs", args...)
}
